"""A consistent copy of a live SQLite log, written beside its destination and renamed there.

How: SQLite's online backup API (`sqlite3.Connection.backup`), copying the file page by page
in steps, from inside one read transaction held on the source connection for the whole copy.

Why this, not `VACUUM INTO`: both copy one committed snapshot, and in WAL mode (every file
tablelog migrates) neither holds a writer off, since a reader never blocks the writer and every
checkpoint tablelog runs is PASSIVE. But `VACUUM INTO` is one statement that rebuilds every
table and index with no measure of how far it has gone, where the backup API copies pages as
they are, reports pages done out of pages in all after each step, and gives back the same file
(its WAL mode, page size and pages). Why the held read transaction: without one, each step
takes and drops its own, and SQLite starts the copy over whenever another connection commits
in between; a service that writes every few hundred milliseconds would keep a big copy from
ever finishing. Held, every step reads the one snapshot taken at the start, so the copy is
that moment's log whatever is committed meanwhile. A file still in rollback-journal mode
(never migrated) would have its writers wait on that read lock, so there the steps go without
it: writers get in between steps, and SQLite restarts the copy when one does.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from tablelog.errors import InvalidInput, StorageError
from tablelog.progress import SILENT, Progress
from tablelog.storage.engine import translated

# Pages copied per step: 4 MiB at SQLite's default page size. Only the progress shown and the
# time between checks for Ctrl-C depend on it, since the snapshot is held between steps.
STEP_PAGES = 1024
_SIDE_FILES = ("-wal", "-shm", "-journal")


def partial_beside(destination: Path) -> Path:
    """A new, empty file of a name of its own in the destination's directory: the copy is
    written there and renamed at the end, so a half copy never bears the destination's name."""
    try:
        fd, name = tempfile.mkstemp(
            dir=destination.parent, prefix=f".{destination.name}.", suffix=".partial"
        )
    except OSError as exc:
        raise InvalidInput(
            f"cannot write in {destination.parent}: {exc.strerror}", code="bad-output"
        ) from None
    os.close(fd)
    return Path(name)


def copy_live(engine: Engine, source: Path, partial: Path, progress: Progress = SILENT) -> None:
    """Copy the SQLite database under `engine` (the file `source`) into the empty file
    `partial`, one snapshot of it, in steps; see the module's docstring."""
    with translated(f"cannot back up {source}"):
        fairy = engine.raw_connection()
        try:
            connection: Any = fairy.driver_connection
            wal = connection.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
            if wal:
                # The read transaction every step shares: BEGIN defers, the SELECT starts it.
                connection.execute("BEGIN")
                connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
            try:
                _steps(connection, partial, progress)
            finally:
                if wal:
                    connection.execute("ROLLBACK")  # it only read
        finally:
            fairy.close()
    _keep_mode(source, partial)
    _sync(partial)


def _steps(connection: Any, partial: Path, progress: Progress) -> None:
    target = sqlite3.connect(partial, isolation_level=None)
    try:
        target.execute("PRAGMA synchronous = FULL")
        done = 0
        started = False

        def report(_status: int, remaining: int, total: int) -> None:
            nonlocal done, started
            if not started:
                progress.start(total, "copying pages")
                started = True
            copied = total - remaining
            if copied > done:  # a restart (rollback-journal files only) shows no progress
                progress.advance(copied - done)
                done = copied

        connection.backup(target, pages=STEP_PAGES, progress=report)
    finally:
        target.close()


def _keep_mode(source: Path, partial: Path) -> None:
    """The copy gets the source's permissions (mkstemp made it private to its owner): a log
    holds the hashes of access tokens, and its owner chose who may read it."""
    with contextlib.suppress(OSError):
        partial.chmod(stat.S_IMODE(source.stat().st_mode))


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def leftovers(path: Path) -> list[Path]:
    """Files SQLite keeps beside `path` while a connection has it open (or after a crash)."""
    return [side for side in (path.with_name(path.name + s) for s in _SIDE_FILES) if side.exists()]


def discard(partial: Path) -> None:
    """Remove a copy that is not to be kept, and whatever SQLite left beside it."""
    for path in (partial, *(partial.with_name(partial.name + s) for s in _SIDE_FILES)):
        path.unlink(missing_ok=True)


def publish(partial: Path, destination: Path, *, replace: bool) -> None:
    """Give the finished copy its name. Without `replace` a file that appeared there since
    the start is kept, and the copy refused: a hard link never overwrites."""
    for side in leftovers(partial):
        if side.name.endswith("-wal") and side.stat().st_size > 0:
            raise StorageError(f"the copy {partial} was left with a write-ahead log; not kept")
        side.unlink()  # what reading the copy left: an index and an empty log
    try:
        if replace:
            partial.replace(destination)
        else:
            try:
                os.link(partial, destination)
            except FileExistsError:
                raise InvalidInput(
                    f"{destination} exists; give --force to replace it", code="backup-exists"
                ) from None
            except OSError:
                # A file system without hard links: the check at the start has to do.
                if destination.exists():
                    raise InvalidInput(
                        f"{destination} exists; give --force to replace it", code="backup-exists"
                    ) from None
                partial.replace(destination)
            else:
                partial.unlink()
    except OSError as exc:
        raise InvalidInput(
            f"cannot write {destination}: {exc.strerror}", code="bad-output"
        ) from None
    _sync_directory(destination.parent)


def _sync_directory(folder: Path) -> None:
    """Make the rename itself survive a power cut (POSIX; elsewhere the rename must do)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
