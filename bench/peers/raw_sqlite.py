"""The floor: stdlib `sqlite3` writing and reading tablelog's `events` table by hand.

Same file settings as tablelog (WAL, `synchronous=FULL`, writers take BEGIN IMMEDIATE), same
columns, same unique indexes, same payload bytes: whatever tablelog spends above these numbers
is its own code (SQLAlchemy, envelopes, hashing, rules), not SQLite's. The one difference is
the `campaigns` table and its foreign key, which tablelog checks and these peers do not.
Opening the file and creating the table are not timed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from .data import Meter, Result, Row, fresh

DDL = """
CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY,
    campaign_id VARCHAR(64) NOT NULL,
    seq BIGINT NOT NULL,
    event_id VARCHAR(36) NOT NULL,
    type VARCHAR(100) NOT NULL,
    schema_version INTEGER NOT NULL,
    actor VARCHAR(100) NOT NULL,
    recorded_at BIGINT NOT NULL,
    payload BLOB NOT NULL,
    prev_hash BLOB NOT NULL,
    hash BLOB NOT NULL,
    CONSTRAINT uq_events_campaign_id_seq UNIQUE (campaign_id, seq),
    CONSTRAINT uq_events_event_id UNIQUE (event_id)
)
"""
INSERT = (
    "INSERT INTO events (campaign_id, seq, event_id, type, schema_version, actor, recorded_at,"
    " payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
SELECT = (
    "SELECT position, campaign_id, seq, event_id, type, schema_version, actor, recorded_at,"
    " payload, prev_hash, hash FROM events ORDER BY position"
)

Params = tuple[str, int, str, str, int, str, int, bytes, bytes, bytes]


def connect(path: Path) -> sqlite3.Connection:
    """Autocommit driver (we issue BEGIN ourselves), WAL, synchronous=FULL."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def create(directory: str | Path, name: str) -> tuple[Path, sqlite3.Connection]:
    path = fresh(directory, name)
    conn = connect(path)
    conn.execute(DDL)
    return path, conn


def params(r: Row) -> Params:
    return (
        r.campaign,
        r.seq,
        r.event_id,
        r.type,
        r.schema_version,
        r.actor,
        r.recorded_at,
        r.payload,
        r.prev_hash,
        r.hash,
    )


def append_executemany(rows: Sequence[Row], directory: str | Path) -> Result:
    """Bulk append: every row in one `executemany`, one transaction, one fsync at COMMIT.

    The ceiling for an import or a copy of a campaign; it builds the parameter tuples inside
    the timed block, as any writer has to.
    """
    path, conn = create(directory, "raw_executemany.db")
    try:
        with Meter() as m:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(INSERT, map(params, rows))
            conn.execute("COMMIT")
    finally:
        conn.close()
    return m.result("raw sqlite3 executemany", len(rows), db=path)


def append_per_event(rows: Sequence[Row], directory: str | Path, limit: int = 2000) -> Result:
    """Durable single appends: BEGIN IMMEDIATE, one INSERT, COMMIT (an fsync) per event.

    The floor for tablelog's one-command-one-transaction write path, without its read of the
    head or its decision: the cost here is almost all the WAL fsync per commit.
    """
    subset = rows[:limit]
    path, conn = create(directory, "raw_per_event.db")
    try:
        with Meter() as m:
            for r in subset:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(INSERT, params(r))
                conn.execute("COMMIT")
    finally:
        conn.close()
    return m.result("raw sqlite3 per-event txn", len(subset), db=path)


def read_decode(dbfile: str | Path) -> Result:
    """Read every row in position order and msgspec-decode each payload into a dict.

    The read+decode floor with stdlib sqlite3 (its cursor streams, so memory stays flat):
    every column is fetched, as tablelog's reads fetch the whole envelope, and the decoded
    dict is dropped at once.
    """
    decode = msgspec.json.Decoder(dict[str, Any]).decode
    n = 0
    with Meter() as m:
        conn = sqlite3.connect(f"file:{dbfile}?mode=ro", uri=True)
        try:
            for row in conn.execute(SELECT):
                decode(row[8])
                n += 1
        finally:
            conn.close()
    return m.result("raw sqlite3 read+decode", n)
