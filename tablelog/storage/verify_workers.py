"""`verify` on several CPUs: a chain can be checked in stretches (each row's hash covers the
prev_hash it names, so a stretch only has to start where the one before it ended), and worker
processes check parts of campaigns side by side with the verifying process. The verifying
process then links the parts; any campaign not found sound that way it walks again itself, in
its own read snapshot, as a single walk would: the report, and the first break, are the same.

Used for logs big enough to repay starting the workers (`PARALLEL_FROM` events): a campaign of
10,000 events is four parts, so two processes finish within a part of each other. The workers
start before the verifying process looks for orphaned events, and check parts from the front of
the list while it checks them from the back. A worker is a fresh interpreter running
verify_worker.py (never the caller's main module, as a multiprocessing worker would), given
the database (never on its command line, which other users may read) and then one part at a
time by a thread of the verifying process, over its stdin (see tablelog.workers).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path

import msgspec

from tablelog.progress import Progress
from tablelog.storage import EventStore, verify_worker
from tablelog.storage.engine import BUSY_TIMEOUT_MS
from tablelog.storage.verify_worker import Linked, Part, Target
from tablelog.workers import read_frame, usable_cpus, write_frame

# Events; below these, starting a worker costs more than it saves. A worker on a SQLite file
# starts in about 0.1 s (verify_worker.py); one on a server imports SQLAlchemy too (0.4 s).
PARALLEL_FROM = 50_000
PARALLEL_FROM_SERVER = 500_000
PART = 2500  # events: about 15 ms of a worker's time

_TARGET = msgspec.msgpack.Encoder()
_PART = msgspec.msgpack.Encoder()
_ANSWER = msgspec.msgpack.Decoder(Linked | None)
_WORKER = str(Path(verify_worker.__file__).resolve())


def workers_for(events: int, *, server: bool) -> int:
    """How many processes to check with, this one included (1: walk in this one only)."""
    if events < (PARALLEL_FROM_SERVER if server else PARALLEL_FROM):
        return 1
    return max(1, min(usable_cpus(), -(-events // PART)))


def target_of(store: EventStore) -> Target:
    """What a worker is told to open: a SQLite file by its path, anything else by its URL."""
    url = store.engine.url
    if store.is_sqlite and url.database and not url.query:
        return Target(sqlite=url.database, timeout=BUSY_TIMEOUT_MS / 1000)
    return Target(url=url.render_as_string(hide_password=False))


def parts_of(name: str, ruleset: str, head_seq: int) -> list[Part]:
    """A campaign of `head_seq` events in parts of nearly the same size, at most PART."""
    count = -(-head_seq // PART)
    size = -(-head_seq // count)
    return [
        Part(name, ruleset, first, min(first + size - 1, head_seq), first + size > head_seq)
        for first in range(1, head_seq + 1, size)
    ]


def linked(results: list[Linked | None], head_hash: object) -> bool:
    """Whether a campaign's parts, in order, are each sound and make one chain up to its
    head (the first part began at the genesis hash)."""
    before: bytes | None = None
    for result in results:
        if result is None or (before is not None and result.prev != before):
            return False
        before = result.hash
    return before is not None and before == head_hash


class Pool:
    """Worker processes, started as soon as the log's size is known: they start while this
    one still checks the log's other tables."""

    def __init__(self, target: Target, count: int) -> None:
        self.workers: list[subprocess.Popen[bytes]] = []
        for _ in range(count):
            try:
                worker = subprocess.Popen(
                    [sys.executable, "-P", _WORKER],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,  # its failures are this process's to find
                )
            except OSError:
                continue
            assert worker.stdin is not None
            try:
                write_frame(worker.stdin, _TARGET.encode(target))
                worker.stdin.flush()
            except OSError:
                _stop(worker)
                continue
            self.workers.append(worker)

    def check(
        self, parts: list[Part], progress: Progress, check_here: Callable[[Part], Linked | None]
    ) -> list[Linked | None]:
        """Each part checked by a worker or by `check_here` (this process, which shows its
        own progress); the results in the order of `parts`. A worker that stops leaves its
        parts to this process."""
        waiting = deque(range(len(parts)))  # popleft by the feeders, pop by this process
        results: dict[int, Linked | None] = {}
        feeders = [
            threading.Thread(
                target=_feed, args=(worker, parts, waiting, results, progress), daemon=True
            )
            for worker in self.workers
        ]
        for feeder in feeders:
            feeder.start()
        while True:
            try:
                index = waiting.pop()
            except IndexError:  # the feeders took the last ones
                break
            results[index] = check_here(parts[index])
        for feeder in feeders:
            feeder.join()
        for index, part in enumerate(parts):  # any a worker took and could not answer for
            if index not in results:
                results[index] = check_here(part)
        return [results[index] for index in range(len(parts))]

    def close(self) -> None:
        for worker in self.workers:
            _stop(worker)
        self.workers = []


def _feed(
    worker: subprocess.Popen[bytes],
    parts: list[Part],
    waiting: deque[int],
    results: dict[int, Linked | None],
    progress: Progress,
) -> None:
    """Hand one worker the next waiting parts, one ahead of the one it checks (this thread
    waits for the interpreter's lock before it can send the next), until none is left."""
    stdin, stdout = worker.stdin, worker.stdout
    assert stdin is not None
    assert stdout is not None
    sent: deque[int] = deque()

    def send() -> bool:
        try:
            index = waiting.popleft()
        except IndexError:
            return False
        sent.append(index)
        write_frame(stdin, _PART.encode(parts[index]))
        return True

    try:
        send()
        while sent:
            if len(sent) < 2 and len(waiting) > 2:  # near the end, none kept in reserve
                send()
            stdin.flush()
            answer = _ANSWER.decode(read_frame(stdout))
            index = sent.popleft()
            results[index] = answer
            if answer is not None:
                progress.advance(parts[index].last - parts[index].first + 1)
            if not sent:
                send()
    except (OSError, EOFError, ValueError, msgspec.DecodeError):
        # (ValueError: its pipes closed under it, the verifying process interrupted.)
        return  # the parts it held have no result: the verifying process checks them
    finally:
        _stop(worker)


def _stop(worker: subprocess.Popen[bytes]) -> None:
    """Close a worker's stdin (it ends on that) and wait for it."""
    if worker.stdin is not None:
        with contextlib.suppress(OSError):  # a worker that died: nothing more to tell it
            worker.stdin.close()
    if worker.stdout is not None:
        worker.stdout.close()
    try:
        worker.wait(timeout=10)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()
