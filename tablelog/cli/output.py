"""Rendering helpers shared by the CLI commands: JSON to stdout, times, errors to stderr.

Every text that reaches a terminal goes through here. Players' texts (narration, stakes,
names) are stored byte for byte, and may hold characters a terminal acts on instead of
showing: C0 and C1 controls (U+009B starts a control sequence like ESC [), DEL, and the
bidirectional controls that reorder what follows (U+202E). `say` shows them as escapes
(`\\x9b`, `\\u202e`); JSON output escapes them inside its strings, which keeps every value
as it is; a verbatim stream (`log --json` lines, an export) is escaped only when it is
written to a terminal, so a file or a pipe still gets the stored bytes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
import typer

_JSON = msgspec.json.Encoder()

# C0 controls but tab and newline, DEL, C1 controls, the bidirectional marks, embeddings,
# overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# The same characters as JSON text encodes them (C0 is escaped by every JSON encoder): in
# valid UTF-8 a lead byte never occurs inside another character, so a match is one character.
_UNSAFE_UTF8 = re.compile(
    rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]"
)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: str) -> str:
    """`text` with every character a terminal would act on written as an escape."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def say(text: str = "", *, err: bool = False) -> None:
    """One line of text for a person: to stdout (stderr with `err`), escaped (`safe`)."""
    typer.echo(safe(text), err=err)


def _json_escape(found: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(found.group().decode())


def json_safe(data: bytes) -> bytes:
    """JSON text with those characters as `\\uXXXX` escapes: the same JSON values."""
    return _UNSAFE_UTF8.sub(_json_escape, data) if _UNSAFE_UTF8.search(data) else data


def emit_json(value: Any) -> None:
    sys.stdout.buffer.write(json_safe(_JSON.encode(value)) + b"\n")
    sys.stdout.buffer.flush()


def to_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def emit_raw(data: bytes, *, json_lines: bool = False) -> None:
    """Bytes as they are stored (an export, a post): escaped only on a terminal, where the
    bytes would be acted on rather than kept (JSON Lines as JSON escapes)."""
    if to_terminal():
        data = json_safe(data) if json_lines else safe(data.decode("utf-8", "replace")).encode()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def emit_line(data: bytes) -> None:
    """One JSON line whose payload is the stored bytes (`log --json`): those bytes in a file
    or a pipe, JSON-escaped on a terminal."""
    sys.stdout.buffer.write((json_safe(data) if to_terminal() else data) + b"\n")


def when(recorded_at: int) -> str:
    """Microseconds since the epoch as an ISO time in UTC, to the second."""
    try:
        stamp = datetime.fromtimestamp(recorded_at / 1_000_000, tz=UTC)
    except (ValueError, OverflowError, OSError):
        return f"{recorded_at}us"  # out of the calendar's range: show the stored number
    return stamp.strftime("%Y-%m-%d %H:%M:%SZ")


def decoded(value: Any, kind: type[Any]) -> Any:
    """A JSON value from the service as the struct the local code would have produced."""
    return msgspec.convert(value, kind)


def columns(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Rows as aligned columns under their headers (rich's Table would cost every `campaign
    list` its 20 ms import for the same thing)."""
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]
    lines = [headers, *rows]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in lines
    )
