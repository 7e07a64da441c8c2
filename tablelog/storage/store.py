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
from sqlalchemy import Engine, insert, select, update
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
from tablelog.storage.schema import access_tokens, campaigns, events

_READ_BATCH = 1000


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
    values = {
        "campaign": row.campaign_id,
        "seq": row.seq,
        "event_id": row.event_id,
        "type": row.type,
        "schema_version": row.schema_version,
        "actor": row.actor,
        "recorded_at": row.recorded_at,
        "payload": row.payload,
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }
    return _checked(Envelope, values, f"event {row.seq!r} of campaign {row.campaign_id!r}")


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
        self, pending: Sequence[Pending], *, expected_seq: int | None = None
    ) -> AppendResult:
        """Chain and insert `pending` after the head; see the module docstring for the rules."""
        if not pending:
            return AppendResult(events=[])
        ids = [p.event_id for p in pending]
        if len(set(ids)) != len(ids):
            raise InvalidInput("event ids in one append must be distinct")
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
        moved = self._conn.execute(
            update(campaigns)
            .where(campaigns.c.name == self._head.name, campaigns.c.head_seq == self._head.seq)
            .values(head_seq=seq, head_hash=prev, updated_at=stamp)
        )
        if moved.rowcount != 1:  # only possible if the lock was bypassed
            raise ConcurrencyConflict(
                f"campaign {self._head.name} moved during the append; try again",
                expected=self._head.seq,
                actual=-1,
            )
        self._head = msgspec.structs.replace(self._head, seq=seq, hash=prev, updated_at=stamp)
        return AppendResult(events=stored)

    def _insert(self, stored: Sequence[Envelope]) -> None:
        self._conn.execute(
            insert(events),
            [
                {
                    "campaign_id": e.campaign,
                    "seq": e.seq,
                    "event_id": e.event_id,
                    "type": e.type,
                    "schema_version": e.schema_version,
                    "actor": e.actor,
                    "recorded_at": e.recorded_at,
                    "payload": e.payload,
                    "prev_hash": e.prev_hash,
                    "hash": e.hash,
                }
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
            query = select(campaigns).where(campaigns.c.name == campaign)
            if not self.is_sqlite:
                query = query.with_for_update()
            row = conn.execute(query).first()
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
            rows = conn.execute(query.order_by(events.c.seq)).all()
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
                yield _envelope(row)
            last = rows[-1].position
