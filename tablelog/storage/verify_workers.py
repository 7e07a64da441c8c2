"""`verify` on several CPUs: campaigns are independent chains, so worker processes check them
side by side, each campaign inside its own read snapshot, and the first break is still the
first in the order a single walk would meet it.

Used for logs big enough to repay starting the workers (`PARALLEL_FROM` events across more
than one campaign); the verifying process checks campaigns too while they start. Workers
are spawned, not forked: the parent's connections and threads are never copied into them.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import msgspec

from tablelog.errors import StorageError, TablelogError
from tablelog.progress import Progress

PARALLEL_FROM = 500_000  # events; below this, starting the workers (about 0.5 s) costs more


class Checked(msgspec.Struct, frozen=True):
    """One campaign's result: events checked, and its first break (or a reason the worker
    could not check it at all, such as a server gone away)."""

    events: int
    first_bad: tuple[int | None, str] | None = None  # (seq, reason)
    failure: str | None = None


def workers_for(campaigns: int, events: int) -> int:
    """How many processes to check with, this one included (1: walk in this one only)."""
    if campaigns < 2 or events < PARALLEL_FROM:
        return 1
    return max(1, min(os.cpu_count() or 1, campaigns))


def check_in_workers(
    url: str,
    names: list[str],
    workers: int,
    progress: Progress,
    check_here: Callable[[str], Checked],
) -> list[Checked] | None:
    """Each campaign of `names` checked by `workers` processes, this one among them: the
    others take campaigns from the front of the list, this one (warm at once, where a
    worker first starts an interpreter) from the back, until they meet. The results in the
    order of `names`; None when the workers could not run (the caller then walks the log
    itself)."""
    import multiprocessing  # here: `log` and the other users of verify.py never need it
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("spawn")
    results: dict[str, Checked] = {}
    try:
        with ProcessPoolExecutor(
            max_workers=workers - 1, mp_context=context, initializer=_open, initargs=(url,)
        ) as pool:
            futures = {name: pool.submit(_check, name) for name in names}
            for name in reversed(names):
                if not futures[name].cancel():
                    break  # a worker has it: the two ends have met
                results[name] = check_here(name)  # it shows its own progress
            running = [future for future in futures.values() if not future.cancelled()]
            for future in as_completed(running):
                progress.advance(future.result().events)
            for name, future in futures.items():
                if name not in results:
                    results[name] = future.result()
            return [results[name] for name in names]
    except (BrokenProcessPool, OSError):
        return None


_STORE: object = None  # the worker's own store, opened once by `_open`


def _open(url: str) -> None:
    global _STORE
    from tablelog.storage import open_store

    _STORE = open_store(url, check_schema=False)


def _check(name: str) -> Checked:
    from tablelog.storage import EventStore
    from tablelog.storage.verify import verify_log

    assert isinstance(_STORE, EventStore)
    try:
        report = verify_log(_STORE, campaign=name, workers=1)
    except TablelogError as exc:  # sent back as text: not every error pickles
        return Checked(events=0, failure=exc.message)
    bad = report.first_bad
    return Checked(events=report.events, first_bad=None if bad is None else (bad.seq, bad.reason))


def failed(result: Checked) -> None:
    if result.failure is not None:
        raise StorageError(result.failure)
