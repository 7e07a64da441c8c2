"""A throw-away log in memory, for what-if runs: nothing in it outlives the command."""

from __future__ import annotations

from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from tablelog.storage.engine import configure_sqlite
from tablelog.storage.schema import metadata
from tablelog.storage.store import EventStore


def scratch_store() -> EventStore:
    """An empty log in an in-memory SQLite database (one shared connection, so every
    transaction sees the same database). The schema is created from the same metadata the
    migrations build; no user target can name such a database."""
    engine = create_engine(
        "sqlite+pysqlite:///:memory:",
        poolclass=StaticPool,
        connect_args={"check_same_thread": False},
    )
    configure_sqlite(engine)
    metadata.create_all(engine)
    store = EventStore(engine)
    store.label = "a scratch copy in memory"
    return store
