"""An import's write: one transaction that creates campaigns and loads their events in batches.

The caller checks the chain (an import recomputes every hash as it reads the file, a what-if
copy reads a log that holds it); the load keeps the store's own invariants: each campaign is
new, every event id unique, each head moved once to its last event. `EventStore.bulk_load`
opens it; an exception anywhere rolls the whole load back, so a file refused at its last line
leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from sqlalchemy.engine import Connection

from tablelog.errors import ConcurrencyConflict, DuplicateEventId
from tablelog.events.envelope import EventRow
from tablelog.storage.rows import now_us
from tablelog.storage.transaction import (
    insert_access_token,
    insert_campaign,
    insert_rows,
    move_head,
)

Loaded = tuple[str, int, str, str, int, str, int, bytearray, bytearray, bytearray]
"""An EventRow whose bytes are bytearrays, as an import reads them (commands/import_check.py):
CPython's sqlite3 binds a bytearray at once, and first offers a bytes value to its adapters."""


class BulkLoad:
    def __init__(self, connection: Connection, label: str) -> None:
        self._conn = connection
        self._label = label

    def create(self, name: str, ruleset: str, *, like: Callable[[str], str] | None = None) -> None:
        """A new campaign with an empty chain; AlreadyExists when the name is taken, or
        (given `like`: see `insert_campaign`) when a campaign's name looks like it."""
        insert_campaign(self._conn, name, ruleset, like=like)

    def insert(self, rows: Sequence[EventRow] | Sequence[Loaded]) -> None:
        """Events of campaigns created in this load, each chained onto the one before."""
        try:
            # The rows go to the driver as they are, and it stores a bytearray as it stores
            # bytes (a BLOB; bytea on PostgreSQL).
            insert_rows(self._conn, cast("Sequence[EventRow]", rows))
        except self._conn.dialect.loaded_dbapi.IntegrityError:
            raise DuplicateEventId(
                f"an event id of the file is already stored in {self._label}; nothing was imported"
            ) from None

    def finish(self, name: str, seq: int, digest: bytes) -> None:
        """Move a created campaign's head to its last loaded event."""
        if move_head(self._conn, name, start=0, seq=seq, digest=digest, stamp=now_us()) != 1:
            raise ConcurrencyConflict(
                f"campaign {name} moved during the import", expected=0, actual=-1
            )

    def add_access_token(self, *, campaign: str, token_hash: str, player: str, role: str) -> None:
        insert_access_token(
            self._conn, campaign=campaign, token_hash=token_hash, player=player, role=role
        )
