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

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import msgspec
from sqlalchemy import Engine, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from tablelog.errors import (
    AlreadyExists,
    ConcurrencyConflict,
    DamagedDatabase,
    DuplicateEventId,
    InvalidInput,
    NotFound,
)
from tablelog.events.envelope import Envelope, Pending
from tablelog.storage.chain import GENESIS, event_hash
from tablelog.storage.engine import WRITE, describe, is_sqlite, translated
from tablelog.storage.schema import access_tokens, campaigns, events, snapshots

_READ_BATCH = 1000
_STREAM_BATCH = 5000


def now_us() -> int:
    return time.time_ns() // 1000


class CampaignHead(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    ruleset: str
    seq: int
    hash: bytes
    created_at: int
    updated_at: int


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    events: list[Envelope]
    # True when every event id was already stored with the same contents: an idempotent retry.
    replayed: bool = False

    @property
    def last_seq(self) -> int:
        """The seq of the last event of this append (of the original one, for a replay)."""
        return self.events[-1].seq if self.events else 0


def _envelope(row: Any) -> Envelope:
    """The envelope of an event row (campaign_id, seq, ..., hash, in `_EVENT_COLUMNS` order).

    Every column's type is checked (a tampered SQLite file can hold anything anywhere); the
    common case costs one `type() is` per column, and only a damaged row takes the slow path
    that explains itself."""
    campaign, seq, event_id, kind, version, actor, recorded_at, payload, prev, digest = row
    if (
        type(campaign) is str
        and type(seq) is int
        and type(event_id) is str
        and type(kind) is str
        and type(version) is int
        and type(actor) is str
        and type(recorded_at) is int
        and type(payload) is bytes
        and type(prev) is bytes
        and type(digest) is bytes
    ):
        return Envelope(
            campaign=campaign,
            seq=seq,
            event_id=event_id,
            type=kind,
            schema_version=version,
            actor=actor,
            recorded_at=recorded_at,
            payload=payload,
            prev_hash=prev,
            hash=digest,
        )
    return _envelope_checked(row)


_ENVELOPE_FIELDS = (
    "campaign",
    "seq",
    "event_id",
    "type",
    "schema_version",
    "actor",
    "recorded_at",
    "payload",
    "prev_hash",
    "hash",
)


def _envelope_checked(row: Any) -> Envelope:
    values = dict(zip(_ENVELOPE_FIELDS, tuple(row), strict=True))
    where = f"event {values['seq']!r} of campaign {values['campaign']!r}"
    return _checked(Envelope, values, where)


def _head(row: Any) -> CampaignHead:
    values = {
        "name": row.name,
        "ruleset": row.ruleset,
        "seq": row.head_seq,
        "hash": row.head_hash,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }
    return _checked(CampaignHead, values, f"the head of campaign {row.name!r}")


_S = TypeVar("_S", bound=msgspec.Struct)


def _checked(kind: type[_S], values: dict[str, Any], what: str) -> _S:
    """Build a Struct from a row, refusing a row whose column types were tampered with.

    SQLite lets a tampered file hold any type in any column; a damaged row must become a
    sentence pointing at `tablelog verify`, never a TypeError deep inside a command.
    """
    try:
        return msgspec.convert(values, kind, builtin_types=(bytes,))
    except msgspec.ValidationError as exc:
        raise DamagedDatabase(
            f"{what} is damaged ({exc}); `tablelog verify` checks the whole log"
        ) from None


_EVENT_COLUMNS = (
    events.c.campaign_id,
    events.c.seq,
    events.c.event_id,
    events.c.type,
    events.c.schema_version,
    events.c.actor,
    events.c.recorded_at,
    events.c.payload,
    events.c.prev_hash,
    events.c.hash,
)


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A campaign's folded state (encoded by its ruleset) as of `seq`, whose event's hash is
    `hash`."""

    seq: int
    hash: bytes
    state: bytes


def _snapshot_query(campaign: str, projection: str, upto_seq: int | None) -> Any:
    # Joined with the event it claims to follow: a snapshot of a history the log no longer
    # holds (a re-imported or rewritten campaign) does not match and is not used.
    query = (
        select(snapshots.c.seq, snapshots.c.hash, snapshots.c.state)
        .select_from(
            snapshots.join(
                events,
                (events.c.campaign_id == snapshots.c.campaign_id)
                & (events.c.seq == snapshots.c.seq)
                & (events.c.hash == snapshots.c.hash),
            )
        )
        .where(snapshots.c.campaign_id == campaign, snapshots.c.projection == projection)
    )
    if upto_seq is not None:
        query = query.where(snapshots.c.seq <= upto_seq)
    return query


def _snapshot(row: Any) -> Snapshot | None:
    if row is None:
        return None
    try:
        return Snapshot(seq=int(row.seq), hash=bytes(row.hash), state=bytes(row.state))
    except (TypeError, ValueError):
        return None  # a damaged cache row: the log is the truth, fold it instead


_INSERT_COLUMNS = (
    "campaign_id",
    "seq",
    "event_id",
    "type",
    "schema_version",
    "actor",
    "recorded_at",
    "payload",
    "prev_hash",
    "hash",
)


# Statements every command runs, written out once: building them as SQLAlchemy expressions
# each time cost more than the database work itself (bench/postgres.py).
_LOCK_HEAD = (
    "SELECT name, ruleset, created_at, head_seq, head_hash, updated_at FROM campaigns "
    "WHERE name = ?"
)
_MOVE_HEAD = (
    "UPDATE campaigns SET head_seq = ?, head_hash = ?, updated_at = ? "
    "WHERE name = ? AND head_seq = ?"
)


def _sql(conn: Connection, text: str) -> str:
    """`text` (written with ? placeholders) in the driver's parameter style."""
    return text if conn.dialect.paramstyle == "qmark" else text.replace("?", "%s")


def _insert_sql(conn: Connection) -> str:
    """INSERT INTO events (...) VALUES (?, ...) in the driver's positional parameter style."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    columns = ", ".join(_INSERT_COLUMNS)
    marks = ", ".join([mark] * len(_INSERT_COLUMNS))
    return f"INSERT INTO events ({columns}) VALUES ({marks})"  # noqa: S608 - constants only


class CampaignTransaction:
    """One campaign inside an open write transaction, with its head locked."""

    def __init__(self, connection: Connection, head: CampaignHead) -> None:
        self._conn = connection
        self._head = head

    @property
    def head(self) -> CampaignHead:
        return self._head

    @property
    def connection(self) -> Connection:
        """The transaction's connection, for rows written with the events (tokens, responses)."""
        return self._conn

    def events(self, after_seq: int = 0) -> Iterator[Envelope]:
        query = (
            select(*_EVENT_COLUMNS)
            .where(events.c.campaign_id == self._head.name, events.c.seq > after_seq)
            .order_by(events.c.seq)
        )
        for row in self._conn.execute(query):
            yield _envelope(row)

    def find(self, event_ids: Sequence[str]) -> list[Envelope]:
        if not event_ids:
            return []
        query = select(*_EVENT_COLUMNS).where(events.c.event_id.in_(list(event_ids)))
        return [_envelope(row) for row in self._conn.execute(query.order_by(events.c.seq))]

    def append(
        self,
        pending: Sequence[Pending],
        *,
        expected_seq: int | None = None,
        fresh_ids: bool = False,
    ) -> AppendResult:
        """Chain and insert `pending` after the head; see the module docstring for the rules.

        `fresh_ids` says the ids were just drawn (uuid4), so no earlier append can hold them
        and the look-up for an idempotent retry is skipped; the unique index still guards."""
        if not pending:
            return AppendResult(events=[])
        ids = [p.event_id for p in pending]
        if len(set(ids)) != len(ids):
            raise InvalidInput("event ids in one append must be distinct")
        # A campaign with no events yet (a new one, an import) cannot hold a retried append.
        if not fresh_ids and self._head.seq > 0:
            replay = self._idempotent_replay(pending)
            if replay is not None:
                return replay
        if expected_seq is not None and expected_seq != self._head.seq:
            raise ConcurrencyConflict(
                f"campaign {self._head.name} is at seq {self._head.seq}, not {expected_seq} "
                "as the request expected; reload and try again",
                expected=expected_seq,
                actual=self._head.seq,
            )
        stamp = now_us()
        prev, seq = self._head.hash, self._head.seq
        stored: list[Envelope] = []
        for p in pending:
            seq += 1
            recorded_at = stamp if p.recorded_at is None else p.recorded_at
            digest = event_hash(
                prev_hash=prev,
                campaign=self._head.name,
                seq=seq,
                event_id=p.event_id,
                type=p.type,
                schema_version=p.schema_version,
                actor=p.actor,
                recorded_at=recorded_at,
                payload=p.payload,
            )
            stored.append(
                Envelope(
                    campaign=self._head.name,
                    seq=seq,
                    event_id=p.event_id,
                    type=p.type,
                    schema_version=p.schema_version,
                    actor=p.actor,
                    recorded_at=recorded_at,
                    payload=p.payload,
                    prev_hash=prev,
                    hash=digest,
                )
            )
            prev = digest
        try:
            self._insert(stored)
        except IntegrityError:
            # Only event_id can collide here (seq is protected by the lock): the same id was
            # appended concurrently to another campaign, whose lock this writer does not hold.
            raise DuplicateEventId(
                f"an event id of this append was stored by another writer at the same moment; "
                f"a retry must repeat it exactly (campaign {self._head.name})"
            ) from None
        moved = self._move_head(seq, prev, stamp)
        if moved != 1:  # only possible if the lock was bypassed
            raise ConcurrencyConflict(
                f"campaign {self._head.name} moved during the append; try again",
                expected=self._head.seq,
                actual=-1,
            )
        self._head = msgspec.structs.replace(self._head, seq=seq, hash=prev, updated_at=stamp)
        return AppendResult(events=stored)

    def append_checked(self, chain: Sequence[Envelope]) -> AppendResult:
        """Store envelopes whose hashes the caller has just checked, each against its own
        fields and the one before (an import: `read_export` recomputes every hash of the
        file before anything is written). They must continue this campaign's head exactly:
        its name, the next seq, the head's hash as the first prev_hash."""
        if not chain:
            return AppendResult(events=[])
        prev, seq = self._head.hash, self._head.seq
        for envelope in chain:
            seq += 1
            if (
                envelope.campaign != self._head.name
                or envelope.seq != seq
                or (envelope.prev_hash != prev)
            ):
                raise InvalidInput(
                    f"event {envelope.seq} of {envelope.campaign} does not continue campaign "
                    f"{self._head.name} at seq {seq}",
                    code="bad-import",
                )
            prev = envelope.hash
        try:
            self._insert(chain)
        except IntegrityError:
            raise DuplicateEventId(
                f"an event id of campaign {self._head.name} is already stored; nothing was imported"
            ) from None
        stamp = now_us()
        self._move_head(seq, prev, stamp)
        self._head = msgspec.structs.replace(self._head, seq=seq, hash=prev, updated_at=stamp)
        return AppendResult(events=list(chain))

    def _move_head(self, seq: int, digest: bytes, stamp: int) -> int:
        """Move the campaign's head from the seq this transaction locked; rows changed."""
        result = self._conn.exec_driver_sql(
            _sql(self._conn, _MOVE_HEAD), (seq, digest, stamp, self._head.name, self._head.seq)
        )
        moved: int = result.rowcount
        return moved

    def _insert(self, stored: Sequence[Envelope]) -> None:
        # Straight to the driver's executemany: every value is already str, int or bytes, and
        # SQLAlchemy's per-value binary wrapping would cost about half of a bulk import.
        self._conn.exec_driver_sql(
            _insert_sql(self._conn),
            [
                (
                    e.campaign,
                    e.seq,
                    e.event_id,
                    e.type,
                    e.schema_version,
                    e.actor,
                    e.recorded_at,
                    e.payload,
                    e.prev_hash,
                    e.hash,
                )
                for e in stored
            ],
        )

    def _idempotent_replay(self, pending: Sequence[Pending]) -> AppendResult | None:
        found = {e.event_id: e for e in self.find([p.event_id for p in pending])}
        if not found:
            return None
        for p in pending:
            original = found.get(p.event_id)
            if original is None or not _same_event(p, original, self._head.name):
                holder = original or next(iter(found.values()))
                raise DuplicateEventId(
                    f"event id {holder.event_id} is already used by seq {holder.seq} of campaign "
                    f"{holder.campaign} with a different event; a retry must repeat it exactly"
                )
        return AppendResult(events=[found[p.event_id] for p in pending], replayed=True)

    def snapshot(self, projection: str) -> Snapshot | None:
        return _snapshot(
            self._conn.execute(_snapshot_query(self._head.name, projection, None)).first()
        )

    def save_snapshot(self, projection: str, seq: int, digest: bytes, state: bytes) -> None:
        """Replace the campaign's snapshot for `projection` (one is kept per projection)."""
        self._conn.execute(
            snapshots.delete().where(
                snapshots.c.campaign_id == self._head.name, snapshots.c.projection == projection
            )
        )
        self._conn.execute(
            insert(snapshots).values(
                campaign_id=self._head.name,
                projection=projection,
                seq=seq,
                hash=digest,
                state=state,
                created_at=now_us(),
            )
        )

    def add_access_token(self, *, token_hash: str, player: str, role: str) -> None:
        self._conn.execute(
            insert(access_tokens).values(
                token_hash=token_hash,
                campaign_id=self._head.name,
                player=player,
                role=role,
                created_at=now_us(),
            )
        )


def _same_event(p: Pending, stored: Envelope, campaign: str) -> bool:
    return (
        stored.campaign == campaign
        and stored.type == p.type
        and stored.schema_version == p.schema_version
        and stored.actor == p.actor
        and stored.payload == p.payload
        and (p.recorded_at is None or p.recorded_at == stored.recorded_at)
    )


def driver_rows(conn: Connection, query: Any) -> list[tuple[Any, ...]]:
    """The rows of `query` as the driver's plain tuples: the event columns need no type
    processing (text, integers, bytes), and `_envelope` checks every value's type anyway."""
    result = conn.execute(query)
    try:
        rows: list[tuple[Any, ...]] = list(result.cursor.fetchall())
    finally:
        result.close()
    return rows


class EventStore:
    """The log on one database. Open it with `tablelog.storage.open_store`."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self.label = describe(engine.url)

    @property
    def engine(self) -> Engine:
        return self._engine

    @property
    def is_sqlite(self) -> bool:
        return is_sqlite(self._engine.url)

    def close(self) -> None:
        self._engine.dispose()

    @contextmanager
    def _writing(self, what: str) -> Iterator[Connection]:
        """One write transaction holding the lock (SQLite: BEGIN IMMEDIATE, see engine.py)."""
        with (
            translated(f"{what} in {self.label}"),
            self._engine.connect().execution_options(**{WRITE: True}) as conn,
            conn.begin(),
        ):
            yield conn

    @contextmanager
    def transaction(self, campaign: str) -> Iterator[CampaignTransaction]:
        """Lock `campaign`'s head for writing; commit on exit, roll back on an exception."""
        with self._writing(f"cannot write campaign {campaign!r}") as conn:
            # SQLite's BEGIN IMMEDIATE already holds the file's write lock.
            lock = _LOCK_HEAD if self.is_sqlite else f"{_LOCK_HEAD} FOR UPDATE"
            row = conn.exec_driver_sql(_sql(conn, lock), (campaign,)).first()
            if row is None:
                raise NotFound(f"campaign {campaign!r} does not exist in {self.label}")
            yield CampaignTransaction(conn, _head(row))

    @contextmanager
    def new_campaign(self, name: str, ruleset: str) -> Iterator[CampaignTransaction]:
        """Create `name` with an empty chain and lock it; the caller appends its first event."""
        with self._writing(f"cannot create campaign {name!r}") as conn:
            taken = conn.execute(select(campaigns.c.name).where(campaigns.c.name == name)).first()
            if taken is not None:
                raise AlreadyExists(f"a campaign named {name!r} already exists")
            stamp = now_us()
            head = CampaignHead(
                name=name, ruleset=ruleset, seq=0, hash=GENESIS, created_at=stamp, updated_at=stamp
            )
            try:
                conn.execute(
                    insert(campaigns).values(
                        name=name,
                        ruleset=ruleset,
                        created_at=stamp,
                        head_seq=0,
                        head_hash=GENESIS,
                        updated_at=stamp,
                    )
                )
            except IntegrityError:  # created by another writer since the check above
                raise AlreadyExists(f"a campaign named {name!r} already exists") from None
            yield CampaignTransaction(conn, head)

    def campaigns(self) -> list[CampaignHead]:
        with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
            rows = conn.execute(select(campaigns).order_by(campaigns.c.name)).all()
        return [_head(row) for row in rows]

    def head(self, campaign: str) -> CampaignHead | None:
        with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
            row = conn.execute(select(campaigns).where(campaigns.c.name == campaign)).first()
        return None if row is None else _head(row)

    def snapshot(
        self, campaign: str, projection: str, upto_seq: int | None = None
    ) -> Snapshot | None:
        """The campaign's snapshot for `projection` (at or before `upto_seq`), if it still
        matches the log."""
        query = _snapshot_query(campaign, projection, upto_seq)
        with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
            return _snapshot(conn.execute(query).first())

    def stream(
        self, campaign: str, after_seq: int = 0, upto_seq: int | None = None
    ) -> Iterator[Envelope]:
        """One campaign's events like `read`, fetched in batches: memory stays bounded however
        long the log (rebuilds, audits and replays of years of play)."""
        last = after_seq
        while True:
            query = select(*_EVENT_COLUMNS).where(
                events.c.campaign_id == campaign, events.c.seq > last
            )
            if upto_seq is not None:
                query = query.where(events.c.seq <= upto_seq)
            query = query.order_by(events.c.seq).limit(_STREAM_BATCH)
            with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
                rows = driver_rows(conn, query)
            for row in rows:
                yield _envelope(row)
            if len(rows) < _STREAM_BATCH:
                return
            last = rows[-1][1]

    def read(
        self, campaign: str, after_seq: int = 0, upto_seq: int | None = None
    ) -> list[Envelope]:
        """One campaign's events with after_seq < seq (<= upto_seq), in seq order."""
        query = select(*_EVENT_COLUMNS).where(
            events.c.campaign_id == campaign, events.c.seq > after_seq
        )
        if upto_seq is not None:
            query = query.where(events.c.seq <= upto_seq)
        with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
            rows = driver_rows(conn, query.order_by(events.c.seq))
        return [_envelope(row) for row in rows]

    def read_all(self) -> Iterator[Envelope]:
        """Every event of every campaign in position order: for maintenance only.

        On PostgreSQL positions are not in commit order, so live readers follow one campaign's
        seq instead. Rows are fetched in batches to bound memory on large logs.
        """
        last = 0
        while True:
            query = (
                select(events.c.position, *_EVENT_COLUMNS)
                .where(events.c.position > last)
                .order_by(events.c.position)
                .limit(_READ_BATCH)
            )
            with translated(f"cannot read {self.label}"), self._engine.connect() as conn:
                rows = conn.execute(query).all()
            if not rows:
                return
            for row in rows:
                yield _envelope(tuple(row)[1:])
            last = rows[-1].position
