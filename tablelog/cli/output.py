"""Rendering helpers shared by the CLI commands: JSON to stdout, times, errors to stderr."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

_JSON = msgspec.json.Encoder()


def emit_json(value: Any) -> None:
    sys.stdout.buffer.write(_JSON.encode(value) + b"\n")
    sys.stdout.buffer.flush()


def emit_line(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")


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
