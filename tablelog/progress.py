"""Progress of long work, reported by the application layer and shown (or not) by the CLI.

Commands take a `Progress` and call `start(total)` once they know how much work there is,
then `advance(n)` as they go; the default `SILENT` shows nothing.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, total: int | None, description: str) -> None: ...

    def advance(self, count: int = 1) -> None: ...


class _Silent:
    def start(self, total: int | None, description: str) -> None:
        pass

    def advance(self, count: int = 1) -> None:
        pass


SILENT: Progress = _Silent()
