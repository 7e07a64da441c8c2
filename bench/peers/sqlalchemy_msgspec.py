"""SQLAlchemy Core 2.x + msgspec, no tablelog code: the floor of tablelog's own stack.

tablelog writes and reads through SQLAlchemy Core and decodes with msgspec; this peer does the
same with nothing else on top (no envelopes, hash checks, rules or projections), on the same
table shape and file settings: WAL, `synchronous=FULL`, writers BEGIN IMMEDIATE (SQLAlchemy's
documented pysqlite recipe: driver autocommit, BEGIN emitted from the `begin` event).
Like the raw peer it has no `campaigns` table, so no foreign key to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    event,
    insert,
    select,
)

from .data import Meter, Result, Row, fresh

metadata = MetaData()
events = Table(
    "events",
    metadata,
    Column("position", Integer, primary_key=True, autoincrement=True),
    Column("campaign_id", String(64), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("event_id", String(36), nullable=False),
    Column("type", String(100), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("actor", String(100), nullable=False),
    Column("recorded_at", BigInteger, nullable=False),
    Column("payload", LargeBinary, nullable=False),
    Column("prev_hash", LargeBinary(32), nullable=False),
    Column("hash", LargeBinary(32), nullable=False),
    UniqueConstraint("campaign_id", "seq"),
    UniqueConstraint("event_id"),
)


def engine_for(path: str | Path, *, write: bool) -> Engine:
    """A SQLite engine on `path`; its transactions BEGIN IMMEDIATE if `write`, else DEFERRED."""
    begin = "BEGIN IMMEDIATE" if write else "BEGIN"
    engine = create_engine(f"sqlite:///{path}")

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA busy_timeout = 5000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql(begin)

    return engine


def append_executemany(rows: Sequence[Row], directory: str | Path) -> Result:
    """Bulk append: one `conn.execute(insert(events), list_of_dicts)` in one transaction.

    SQLAlchemy hands a list of parameter dicts without RETURNING to the driver's
    `executemany`; the dicts are built inside the timed block, as any writer has to.
    """
    path = fresh(directory, "sqlalchemy_executemany.db")
    engine = engine_for(path, write=True)
    try:
        metadata.create_all(engine)
        with Meter() as m, engine.begin() as conn:
            conn.execute(
                insert(events),
                [
                    {
                        "campaign_id": r.campaign,
                        "seq": r.seq,
                        "event_id": r.event_id,
                        "type": r.type,
                        "schema_version": r.schema_version,
                        "actor": r.actor,
                        "recorded_at": r.recorded_at,
                        "payload": r.payload,
                        "prev_hash": r.prev_hash,
                        "hash": r.hash,
                    }
                    for r in rows
                ],
            )
    finally:
        engine.dispose()
    return m.result("sqlalchemy executemany", len(rows), db=path)


def read_decode(dbfile: str | Path) -> Result:
    """The SQLAlchemy read+decode floor: `select` every row by position, streamed
    (`yield_per=5000`), each payload msgspec-decoded into a dict and dropped.

    Any tablelog read of the whole log (replay, export, verify) costs at least this.
    """
    decode = msgspec.json.Decoder(dict[str, Any]).decode
    engine = engine_for(dbfile, write=False)
    n = 0
    try:
        with Meter() as m, engine.connect() as conn:
            result = conn.execution_options(yield_per=5000).execute(
                select(events).order_by(events.c.position)
            )
            for row in result:
                decode(row.payload)
                n += 1
    finally:
        engine.dispose()
    return m.result("sqlalchemy read+decode", n)
