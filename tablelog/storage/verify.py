"""Re-checking the log: every campaign's sequence and hash chain, row by row.

A damaged row is a finding, not a crash: wrong column types, bytes that do not hash, payloads
that do not decode, missing or swapped rows, a head that disagrees with the log, even a database
file too corrupt to read all end as a `Break` naming the campaign and the first bad seq.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from sqlalchemy import inspect, select
from sqlalchemy.engine import Connection

from tablelog.errors import DamagedDatabase, NotFound
from tablelog.events.codec import UndecodableEvent, decode
from tablelog.events.core import CampaignCreated
from tablelog.storage.chain import GENESIS, event_hash
from tablelog.storage.engine import translated
from tablelog.storage.schema import campaigns, events
from tablelog.storage.store import EventStore

_BATCH = 1000


class Break(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str | None
    seq: int | None
    reason: str


class Report(msgspec.Struct, frozen=True, kw_only=True):
    ok: bool
    campaigns: int
    events: int
    first_bad: Break | None


class _Found(Exception):
    def __init__(self, found: Break) -> None:
        self.found = found


def verify_log(
    store: EventStore, *, head: tuple[int, bytes] | None = None, campaign: str | None = None
) -> Report:
    """Check every campaign (or only `campaign`); with `head`, that the log contains it."""
    return _Verifier().run(store, head, campaign)


class _Verifier:
    """Walks the log; remembers where it is so a read failing part way names the spot."""

    def __init__(self) -> None:
        self.campaigns = 0
        self.events = 0
        self.current: str | None = None
        self.last_good = 0

    def run(
        self, store: EventStore, head: tuple[int, bytes] | None, campaign: str | None
    ) -> Report:
        try:
            with translated(f"cannot read {store.label}"), store.engine.connect() as conn:
                if not inspect(conn).has_table("campaigns"):
                    raise NotFound(f"{store.label} holds no tablelog log", code="no-log")
                heads = _heads(conn, campaign)
                if campaign is not None and not heads:
                    raise NotFound(f"there is no campaign {campaign!r} in {store.label}")
                _orphans(conn, {str(h["name"]) for h in heads}, campaign)
                for row in heads:
                    self.campaigns += 1
                    self.current, self.last_good = str(row["name"]), 0
                    self.events += _check_campaign(conn, row, self)
                    self.current = None
                if head is not None:
                    _check_head(conn, head, campaign)
        except _Found as found:
            return self._report(found.found)
        except DamagedDatabase as exc:
            # The file could not even be read to the end: that is a broken log too. Other
            # storage errors (a server that is down) propagate: nothing was checked.
            seq = None if self.current is None else self.last_good + 1
            return self._report(Break(campaign=self.current, seq=seq, reason=exc.message))
        return self._report(None)

    def _report(self, first_bad: Break | None) -> Report:
        return Report(
            ok=first_bad is None,
            campaigns=self.campaigns,
            events=self.events,
            first_bad=first_bad,
        )


def _heads(conn: Connection, campaign: str | None) -> list[dict[str, Any]]:
    query = select(campaigns).order_by(campaigns.c.name)
    if campaign is not None:
        query = query.where(campaigns.c.name == campaign)
    return [dict(row._mapping) for row in conn.execute(query)]


def _orphans(conn: Connection, names: set[str], only: str | None) -> None:
    query = select(events.c.campaign_id, events.c.seq).order_by(events.c.position)
    if only is not None:
        query = query.where(events.c.campaign_id == only)
    if names:
        query = query.where(events.c.campaign_id.not_in(names))
    for row in conn.execute(query):
        raise _Found(
            Break(
                campaign=str(row.campaign_id),
                seq=row.seq if isinstance(row.seq, int) else None,
                reason="the event belongs to a campaign that has no entry in the campaigns table",
            )
        )


def _bad(campaign: str, seq: int | None, reason: str) -> _Found:
    return _Found(Break(campaign=campaign, seq=seq, reason=reason))


def _check_campaign(conn: Connection, head: dict[str, Any], progress: _Verifier) -> int:
    name = str(head["name"])
    query = select(events).where(events.c.campaign_id == name).order_by(events.c.seq)
    # Stream the rows (a server-side cursor on PostgreSQL): a log can be large.
    query = query.execution_options(yield_per=_BATCH)
    expected, prev = 1, GENESIS
    result = conn.execute(query)
    try:
        for row in _rows(result):
            prev = _check_row(name, row, expected, prev)
            progress.last_good = expected
            expected += 1
    finally:
        result.close()  # a break stops the walk early: release the server-side cursor
    last = expected - 1
    head_seq, head_hash = head["head_seq"], head["head_hash"]
    if head_seq != last:
        seq = last + 1 if isinstance(head_seq, int) and head_seq > last else head_seq
        raise _bad(
            name,
            seq if isinstance(seq, int) else None,
            f"the campaign's head says seq {head_seq} but the log ends at seq {last}",
        )
    if not isinstance(head_hash, bytes) or head_hash != prev:
        raise _bad(name, last, "the campaign's head hash is not the hash of its last event")
    return last


def _rows(result: Iterable[Any]) -> Iterable[dict[str, Any]]:
    for row in result:
        yield dict(row._mapping)


_INT_COLUMNS = ("seq", "schema_version", "recorded_at")
_TEXT_COLUMNS = ("event_id", "type", "actor")


def _check_row(name: str, row: dict[str, Any], expected: int, prev: bytes) -> bytes:
    seq = row["seq"]
    if not isinstance(seq, int):
        raise _bad(name, expected, f"seq is stored as {seq!r}, not a whole number")
    if seq != expected:
        raise _bad(name, expected, f"seq {expected} is missing (the next row is seq {seq})")
    for column in _INT_COLUMNS:
        if not isinstance(row[column], int):
            raise _bad(name, seq, f"{column} is stored as {row[column]!r}, not a whole number")
    for column in _TEXT_COLUMNS:
        if not isinstance(row[column], str):
            raise _bad(name, seq, f"{column} is stored as {row[column]!r}, not text")
    for column in ("payload", "prev_hash", "hash"):
        if not isinstance(row[column], bytes):
            raise _bad(name, seq, f"{column} is stored as {type(row[column]).__name__}, not bytes")
    if row["prev_hash"] != prev:
        raise _bad(name, seq, "prev_hash is not the hash of the event before it")
    recomputed = event_hash(
        prev_hash=prev,
        campaign=name,
        seq=seq,
        event_id=row["event_id"],
        type=row["type"],
        schema_version=row["schema_version"],
        actor=row["actor"],
        recorded_at=row["recorded_at"],
        payload=row["payload"],
    )
    if recomputed != row["hash"]:
        raise _bad(name, seq, "the stored hash does not match the event's contents")
    try:
        event = decode(row["type"], row["schema_version"], row["payload"])
    except UndecodableEvent as exc:
        raise _bad(name, seq, f"the payload cannot be read: {exc}") from None
    if (seq == 1) != isinstance(event, CampaignCreated):
        raise _bad(name, seq, "a campaign's log must begin with campaign.created, and only once")
    if isinstance(event, CampaignCreated) and event.campaign != name:
        raise _bad(name, seq, f"campaign.created names {event.campaign!r}, not {name!r}")
    hashed: bytes = row["hash"]
    return hashed


def _check_head(conn: Connection, head: tuple[int, bytes], campaign: str | None) -> None:
    seq, digest = head
    query = select(events.c.campaign_id).where(events.c.seq == seq, events.c.hash == digest)
    if campaign is not None:
        query = query.where(events.c.campaign_id == campaign)
    if conn.execute(query).first() is None:
        raise _Found(
            Break(
                campaign=campaign,
                seq=seq,
                reason=f"the log does not contain head {seq}:{digest.hex()}; "
                "history was rewritten or this is another log",
            )
        )
