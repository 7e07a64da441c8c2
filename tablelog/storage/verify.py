"""Re-checking the log: every campaign's sequence and hash chain, row by row.

A damaged row is a finding, not a crash: wrong column types, text that is not UTF-8, bytes that
do not hash, payloads that do not decode, missing or swapped rows, a head that disagrees with
the log, even a database file too corrupt to read: each ends as a `Break` naming the campaign
and the first bad seq. The walk runs in one read-only snapshot, so concurrent writers never
make a healthy log look broken.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from sqlalchemy import LargeBinary, cast, inspect, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.elements import ColumnElement

from tablelog.errors import DamagedDatabase, NotFound
from tablelog.events.chain import GENESIS, chained_hash, event_hash
from tablelog.events.codec import UndecodableEvent, decode, fast_decoder
from tablelog.events.core import CampaignCreated
from tablelog.progress import SILENT, Progress
from tablelog.storage.engine import translated
from tablelog.storage.schema import campaigns, events
from tablelog.storage.store import EventStore, driver_rows
from tablelog.storage.verify_workers import workers_for

_BATCH = 5000
_UNSEEN: Any = object()
_FAST_COLUMNS = (
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
_TEXT_COLUMNS = ("campaign_id", "event_id", "type", "actor")
_INT_COLUMNS = ("seq", "schema_version", "recorded_at")
_BYTES_COLUMNS = ("payload", "prev_hash", "hash")


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
    def __init__(self, campaign: str | None, seq: int | None, reason: str) -> None:
        self.found = Break(campaign=campaign, seq=seq, reason=reason)


def verify_log(
    store: EventStore,
    *,
    head: tuple[int, bytes] | None = None,
    campaign: str | None = None,
    progress: Progress = SILENT,
    workers: int | None = 1,
) -> Report:
    """Check every campaign (or only `campaign`); with `head`, that the log contains it.

    `workers`: processes to check campaigns in, this one included; None: as many as the
    log repays (see verify_workers.py)."""
    return _Verifier(store, progress, workers).run(head, campaign)


class _Verifier:
    """Walks the log; remembers where it is so a read failing part way names the spot."""

    def __init__(self, store: EventStore, progress: Progress, workers: int | None) -> None:
        self.store = store
        self.progress = progress
        self.workers = workers
        self.campaigns = 0
        self.events = 0
        self.current: str | None = None
        self.last_good = 0

    def run(self, head: tuple[int, bytes] | None, only: str | None) -> Report:
        label = self.store.label
        try:
            with translated(f"cannot read {label}"), self._snapshot() as conn:
                if not inspect(conn).has_table("campaigns"):
                    raise NotFound(f"{label} holds no tablelog log", code="no-log")
                heads = list(self._heads(conn, only))
                if only is not None and not heads:
                    raise NotFound(f"there is no campaign {only!r} in {label}")
                self._orphans(conn, only)
                total = sum(r["head_seq"] for r in heads if isinstance(r["head_seq"], int))
                self.progress.start(total, "verifying")
                workers = self.workers
                if workers is None:
                    workers = workers_for(len(heads), total)
                if workers > 1:
                    self._in_workers(conn, heads, workers)
                else:
                    for row in heads:
                        self._walk(conn, row)
                if head is not None:
                    _check_head(conn, head, only)
        except _Found as found:
            return self._report(found.found)
        except DamagedDatabase as exc:
            # The file could not even be read to the end: that is a broken log too. Other
            # storage errors (a server that is down) propagate: nothing was checked.
            seq = None if self.current is None else self.last_good + 1
            return self._report(Break(campaign=self.current, seq=seq, reason=exc.message))
        return self._report(None)

    def _walk(self, conn: Connection, row: dict[str, Any]) -> None:
        self.campaigns += 1
        self.current, self.last_good = row["name"], 0
        checked = self._campaign_fast(conn, row)
        if checked is None:  # something is off: the careful walk names it
            checked = self._campaign(conn, row)
        self.events += checked
        self.current = None

    def _in_workers(self, conn: Connection, heads: list[dict[str, Any]], workers: int) -> None:
        """Check the campaigns of `heads` in `workers` processes, this one included (and
        alone, should the others not start)."""
        from tablelog.storage.verify_workers import Checked, check_in_workers, failed

        rows = {row["name"]: row for row in heads}

        def check_here(name: str) -> Checked:
            # A campaign's own result, as a worker reports it; the totals are added below.
            campaigns, events = self.campaigns, self.events
            try:
                self._walk(conn, rows[name])
                return Checked(events=self.events - events)
            except _Found as found:
                return Checked(events=0, first_bad=(found.found.seq, found.found.reason))
            except DamagedDatabase as exc:
                return Checked(events=0, first_bad=(self.last_good + 1, exc.message))
            finally:
                self.campaigns, self.events, self.current = campaigns, events, None

        names = list(rows)
        url = self.store.engine.url.render_as_string(hide_password=False)
        results = check_in_workers(url, names, workers, self.progress, check_here)
        for name, result in zip(names, results, strict=True):
            failed(result)
            self.campaigns += 1
            if result.first_bad is not None:
                raise _Found(name, *result.first_bad)
            self.events += result.events

    def _snapshot(self) -> Connection:
        conn = self.store.engine.connect()
        if not self.store.is_sqlite:
            # SQLite's read transaction already sees one snapshot (WAL); PostgreSQL's default
            # READ COMMITTED would let rows committed mid-walk disagree with heads read earlier.
            conn = conn.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
        return conn

    def _report(self, first_bad: Break | None) -> Report:
        return Report(
            ok=first_bad is None, campaigns=self.campaigns, events=self.events, first_bad=first_bad
        )

    def _text(self, column: ColumnElement[Any]) -> ColumnElement[Any]:
        # SQLite stores whatever bytes a tamperer wrote in a TEXT column and sqlite3 fails to
        # decode them mid-walk; reading them as bytes lets verify name the row instead.
        return cast(column, LargeBinary).label(column.key) if self.store.is_sqlite else column

    def _heads(self, conn: Connection, only: str | None) -> Iterator[dict[str, Any]]:
        query = select(
            self._text(campaigns.c.name),
            self._text(campaigns.c.ruleset),
            campaigns.c.head_seq,
            campaigns.c.head_hash,
        ).order_by(campaigns.c.name)
        if only is not None:
            query = query.where(campaigns.c.name == only)
        for row in conn.execute(query):
            values = dict(row._mapping)
            for column in ("name", "ruleset"):
                text = _as_text(values[column])
                if text is None:
                    raise _Found(None, None, f"a campaign's {column} is not UTF-8 text")
                values[column] = text
            yield values

    def _orphans(self, conn: Connection, only: str | None) -> None:
        """Events whose campaign has no row in `campaigns` (deleted, or renamed by hand)."""
        known = select(campaigns.c.name)
        query = select(events.c.seq, self._text(events.c.campaign_id))
        # In the order of the (campaign_id, seq) index: a scan of the index alone, where the
        # log's own order (position) would read every row of the table.
        query = query.where(events.c.campaign_id.not_in(known)).order_by(
            events.c.campaign_id, events.c.seq
        )
        if only is not None:
            query = query.where(events.c.campaign_id == only)
        row = conn.execute(query.limit(1)).first()
        if row is not None:
            raise _Found(
                _as_text(row.campaign_id),
                row.seq if isinstance(row.seq, int) else None,
                "the event belongs to a campaign that has no entry in the campaigns table",
            )

    def _campaign_fast(self, conn: Connection, head: dict[str, Any]) -> int | None:
        """Check a healthy campaign quickly: the driver's tuples, one `type() is` per column,
        the hash, one cached decoder per type. None as soon as anything is unusual (a bad
        type or value, a break, bytes the driver cannot read as text); `_campaign` then walks
        the campaign again and explains what it finds."""
        name: str = head["name"]
        columns = [events.c[c] for c in _FAST_COLUMNS]
        expected, prev = 1, GENESIS
        decoders: dict[tuple[str, int], Any] = {}
        advance = self.progress.advance
        created = CampaignCreated.type_name()
        broken = (DBAPIError, conn.dialect.loaded_dbapi.Error, msgspec.DecodeError, ValueError)
        while True:
            # Batches by seq (keyset), all inside the walk's one read snapshot.
            query = (
                select(*columns)
                .where(events.c.campaign_id == name, events.c.seq >= expected)
                .order_by(events.c.seq)
                .limit(_BATCH)
            )
            try:
                rows = driver_rows(conn, query)
            except broken:
                return None
            if expected == 1 and rows:
                # The first row must be the campaign's own creation event.
                seq, _, kind, version, *_rest = rows[0]
                if seq != 1 or not _begins(name, head["ruleset"], kind, version, rows[0][6]):
                    return None
                decoders[kind, version] = None  # a second creation event is refused below
            for (
                seq,
                event_id,
                kind,
                version,
                actor,
                recorded_at,
                payload,
                prev_hash,
                digest,
            ) in rows:
                if (
                    seq != expected
                    or type(seq) is not int
                    or type(event_id) is not str
                    or type(kind) is not str
                    or type(version) is not int
                    or type(actor) is not str
                    or type(recorded_at) is not int
                    or type(payload) is not bytes
                    or prev_hash != prev
                ):
                    return None
                header = (name, seq, event_id, kind, version, actor, recorded_at)
                if chained_hash(prev, header, payload) != digest:
                    return None
                decoder = decoders.get((kind, version), _UNSEEN)
                if decoder is _UNSEEN:
                    decoder = decoders[kind, version] = (
                        None if kind == created else fast_decoder(kind, version)
                    )
                if decoder is None:
                    if seq != 1:
                        return None
                else:
                    try:
                        decoder.decode(payload)
                    except broken:
                        return None
                prev, expected = digest, expected + 1
            advance(len(rows))
            if len(rows) < _BATCH:
                break
        last = expected - 1
        if last == 0 or head["head_seq"] != last or head["head_hash"] != prev:
            return None
        self.last_good = last
        return last

    def _campaign(self, conn: Connection, head: dict[str, Any]) -> int:
        name: str = head["name"]
        columns = [
            self._text(events.c[c]) if c in _TEXT_COLUMNS else events.c[c]
            for c in (*_TEXT_COLUMNS, *_INT_COLUMNS, *_BYTES_COLUMNS)
        ]
        query = (
            select(*columns)
            .where(events.c.campaign_id == name)
            .order_by(events.c.seq)
            .execution_options(yield_per=_BATCH)  # a server-side cursor on PostgreSQL
        )
        expected, prev = 1, GENESIS
        result = conn.execute(query)
        try:
            for row in result:
                prev = _check_row(name, head["ruleset"], dict(row._mapping), expected, prev)
                self.last_good = expected
                expected += 1
                self.progress.advance()
        finally:
            result.close()  # a break stops the walk early: release the cursor
        last = expected - 1
        _check_head_row(name, head, last, prev)
        return last


def _begins(name: str, ruleset: str, kind: str, version: int, payload: bytes) -> bool:
    """Whether a first row is the campaign's own creation event."""
    try:
        event = decode(kind, version, payload)
    except UndecodableEvent:
        return False
    return isinstance(event, CampaignCreated) and (event.campaign, event.ruleset) == (
        name,
        ruleset,
    )


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def _check_row(name: str, ruleset: str, row: dict[str, Any], expected: int, prev: bytes) -> bytes:
    seq = row["seq"]
    if not isinstance(seq, int):
        raise _Found(name, expected, f"seq is stored as {seq!r}, not a whole number")
    if seq != expected:
        raise _Found(name, expected, f"seq {expected} is missing (the next row is seq {seq})")
    for column in _INT_COLUMNS:
        if not isinstance(row[column], int):
            raise _Found(name, seq, f"{column} is stored as {row[column]!r}, not a whole number")
    for column in _TEXT_COLUMNS:
        text = _as_text(row[column])
        if text is None:
            raise _Found(name, seq, f"{column} is not UTF-8 text")
        row[column] = text
    for column in _BYTES_COLUMNS:
        if not isinstance(row[column], bytes):
            raise _Found(
                name, seq, f"{column} is stored as {type(row[column]).__name__}, not bytes"
            )
    if row["prev_hash"] != prev:
        raise _Found(name, seq, "prev_hash is not the hash of the event before it")
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
        raise _Found(name, seq, "the stored hash does not match the event's contents")
    try:
        event = decode(row["type"], row["schema_version"], row["payload"])
    except UndecodableEvent as exc:
        raise _Found(name, seq, f"the payload cannot be read: {exc}") from None
    if (seq == 1) != isinstance(event, CampaignCreated):
        raise _Found(name, seq, "a campaign's log must begin with campaign.created, and only once")
    if isinstance(event, CampaignCreated):
        if event.campaign != name:
            raise _Found(name, seq, f"campaign.created names {event.campaign!r}, not {name!r}")
        if event.ruleset != ruleset:
            raise _Found(
                name,
                seq,
                f"the campaigns table says ruleset {ruleset!r}, campaign.created {event.ruleset!r}",
            )
    hashed: bytes = row["hash"]
    return hashed


def _check_head_row(name: str, head: dict[str, Any], last: int, prev: bytes) -> None:
    head_seq, head_hash = head["head_seq"], head["head_hash"]
    if last == 0:
        raise _Found(name, 1, "the campaign has no events: its campaign.created is missing")
    if head_seq != last:
        seq = last + 1 if isinstance(head_seq, int) and head_seq > last else last
        raise _Found(
            name, seq, f"the campaign's head says seq {head_seq!r}, the log ends at {last}"
        )
    if not isinstance(head_hash, bytes) or head_hash != prev:
        raise _Found(name, last, "the campaign's head hash is not the hash of its last event")


def _check_head(conn: Connection, head: tuple[int, bytes], only: str | None) -> None:
    seq, digest = head
    query = select(events.c.campaign_id).where(events.c.seq == seq, events.c.hash == digest)
    if only is not None:
        query = query.where(events.c.campaign_id == only)
    if conn.execute(query).first() is None:
        raise _Found(
            only,
            seq,
            f"the log does not contain head {seq}:{digest.hex()}; "
            "history was rewritten or this is another log",
        )
