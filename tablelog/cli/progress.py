"""A rich progress bar on stderr when it is a terminal; nothing when piped or redirected.

rich is imported only when a bar is shown: it costs a command that prints to a pipe (a
script, a bot) about 35 ms it would never use.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from tablelog.progress import SILENT
from tablelog.progress import Progress as ProgressPort

# Below this many events the work is over before a bar could be read.
MIN_TOTAL = 2000


if TYPE_CHECKING:
    from rich.progress import Progress


class _Bar:
    def __init__(self, bar: Progress) -> None:
        self._bar = bar
        self._task: Any = None  # rich's TaskID, once a bar is shown

    def start(self, total: int | None, description: str) -> None:
        if total is not None and total < MIN_TOTAL:
            return
        self._task = self._bar.add_task(description, total=total)

    def advance(self, count: int = 1) -> None:
        if self._task is not None:
            self._bar.advance(self._task, count)


@contextmanager
def progress_bar() -> Iterator[ProgressPort]:
    """A `Progress` for the length of a command: a bar on a terminal, else silent."""
    if not sys.stderr.isatty():
        yield SILENT
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        yield _Bar(bar)
