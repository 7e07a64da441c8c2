"""Where the log is kept: SQLAlchemy Core on SQLite or PostgreSQL. Driver errors stay here."""

from __future__ import annotations

from pathlib import Path

from tablelog import rulesets
from tablelog.errors import DamagedDatabase, NotFound
from tablelog.storage.engine import (
    POOL_MOST,
    build_engine,
    describe,
    file_of,
    is_sqlite,
    resolve_url,
)
from tablelog.storage.migrate import check_revision
from tablelog.storage.store import AppendResult, CampaignHead, CampaignTransaction, EventStore

DEFAULT_TARGET = "tablelog.db"


def open_store(
    target: str, *, create: bool = False, check_schema: bool = True, connections: int = POOL_MOST
) -> EventStore:
    """Open the log at `target` (a file path or a database URL), with at most `connections`
    connections to it at once.

    A SQLite file that does not exist yet is created and migrated only when `create` is set
    (commands that write); reading a missing file is refused rather than leaving an empty
    file behind. A SQLite file at an older revision is migrated on open; a server must be
    migrated with `tablelog db upgrade`.
    """
    url = resolve_url(target)
    if not create and new_sqlite_file(target) is not None:
        raise NotFound(
            f"there is no database at {url.database}; "
            f"`tablelog campaign create NAME --ruleset {rulesets.names()[0]}` creates one"
        )
    engine = build_engine(url, connections)
    store = EventStore(engine)
    if check_schema:
        try:
            check_revision(engine, auto_upgrade=is_sqlite(url))
        except BaseException:
            store.close()
            raise
    return store


def new_sqlite_file(target: str) -> Path | None:
    """The path of the SQLite file `target` names when that file does not exist yet."""
    path = file_of(resolve_url(target))
    return None if path is None or path.exists() else path


__all__ = [
    "DEFAULT_TARGET",
    "AppendResult",
    "CampaignHead",
    "CampaignTransaction",
    "DamagedDatabase",
    "EventStore",
    "describe",
    "new_sqlite_file",
    "open_store",
]
