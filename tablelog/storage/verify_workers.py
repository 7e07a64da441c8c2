"""`verify` on several CPUs: campaigns are independent chains, so worker processes check them
side by side, each campaign inside its own read snapshot, and the first break is still the
first in the order a single walk would meet it.

Used for logs big enough to repay starting the workers (`PARALLEL_FROM` events across more
than one campaign). The verifying process checks campaigns too, from the back of the list,
while the workers start and then take them from the front; they meet in the middle. A worker
is `python -m tablelog.storage.verify_worker`: a fresh interpreter that imports only the store
(never the caller's main module, as a multiprocessing worker would), given the
database's URL and then one campaign name at a time by a thread of the verifying process,
over its stdin (never its command line, which other users may read) (see tablelog.workers).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable

import msgspec

from tablelog.errors import StorageError
from tablelog.progress import Progress
from tablelog.workers import read_frame, usable_cpus, write_frame

PARALLEL_FROM = 500_000  # events; below this, starting the workers (about 0.3 s) costs more


class Checked(msgspec.Struct, frozen=True, array_like=True):
    """One campaign's result: events checked, and its first break (or a reason the worker
    could not check it at all, such as a server gone away)."""

    events: int
    first_bad: tuple[int | None, str] | None = None  # (seq, reason)
    failure: str | None = None


_NAME = msgspec.msgpack.Encoder()
_RESULT = msgspec.msgpack.Decoder(Checked)


def workers_for(campaigns: int, events: int) -> int:
    """How many processes to check with, this one included (1: walk in this one only)."""
    if campaigns < 2 or events < PARALLEL_FROM:
        return 1
    return max(1, min(usable_cpus(), campaigns))


def check_in_workers(
    url: str,
    names: list[str],
    workers: int,
    progress: Progress,
    check_here: Callable[[str], Checked],
) -> list[Checked]:
    """Each campaign of `names` checked by `workers` processes, this one among them; the
    results in the order of `names`. `check_here` shows its own progress. A worker that
    cannot start, or stops, leaves its campaigns to this process."""
    waiting = deque(names)  # popleft by the workers' feeders, pop by this process: atomic
    results: dict[str, Checked] = {}
    feeders = [
        threading.Thread(target=_feed, args=(url, waiting, results, progress), daemon=True)
        for _ in range(workers - 1)
    ]
    for feeder in feeders:
        feeder.start()
    while waiting:
        try:
            name = waiting.pop()
        except IndexError:  # a feeder took the last one
            break
        results[name] = check_here(name)
    for feeder in feeders:
        feeder.join()
    for name in names:  # any a worker took and could not answer for
        if name not in results:
            results[name] = check_here(name)
    return [results[name] for name in names]


def _feed(url: str, waiting: deque[str], results: dict[str, Checked], progress: Progress) -> None:
    """One worker's life: start it, hand it the next waiting campaign until none is left."""
    try:
        worker = subprocess.Popen(
            [sys.executable, "-m", "tablelog.storage.verify_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # its failures are this process's to find and tell
        )
    except OSError:
        return
    assert worker.stdin is not None
    assert worker.stdout is not None
    try:
        write_frame(worker.stdin, _NAME.encode(url))
        while True:
            try:
                name = waiting.popleft()
            except IndexError:
                return
            write_frame(worker.stdin, _NAME.encode(name))
            worker.stdin.flush()
            result = _RESULT.decode(read_frame(worker.stdout))
            results[name] = result
            progress.advance(result.events)
    except (OSError, EOFError, msgspec.DecodeError):
        return  # the campaign it held has no result: the verifying process checks it
    finally:
        with contextlib.suppress(OSError):  # a worker that died: nothing more to tell it
            worker.stdin.close()
        worker.stdout.close()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def failed(result: Checked) -> None:
    if result.failure is not None:
        raise StorageError(result.failure)
