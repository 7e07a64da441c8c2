"""Rows of the log as values: a head, an envelope, a snapshot, each checked as it is read.

SQLite lets a tampered file hold any type in any column, so every value read is checked; the
common case costs one `type() is` per column and only a damaged row takes the slow path that
explains itself.
"""

from __future__ import annotations

import time
from typing import Any, TypeVar

import msgspec
from sqlalchemy import select
from sqlalchemy.engine import Connection

from tablelog.errors import DamagedDatabase
from tablelog.events.envelope import Envelope
from tablelog.storage.schema import events, snapshots


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


def envelope_of(row: Any) -> Envelope:
    """The envelope of an event row (campaign_id, seq, ..., hash, in `EVENT_COLUMNS` order).

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
    return envelope_checked(row)


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


def envelope_checked(row: Any) -> Envelope:
    values = dict(zip(_ENVELOPE_FIELDS, tuple(row), strict=True))
    where = f"event {values['seq']!r} of campaign {values['campaign']!r}"
    return _checked(Envelope, values, where)


def head_of(row: Any) -> CampaignHead:
    # Every request reads a head: the common case costs one `type() is` per column (as in
    # `envelope_of`); anything else takes the way that explains itself.
    name, ruleset, seq, digest = row.name, row.ruleset, row.head_seq, row.head_hash
    created, updated = row.created_at, row.updated_at
    if (
        type(name) is str
        and type(ruleset) is str
        and type(seq) is int
        and type(digest) is bytes
        and type(created) is int
        and type(updated) is int
    ):
        return CampaignHead(
            name=name, ruleset=ruleset, seq=seq, hash=digest, created_at=created, updated_at=updated
        )
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


EVENT_COLUMNS = (
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


def snapshot_query(campaign: str, projection: str, upto_seq: int | None) -> Any:
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


def snapshot_of(row: Any) -> Snapshot | None:
    if row is None:
        return None
    try:
        return Snapshot(seq=int(row.seq), hash=bytes(row.hash), state=bytes(row.state))
    except (TypeError, ValueError):
        return None  # a damaged cache row: the log is the truth, fold it instead


def driver_rows(conn: Connection, query: Any) -> list[tuple[Any, ...]]:
    """The rows of `query` as the driver's plain tuples: the event columns need no type
    processing (text, integers, bytes), and `envelope_of` checks every value's type anyway."""
    result = conn.execute(query)
    try:
        rows: list[tuple[Any, ...]] = list(result.cursor.fetchall())
    finally:
        result.close()
    return rows
