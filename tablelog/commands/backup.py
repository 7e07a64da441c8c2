"""`backup`: a copy of a live SQLite log that is known good before it bears its name.

The copy is one committed moment of the log, taken while services keep writing (see
storage/backup.py), written under a temporary name beside the destination, checked as
`tablelog verify` checks a log (every campaign's sequence and hash chain, in the copy itself),
and only then renamed to the destination. A copy that fails the check is removed.
A PostgreSQL database is refused: its own tools (pg_dump, pg_restore) copy a server.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from tablelog.commands.database import opened
from tablelog.commands.log import Break, verify
from tablelog.errors import InvalidInput
from tablelog.progress import SILENT, Progress
from tablelog.storage import EventStore, open_store
from tablelog.storage.backup import (
    copy_live,
    discard,
    leftovers,
    partial_beside,
    publish,
)
from tablelog.storage.engine import file_of, is_sqlite, resolve_url

__all__ = ["BackupReport", "backup"]

POSTGRESQL = (
    "tablelog backup copies a SQLite file; back up a PostgreSQL database with `pg_dump -Fc` "
    'and restore it with `createdb` and `pg_restore` (README, section "Hosting")'
)


class BackupReport(msgspec.Struct, frozen=True, kw_only=True):
    """What was copied, and the check of the copy (`first_bad` as `verify` names it)."""

    ok: bool
    database: str
    file: str
    campaigns: int
    events: int
    bytes: int
    first_bad: Break | None


def backup(
    target: str | EventStore,
    destination: Path,
    *,
    force: bool = False,
    progress: Progress = SILENT,
) -> BackupReport:
    """Copy the SQLite log at `target` to `destination` and verify the copy. Refused, with
    nothing written, for a server, a missing directory, or a destination that exists
    (unless `force`). A copy that fails verification is removed: `ok` is then False."""
    source = _source(target)
    try:
        destination = _destination(destination, source, force)
    except OSError as exc:  # a name too long, a folder not readable: said, not a traceback
        raise InvalidInput(
            f"cannot write the backup there: {exc.strerror or exc}", code="backup-bad-file"
        ) from None
    with opened(target, check_schema=False) as store:
        partial = partial_beside(destination)
        try:
            copy_live(store.engine, source, partial, progress)
            size = partial.stat().st_size
            copied = open_store(str(partial), check_schema=False)
            copied.label = f"the copy of {store.label}"
            try:
                report = verify(copied, progress=progress)
            finally:
                copied.close()
            if report.ok:
                publish(partial, destination, replace=force)
        except BaseException:
            discard(partial)  # a half copy, or one that cannot be read back: never kept
            raise
        if not report.ok:
            discard(partial)
        return BackupReport(
            ok=report.ok,
            database=store.label,
            file=str(destination),
            campaigns=report.campaigns,
            events=report.events,
            bytes=size,
            first_bad=report.first_bad,
        )


def _source(target: str | EventStore) -> Path:
    """The SQLite file to copy; a server or a database in memory is refused."""
    url = target.engine.url if isinstance(target, EventStore) else resolve_url(target)
    if not is_sqlite(url):
        raise InvalidInput(POSTGRESQL, code="backup-postgresql")
    path = file_of(url)
    if path is None:
        raise InvalidInput(
            "tablelog backup copies a database file, and this one is held in memory",
            code="backup-memory",
        )
    return path


# The files SQLite keeps beside a database while it is used.
_COMPANIONS = ("-wal", "-shm", "-journal")


def _destination(destination: Path, source: Path, force: bool) -> Path:
    """`destination`, once it is known to be a file that may be written."""
    destination = destination.expanduser()
    folder = destination.absolute().parent
    if not folder.is_dir():
        raise InvalidInput(
            f"there is no directory {folder} to write {destination.name} in; create it first",
            code="backup-no-directory",
        )
    if destination.is_dir():
        raise InvalidInput(
            f"{destination} is a directory; name the backup file (e.g. {destination}/tablelog.db)",
            code="backup-is-directory",
        )
    companions = {source.absolute().with_name(source.name + end) for end in _COMPANIONS}
    if destination.absolute() in companions:
        raise InvalidInput(
            f"{destination} is a file of the database being backed up (its write-ahead log "
            "or lock file); choose another file",
            code="backup-same-file",
        )
    if destination.exists() or destination.is_symlink():
        if source.exists() and destination.exists() and destination.samefile(source):
            raise InvalidInput(
                f"{destination} is the database being backed up; choose another file",
                code="backup-same-file",
            )
        if not force:
            raise InvalidInput(
                f"{destination} exists; give --force to replace it", code="backup-exists"
            )
    beside = leftovers(destination)
    if beside:
        # SQLite would fold a log left beside the name into the copy the first time it opens.
        raise InvalidInput(
            f"{beside[0]} lies beside {destination.name}: a database there may still be "
            "open; stop what uses it, or choose another name",
            code="backup-in-use",
        )
    return destination
