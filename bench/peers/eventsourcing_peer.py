"""The `eventsourcing` library (9.5.6) on its own SQLite persistence module: the best-known
Python event-sourcing framework doing tablelog's job with the same payloads.

Each 50-event slice of a campaign (about one conflict of the generated data) is an aggregate;
every event carries one exported payload as a dict (the library's JSON transcoder encodes it
with the event's timestamp, so stored states are the payload plus about 80 bytes). Snapshots
and the aggregate cache are off: `get` replays every event, as tablelog does without snapshots.
Payloads are decoded from the export before any timed block: a command holds its data.

What the library does with SQLite (eventsourcing/sqlite.py), and so what these numbers include:
- it sets `journal_mode=WAL` and nothing else: `synchronous` stays at the SQLite build's default.
  That default is FULL for CPython's usual builds (`DEFAULT_WAL_SYNCHRONOUS=2`), but to be sure
  of it the pool's connection factory is wrapped to set `synchronous=FULL` (`_open`);
- writers BEGIN DEFERRED (no IMMEDIATE), and a `save()` is one transaction: its events are
  inserted one `execute` at a time (to learn each notification id), then COMMIT (one fsync);
- the table is `stored_events(originator_id TEXT, originator_version, topic, state BLOB)` with a
  rowid and one primary-key index, where tablelog keeps two unique indexes and hash columns;
- every `get` is its own read transaction (BEGIN ... ROLLBACK) and decodes with stdlib `json`
  plus an object hook per JSON object, where tablelog uses msgspec.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnection, SQLiteFactory

from .data import Meter, Result, Row, fresh

Payload = dict[str, Any]
SYNTHETIC: Payload = {
    "type": "improv.card_played",
    "conflict": 1,
    "round": 2,
    "player": "susan",
    "card": "QH",
    "face_down": True,
    "narration": "Jason ducks behind the jukebox as glass flies across the room.",
}
"""The payload used when no rows are given: about 170 bytes, like a generated event."""


class Campaign(Aggregate):
    """A slice of a campaign: its events each carry one tablelog payload."""

    @event("Started")
    def __init__(self, payload: Payload) -> None:
        self.count = 1
        self.last = payload.get("type")

    @event("Recorded")
    def record(self, payload: Payload) -> None:
        self.count += 1
        self.last = payload.get("type")


class PeerApp(Application[UUID]):
    """The application: SQLite persistence, no snapshotting, no aggregate cache."""


def _open(path: Path) -> PeerApp:
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "IS_SNAPSHOTTING_ENABLED": "n",
        "AGGREGATE_CACHE_MAXSIZE": "",
        "CREATE_TABLE": "n",  # created below, once every connection sets synchronous=FULL
    }
    app = PeerApp(env=env)
    factory = app.factory
    assert isinstance(factory, SQLiteFactory)
    pool = factory.datastore.pool
    create = pool._create_connection

    def create_full() -> SQLiteConnection:
        conn = create()
        with conn.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = FULL")
        return conn

    pool._create_connection = create_full  # type: ignore[method-assign]
    assert isinstance(app.recorder, SQLiteApplicationRecorder)
    app.recorder.create_table()
    return app


def _decode(rows: Iterable[Row]) -> list[Payload]:
    decode = msgspec.json.Decoder(Payload).decode
    return [decode(r.payload) for r in rows]


def _campaign_slices(rows: Sequence[Row], size: int) -> list[list[Payload]]:
    """Each campaign's payloads in seq order, cut into slices of at most `size` events."""
    slices: list[list[Payload]] = []
    for _, group in itertools.groupby(rows, key=lambda r: r.campaign):
        payloads = _decode(group)
        slices.extend(payloads[i : i + size] for i in range(0, len(payloads), size))
    return slices


def _store_slices(rows: Sequence[Row] | None, total: int, size: int) -> list[list[Payload]]:
    """`total` payloads (the rows' payloads over and over, else SYNTHETIC) in slices of `size`."""
    source: Iterator[Payload] = (
        itertools.cycle(_decode(rows)) if rows else itertools.repeat(SYNTHETIC)
    )
    payloads = list(itertools.islice(source, total))
    return [payloads[i : i + size] for i in range(0, total, size)]


