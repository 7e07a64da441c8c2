"""The event store: append under the write lock, read one campaign or everything.

Writers go through `EventStore.transaction(campaign)`, which opens one database transaction,
takes the write lock (SQLite: BEGIN IMMEDIATE, the whole file; PostgreSQL: SELECT ... FOR UPDATE
on the campaign's head row, that campaign only) and hands back a `CampaignTransaction` in which
the caller reads the state, decides and appends. Concurrent local writers therefore queue and
never need to retry; a caller that decided elsewhere passes the seq it saw and gets
`ConcurrencyConflict` if the head moved. Leaving the block commits; an exception rolls back,
leaving no hole in the sequence.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain
from typing import Any, NamedTuple

from sqlalchemy import Engine, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from tablelog.errors import NotFound
from tablelog.events.envelope import Envelope
from tablelog.storage.bulk import BulkLoad
from tablelog.storage.checkpoints import Checkpointer
from tablelog.storage.engine import (
    WRITE,
    describe,
    driver_error,
    driver_sql,
    file_of,
    is_sqlite,
    raw_execute,
    translated,
)
from tablelog.storage.rows import (
    EVENT_COLUMNS,
    AppendResult,
    CampaignHead,
    Snapshot,
    driver_rows,
    envelope_of,
    head_of,
    now_us,
    snapshot_of,
    snapshot_query,
)
from tablelog.storage.schema import campaigns, events
from tablelog.storage.transaction import CampaignTransaction, insert_campaign

__all__ = [
    "AppendResult",
    "CampaignHead",
    "CampaignTransaction",
    "EventStore",
    "Snapshot",
    "driver_rows",
    "now_us",
]

_READ_BATCH = 1000
_STREAM_BATCH = 5000
_LOCK_HEAD = (
    "SELECT name, ruleset, created_at, head_seq, head_hash, updated_at FROM campaigns "
    "WHERE name = ?"
)


class HeadRow(NamedTuple):  # the columns of _LOCK_HEAD, by name, for `head_of`
    name: str
    ruleset: str
    created_at: int
    head_seq: int
    head_hash: bytes
    updated_at: int


class _Readers:
    """SQLite connections for one-row reads, each taken by one thread at a time from a
    queue: the pool's own checkout and check-in cost more than such a read itself. They
    are the engine's connections (its PRAGMAs, its busy timeout), detached from its pool."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._all: list[Any] = []
        self._lock = threading.Lock()

    def one_row(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        try:
            connection = self._idle.get_nowait()
        except queue.Empty:
            connection = self._open()
        try:
            # Every row fetched (one at most, by a unique key): the statement is done, and
            # no read transaction stays open on an idle connection.
            rows = connection.execute(sql, params).fetchall()
        finally:
            self._idle.put(connection)
        return tuple(rows[0]) if rows else None

    def _open(self) -> Any:
        fairy = self._engine.raw_connection()
        connection = fairy.driver_connection
        fairy.detach()  # ours now, configured as every connection of the engine
        with self._lock:
            self._all.append(connection)
        return connection

    def close(self) -> None:
        with self._lock:
            opened, self._all = self._all, []
        for connection in opened:
            connection.close()


_LEFT_FOR_READS = 4


def _pool_size(engine: Engine) -> int:
    size = getattr(engine.pool, "size", None)
    return int(size()) if callable(size) else 1


class _Writers:
    """Connections for write transactions, kept open between them and taken by one thread at
    a time: checking a connection out of the pool and back in for every command cost the
    service a third of a command's time (bench/service.py). Idle, one holds no transaction
    and no lock; one that went bad is closed, not kept."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._idle: queue.SimpleQueue[Connection] = queue.SimpleQueue()
        # Kept between transactions: all but a few of the connections the pool keeps
        # open, which (with its overflow) serve the reads and more writers at once.
        self._kept = max(1, _pool_size(engine) - _LEFT_FOR_READS)
        self._closed = False
        self.autocheckpoint = True  # SQLite: does a commit checkpoint the log when due

    def take(self) -> Connection:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            conn = self._engine.connect()
            if not self.autocheckpoint:
                raw_execute(conn, "PRAGMA wal_autocheckpoint = 0").close()
            return conn

    def drop_idle(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    def give_back(self, conn: Connection) -> None:
        if self._closed or conn.invalidated or conn.closed or conn.in_transaction():
            if conn.invalidated:
                # The server dropped it (a restart, a proxy's timeout): the idle ones went
                # with it, and each would fail one more command before being closed.
                self.drop_idle()
            conn.close()
        elif self._idle.qsize() >= self._kept:
            # Back to the engine's pool: writers of many campaigns at once would otherwise
            # keep every connection the pool may open, and the reads (a sign-in on
            # PostgreSQL) would wait for one that never comes back.
            conn.close()
        else:
            self._idle.put(conn)

    def close(self) -> None:
        self._closed = True
        self.drop_idle()


class EventStore:
    """The log on one database. Open it with `tablelog.storage.open_store`."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        # Connections marked for writing once, and kept between transactions.
        self._writers = _Writers(engine.execution_options(**{WRITE: True}))
        # A file's own reader connections; a memory database has one connection only.
        self._readers = _Readers(engine) if file_of(engine.url) is not None else None
        self._checkpointer: Checkpointer | None = None
        self.label = describe(engine.url)
        # Where the service's keys lie when its host chose (`serve --key-file`): every key
        # looked up for this log, the webhook key beside it too (commands/signing.py).
        self.key_file: str | None = None

    @property
    def engine(self) -> Engine:
        return self._engine

    @property
    def is_sqlite(self) -> bool:
        return is_sqlite(self._engine.url)

    def checkpoint_in_background(self) -> None:
        """A SQLite file's checkpoints from a thread of their own, never in a commit (for a
        long-running service: see checkpoints.py); on a server, nothing to do."""
        if self._readers is None or self._checkpointer is not None:
            return
        self._writers.autocheckpoint = False
        self._writers.drop_idle()  # those kept so far checkpoint in their commits
        self._checkpointer = Checkpointer(self._engine)
        self._checkpointer.start()

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
        if self._readers is not None:
            self._readers.close()
        self._writers.close()
        self._engine.dispose()

    @contextmanager
    def _writing(self, what: str) -> Iterator[Connection]:
        """One write transaction holding the lock (SQLite: BEGIN IMMEDIATE, see engine.py)."""
        with translated(f"{what} in {self.label}"):
            conn = self._writers.take()
            try:
                with conn.begin():
                    yield conn
            finally:
                self._writers.give_back(conn)

    @contextmanager
    def transaction(self, campaign: str) -> Iterator[CampaignTransaction]:
        """Lock `campaign`'s head for writing; commit on exit, roll back on an exception."""
        with self._writing(f"cannot write campaign {campaign!r}") as conn:
            # SQLite's BEGIN IMMEDIATE already holds the file's write lock.
            lock = _LOCK_HEAD if self.is_sqlite else f"{_LOCK_HEAD} FOR UPDATE"
            cursor = raw_execute(conn, lock, (campaign,))
            row = cursor.fetchone()
            cursor.close()
            if row is None:
                raise NotFound(f"campaign {campaign!r} does not exist in {self.label}")
            yield CampaignTransaction(conn, head_of(HeadRow(*row)))

    @contextmanager
    def new_campaign(
        self, name: str, ruleset: str, *, like: Callable[[str], str] | None = None
    ) -> Iterator[CampaignTransaction]:
        """Create `name` with an empty chain and lock it; the caller appends its first event.
        `like`: what no two campaigns' names may share (AlreadyExists names the other)."""
        with self._writing(f"cannot create campaign {name!r}") as conn:
            yield CampaignTransaction(conn, insert_campaign(conn, name, ruleset, like=like))

    @contextmanager
    def service_rows(self) -> Iterator[Connection]:
        """One write transaction on the service's own rows (its tokens), none of a campaign's;
        commit on exit, roll back on an exception."""
        with self._writing("cannot write the service's tokens") as conn:
            yield conn

    @contextmanager
    def bulk_load(self) -> Iterator[BulkLoad]:
        """One write transaction creating campaigns and loading their checked events (an
        import); commit on exit, and on an exception nothing of it stays."""
        with self._writing("cannot import") as conn:
            yield BulkLoad(conn, self.label)

    def campaigns(self) -> list[CampaignHead]:
        with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
            rows = conn.execute(select(campaigns).order_by(campaigns.c.name)).all()
        return [head_of(row) for row in rows]

    def head(self, campaign: str) -> CampaignHead | None:
        row = self.one_row(_LOCK_HEAD, (campaign,))
        return None if row is None else head_of(HeadRow(*row))

    def one_row(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The first row of a one-statement read (`sql` with ? placeholders), straight
        through the driver: no SQLAlchemy statement and no explicit BEGIN (one statement is
        its own read transaction in SQLite; the pool rolls PostgreSQL's back). The service
        reads a token and a head for nearly every request (bench/service.py)."""
        dialect = self._engine.dialect
        sql = driver_sql(dialect, sql)
        try:
            if self._readers is not None:
                return self._readers.one_row(sql, params)
            raw = self._engine.raw_connection()
            try:
                cursor = raw.cursor()
                try:
                    cursor.execute(sql, params)
                    row = cursor.fetchone()
                finally:
                    cursor.close()
            finally:
                raw.close()
        except dialect.loaded_dbapi.Error as exc:
            raise driver_error(f"cannot read {self.label}", exc) from None
        except SQLAlchemyError as exc:  # the pool's own: a timeout, a refused connection
            raise driver_error(f"cannot read {self.label}", exc) from None
        return None if row is None else tuple(row)

    def snapshot(
        self, campaign: str, projection: str, upto_seq: int | None = None
    ) -> Snapshot | None:
        """The campaign's snapshot for `projection` (at or before `upto_seq`), if it still
        matches the log."""
        query = snapshot_query(campaign, projection, upto_seq)
        with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
            return snapshot_of(conn.execute(query).first())

    def stream(
        self, campaign: str, after_seq: int = 0, upto_seq: int | None = None
    ) -> Iterator[Envelope]:
        """One campaign's events like `read`, fetched in batches: memory stays bounded however
        long the log (rebuilds, audits and replays of years of play)."""
        # Chained in C: a generator yielding each event would cost a rebuild a tenth more.
        return chain.from_iterable(self._batches(campaign, after_seq, upto_seq))

    def _batches(
        self, campaign: str, after_seq: int, upto_seq: int | None
    ) -> Iterator[list[Envelope]]:
        last = after_seq
        while True:
            query = select(*EVENT_COLUMNS).where(
                events.c.campaign_id == campaign, events.c.seq > last
            )
            if upto_seq is not None:
                query = query.where(events.c.seq <= upto_seq)
            query = query.order_by(events.c.seq).limit(_STREAM_BATCH)
            with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
                rows = driver_rows(conn, query)
            yield [envelope_of(row) for row in rows]
            if len(rows) < _STREAM_BATCH:
                return
            last = rows[-1][1]

    def read(
        self, campaign: str, after_seq: int = 0, upto_seq: int | None = None
    ) -> list[Envelope]:
        """One campaign's events with after_seq < seq (<= upto_seq), in seq order."""
        query = select(*EVENT_COLUMNS).where(
            events.c.campaign_id == campaign, events.c.seq > after_seq
        )
        if upto_seq is not None:
            query = query.where(events.c.seq <= upto_seq)
        with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
            rows = driver_rows(conn, query.order_by(events.c.seq))
        return [envelope_of(row) for row in rows]

    def read_all(self) -> Iterator[Envelope]:
        """Every event of every campaign in position order: for maintenance only.

        On PostgreSQL positions are not in commit order, so live readers follow one campaign's
        seq instead. Rows are fetched in batches to bound memory on large logs.
        """
        last = 0
        while True:
            query = (
                select(events.c.position, *EVENT_COLUMNS)
                .where(events.c.position > last)
                .order_by(events.c.position)
                .limit(_READ_BATCH)
            )
            with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
                rows = conn.execute(query).all()
            if not rows:
                return
            for row in rows:
                yield envelope_of(tuple(row)[1:])
            last = rows[-1].position
