"""Import: a JSON Lines export loaded into this database, every line checked as it goes in.

Each line is checked (import_check.py) before its row joins the load, and the whole file goes
in as one transaction: a line that does not hold refuses the file, naming the line, and
nothing of the file stays. Reading, checking and writing in one pass keeps memory flat
however long the file. A large file is checked in a worker process while this one writes the
batches already checked: the check and SQLite's own work take about as long each, so two CPUs
nearly halve the time (bench/run.py).
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import closing
from pathlib import Path
from typing import IO

import msgspec

from tablelog.commands.access import new_token
from tablelog.commands.database import opened
from tablelog.commands.import_check import (
    Begun,
    Loading,
    Refused,
    checked_batches,
    read_message,
)
from tablelog.errors import AlreadyExists, InvalidInput
from tablelog.progress import SILENT, Progress
from tablelog.rules.names import campaign_key
from tablelog.storage import EventStore, new_sqlite_file
from tablelog.workers import usable_cpus

PARALLEL_FROM = 16 << 20  # bytes (about 50,000 events): below, starting a worker costs more
_CHUNK = 1 << 20


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    ruleset: str
    events: int
    head_seq: int
    head_hash: str
    token: str


class _WorkerLost(Exception):
    """The checking process could not start or stopped without a verdict."""


def import_into(
    target: str | EventStore, path: Path, *, progress: Progress = SILENT
) -> list[Imported]:
    """`import_jsonl` into the database at `target`, created if it is a new SQLite file; a
    file refused leaves no new database behind."""
    _open(path).close()  # an unreadable file is refused before any database is made
    created = new_sqlite_file(target) if isinstance(target, str) else None
    try:
        with opened(target, create=True) as store:
            return import_jsonl(store, path, progress=progress)
    except BaseException:
        if created is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                created.with_name(created.name + suffix).unlink(missing_ok=True)
        raise


def import_jsonl(
    store: EventStore, path: Path, *, progress: Progress = SILENT, worker: bool | None = None
) -> list[Imported]:
    """Load the export at `path`; every campaign in it must be new to this database.

    `worker`: check the file in a worker process (True), here (False), or as its size and
    the CPUs repay (None). A worker that cannot run leaves the work to this process."""
    if worker is None:
        worker = usable_cpus() > 1 and _size(path) >= PARALLEL_FROM
    if worker:
        try:
            return _load(store, path, progress, in_worker=True)
        except _WorkerLost:
            pass  # rolled back: the check starts again here
    return _load(store, path, progress, in_worker=False)


def _load(store: EventStore, path: Path, progress: Progress, *, in_worker: bool) -> list[Imported]:
    total = _count_lines(path) if progress is not SILENT else None
    batches = _from_worker(path) if in_worker else _checked_here(path)
    with closing(batches), store.bulk_load() as load:
        progress.start(total, "importing")
        begun: dict[str, Begun] = {}
        ends: dict[str, tuple[int, bytes]] = {}
        for batch in batches:
            for campaign in batch.begun:
                try:
                    # A name too like an existing campaign's is refused, as `campaign create`
                    # refuses it (`rec.` beside `rec`: see `campaign_key`).
                    load.create(campaign.name, campaign.ruleset, like=campaign_key)
                except AlreadyExists as exc:
                    if exc.code == "similar-name":
                        why = exc.message.removesuffix("; choose another")
                        raise AlreadyExists(
                            f"line {campaign.line}: {why}; nothing was imported",
                            code="similar-name",
                        ) from None
                    raise AlreadyExists(
                        f"campaign {campaign.name} already exists in {store.label}; "
                        "nothing was imported"
                    ) from None
                begun[campaign.name] = campaign
            if batch.rows:
                load.insert(batch.rows)
                progress.advance(len(batch.rows))
            if batch.ends is not None:
                ends = batch.ends
        if not ends:
            raise InvalidInput(f"{path} holds no events", code="bad-import")
        imported = []
        for name, (seq, digest) in ends.items():
            load.finish(name, seq, digest)
            token, token_hash = new_token()
            load.add_access_token(
                campaign=name, token_hash=token_hash, player=begun[name].gm, role="gm"
            )
            imported.append(
                Imported(
                    campaign=name,
                    ruleset=begun[name].ruleset,
                    events=seq,
                    head_seq=seq,
                    head_hash=digest.hex(),
                    token=token,
                )
            )
    return imported


def _from_worker(path: Path) -> Generator[Loading]:
    """The batches of `checked_batches`, from a worker process checking the file at `path`
    (`python -m tablelog.commands.import_check PATH`: a fresh interpreter that imports only
    the check, never the caller's main module as a multiprocessing worker would)."""
    import subprocess
    import sys

    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tablelog.commands.import_check", str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # its own failures are told by this process's own check
        )
    except OSError as exc:
        raise _WorkerLost(str(exc)) from None
    assert process.stdout is not None
    try:
        while True:
            try:
                message = read_message(process.stdout)
            except (EOFError, ValueError, OSError):
                raise _WorkerLost(f"exit code {process.poll()}") from None
            if isinstance(message, Refused):
                raise InvalidInput(message.message, code=message.code)
            yield message
            if message.ends is not None:
                return
    finally:
        process.stdout.close()
        if process.poll() is None:
            process.kill()
        process.wait()


def _checked_here(path: Path) -> Generator[Loading]:
    with _open(path) as handle:
        for batch in checked_batches(handle):
            yield Loading.of(batch)


def _open(path: Path) -> IO[bytes]:
    try:
        return path.open("rb")
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}", code="bad-import") from None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # opening it says why


def _count_lines(path: Path) -> int | None:
    try:
        with path.open("rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(_CHUNK), b""))
    except OSError:
        return None  # opening it to import says why
