"""One campaign inside an open write transaction, its head locked: append, snapshots, tokens.

`EventStore.transaction` opens it (see store.py); the append chains each event's hash onto the
head in the same transaction, so a commit moves the head and the log together or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec
from sqlalchemy import insert, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from tablelog.errors import AlreadyExists, ConcurrencyConflict, DuplicateEventId, InvalidInput
from tablelog.events.chain import GENESIS, event_hash
from tablelog.events.envelope import Envelope, EventRow, Pending
from tablelog.storage.engine import driver_cursor, driver_sql, raw_execute
from tablelog.storage.rows import (
    EVENT_COLUMNS,
    AppendResult,
    CampaignHead,
    Snapshot,
    envelope_of,
    now_us,
    snapshot_of,
    snapshot_query,
)
from tablelog.storage.schema import access_tokens, campaigns, events, snapshots

_INSERT_COLUMNS = (  # in the order of EventRow
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
_INSERT = (
    f"INSERT INTO events ({', '.join(_INSERT_COLUMNS)}) "  # noqa: S608 - constants only
    f"VALUES ({', '.join(['?'] * len(_INSERT_COLUMNS))})"
)
_MOVE_HEAD = (
    "UPDATE campaigns SET head_seq = ?, head_hash = ?, updated_at = ? "
    "WHERE name = ? AND head_seq = ?"
)


# PostgreSQL: the head moved and the events inserted by one statement; no row is inserted
# unless the head was where this transaction locked it.
_PG_APPEND = (
    "WITH moved AS (UPDATE campaigns SET head_seq = ?, head_hash = ?, updated_at = ? "  # noqa: S608 - constants only
    "WHERE name = ? AND head_seq = ? RETURNING name) "
    f"INSERT INTO events ({', '.join(_INSERT_COLUMNS)}) "
    "SELECT v.* FROM moved, (VALUES {rows}) AS v"
)
_PG_ROWS_MAX = 1000  # a statement holds at most 65,535 parameters, ten per row
_PG_ROW = (
    "(?::varchar, ?::bigint, ?::varchar, ?::varchar, ?::integer, ?::varchar, ?::bigint, "
    "?::bytea, ?::bytea, ?::bytea)"
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
            select(*EVENT_COLUMNS)
            .where(events.c.campaign_id == self._head.name, events.c.seq > after_seq)
            .order_by(events.c.seq)
        )
        for row in self._conn.execute(query):
            yield envelope_of(row)

    def find(self, event_ids: Sequence[str]) -> list[Envelope]:
        if not event_ids:
            return []
        query = select(*EVENT_COLUMNS).where(events.c.event_id.in_(list(event_ids)))
        return [envelope_of(row) for row in self._conn.execute(query.order_by(events.c.seq))]

    def require_seq(self, expected_seq: int | None) -> None:
        """ConcurrencyConflict unless the head is at `expected_seq` (None: anywhere)."""
        if expected_seq is not None and expected_seq != self._head.seq:
            raise ConcurrencyConflict(
                f"campaign {self._head.name} is at seq {self._head.seq}, not {expected_seq} "
                "as the request expected; reload and try again",
                expected=expected_seq,
                actual=self._head.seq,
            )

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
        self.require_seq(expected_seq)
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
            moved = self._insert_and_move(stored, seq, prev, stamp)
        except self._conn.dialect.loaded_dbapi.IntegrityError:
            # Only event_id can collide here (seq is protected by the lock): the same id was
            # appended concurrently to another campaign, whose lock this writer does not hold.
            raise DuplicateEventId(
                f"an event id of this append was stored by another writer at the same moment; "
                f"a retry must repeat it exactly (campaign {self._head.name})"
            ) from None
        if moved != 1:  # only possible if the lock was bypassed
            raise ConcurrencyConflict(
                f"campaign {self._head.name} moved during the append; try again",
                expected=self._head.seq,
                actual=-1,
            )
        self._head = msgspec.structs.replace(self._head, seq=seq, hash=prev, updated_at=stamp)
        return AppendResult(events=stored)

    def _insert_and_move(
        self, stored: Sequence[Envelope], seq: int, digest: bytes, stamp: int
    ) -> int:
        """Insert `stored` and move the head to (`seq`, `digest`); 1 when the head moved.

        On PostgreSQL in one statement: each statement is a round trip to the server, and a
        command's whole transaction is only four of them (bench/postgres.py)."""
        if self._conn.dialect.name != "postgresql" or len(stored) > _PG_ROWS_MAX:
            self._insert(stored)
            return move_head(
                self._conn,
                self._head.name,
                start=self._head.seq,
                seq=seq,
                digest=digest,
                stamp=stamp,
            )
        rows = ", ".join([_PG_ROW] * len(stored))
        params: list[Any] = [seq, digest, stamp, self._head.name, self._head.seq]
        for e in stored:
            params += e.row()
        cursor = raw_execute(self._conn, _PG_APPEND.format(rows=rows), params)
        inserted: int = cursor.rowcount
        cursor.close()
        return 1 if inserted == len(stored) else 0

    def _insert(self, stored: Sequence[Envelope]) -> None:
        insert_rows(self._conn, [e.row() for e in stored])

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
        return snapshot_of(
            self._conn.execute(snapshot_query(self._head.name, projection, None)).first()
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

    def add_access_token(
        self, *, token_hash: str, player: str, role: str, kind: str = "token"
    ) -> None:
        insert_access_token(
            self._conn,
            campaign=self._head.name,
            token_hash=token_hash,
            player=player,
            role=role,
            kind=kind,
        )


def insert_rows(conn: Connection, rows: Sequence[EventRow]) -> None:
    """Insert event rows (values in the order of `_INSERT_COLUMNS`), chained by the caller.

    Straight to the driver's executemany: every value is already str, int or bytes, and
    SQLAlchemy's per-value binary wrapping would cost about half of a bulk import."""
    cursor = driver_cursor(conn)
    cursor.executemany(driver_sql(conn.dialect, _INSERT), rows)
    cursor.close()


def move_head(
    conn: Connection, name: str, *, start: int, seq: int, digest: bytes, stamp: int
) -> int:
    """Move `name`'s head from `start` to (`seq`, `digest`); rows changed (1, or 0 when the
    head was not at `start`)."""
    cursor = raw_execute(conn, _MOVE_HEAD, (seq, digest, stamp, name, start))
    moved: int = cursor.rowcount
    cursor.close()
    return moved


def insert_campaign(
    conn: Connection, name: str, ruleset: str, *, like: Callable[[str], str] | None = None
) -> CampaignHead:
    """A new campaign's row, its chain empty; AlreadyExists when the name is taken, or (given
    `like`, what two names must not share) when a campaign with a look-alike name exists."""
    taken = conn.execute(select(campaigns.c.name).where(campaigns.c.name == name)).first()
    if taken is not None:
        raise AlreadyExists(f"a campaign named {name!r} already exists")
    if like is not None:
        _no_look_alike(conn, name, like)
    stamp = now_us()
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
    return CampaignHead(
        name=name, ruleset=ruleset, seq=0, hash=GENESIS, created_at=stamp, updated_at=stamp
    )


# PostgreSQL: campaigns are created one at a time (a transaction-scoped advisory lock), so
# two look-alikes created at once cannot both pass the check; SQLite's write lock does that.
_CREATING = "SELECT pg_advisory_xact_lock(7810541815612712001)"


def _no_look_alike(conn: Connection, name: str, like: Callable[[str], str]) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(text(_CREATING))
    key = like(name)
    for (other,) in conn.execute(select(campaigns.c.name)):
        if like(other) == key:
            raise AlreadyExists(
                f"campaign name {name!r} is too like the existing campaign {other!r} (names "
                "that differ only in case or punctuation are one name); choose another",
                code="similar-name",
            )


def insert_access_token(
    conn: Connection, *, campaign: str, token_hash: str, player: str, role: str, kind: str = "token"
) -> None:
    stamp = now_us()
    conn.execute(
        insert(access_tokens).values(
            token_hash=token_hash,
            campaign_id=campaign,
            player=player,
            role=role,
            kind=kind,
            created_at=stamp,
            last_used_at=stamp if kind == "session" else None,
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
