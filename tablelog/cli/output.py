"""Rendering helpers shared by the CLI commands: JSON to stdout, times, errors to stderr."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from typing import Any

import msgspec
import typer

_JSON = msgspec.json.Encoder()


def emit_json(value: Any) -> None:
    sys.stdout.buffer.write(_JSON.encode(value) + b"\n")
    sys.stdout.buffer.flush()


def emit_line(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")


def when(recorded_at: int) -> str:
    """Microseconds since the epoch as an ISO time in UTC, to the second."""
    stamp = datetime.fromtimestamp(recorded_at / 1_000_000, tz=UTC)
    return stamp.strftime("%Y-%m-%d %H:%M:%SZ")


def refuse(message: str, code: int = 1) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)