def _save_slices(app: PeerApp, slices: Iterable[list[Payload]]) -> list[UUID]:
    ids = []
    for payloads in slices:
        aggregate = Campaign(payloads[0])
        for payload in payloads[1:]:
            aggregate.record(payload)
        app.save(aggregate)
        ids.append(aggregate.id)
    return ids


def batched_append(rows: Sequence[Row], directory: str | Path, size: int = 50) -> Result:
    """Bulk append: each 50-event slice is created with all its events and saved at once.

    One `save()` (one transaction, one fsync) per slice: the library's fastest ordinary write,
    with the domain events, mapping and JSON encoding it always does.
    """
    slices = _campaign_slices(rows, size)
    path = fresh(directory, "eventsourcing_batched.db")
    app = _open(path)
    try:
        with Meter() as m:
            _save_slices(app, slices)
    finally:
        app.close()
    return m.result(f"eventsourcing save({size} events)", len(rows), db=path)


def single_append(rows: Sequence[Row], directory: str | Path, limit: int = 2000) -> Result:
    """Durable single appends: one event per `save()`, for the first `limit` rows.

    The aggregate stays in memory between events (no `get`), so this is the library's own
    per-transaction write cost, the peer of raw sqlite3's per-event transactions.
    """
    subset = rows[:limit]
    slices = _campaign_slices(subset, 50)
    path = fresh(directory, "eventsourcing_single.db")
    app = _open(path)
    try:
        with Meter() as m:
            for payloads in slices:
                aggregate = Campaign(payloads[0])
                app.save(aggregate)
                for payload in payloads[1:]:
                    aggregate.record(payload)
                    app.save(aggregate)
    finally:
        app.close()
    return m.result("eventsourcing save(1 event)", len(subset), db=path)


def get_decide_save(
    directory: str | Path,
    commands: int = 2000,
    aggregate_events: int = 50,
    *,
    rows: Sequence[Row] | None = None,
) -> Result:
    """Commands per second: `repository.get(id)` (replaying the whole aggregate), one new
    event decided on that state, `save()`. The peer of a tablelog command without snapshots.

    The store holds `commands` aggregates of `aggregate_events` events (built untimed), and
    each command goes to a different one, so every `get` replays exactly `aggregate_events`.
    """
    slices = _store_slices(rows, commands * aggregate_events, aggregate_events)
    path = fresh(directory, "eventsourcing_commands.db")
    app = _open(path)
    try:
        ids = _save_slices(app, slices)
        new = slices[0][-1]
        with Meter() as m:
            for aggregate_id in ids:
                aggregate: Campaign = app.repository.get(aggregate_id)
                if aggregate.count >= aggregate_events:  # the decision reads the state
                    aggregate.record(new)
                app.save(aggregate)
    finally:
        app.close()
    return m.result(
        f"eventsourcing get+decide+save ({aggregate_events}-event aggregates)",
        len(ids),
        unit="commands",
        db=path,
    )


def reconstruct(
    directory: str | Path,
    total: int,
    *,
    rows: Sequence[Row] | None = None,
    aggregate_events: int = 50,
) -> Result:
    """Reconstruction rate: `get()` every aggregate of a store of `total` events (in
    `aggregate_events`-event aggregates, built untimed) and count replayed events per second,
    with the peak RSS growth while doing it (each aggregate is dropped after its `get`).
    """
    slices = _store_slices(rows, total, aggregate_events)
    path = fresh(directory, "eventsourcing_reconstruct.db")
    app = _open(path)
    replayed = 0
    try:
        ids = _save_slices(app, slices)
        with Meter() as m:
            for aggregate_id in ids:
                aggregate: Campaign = app.repository.get(aggregate_id)
                replayed += aggregate.count
    finally:
        app.close()
    return m.result("eventsourcing reconstruct (get)", replayed, db=path)
