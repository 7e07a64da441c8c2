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
from tablelog.events.chain import GENESIS, event_hash
from tablelog.events.codec import UndecodableEvent, decode
from tablelog.events.core import CampaignCreated
from tablelog.progress import SILENT, Progress
from tablelog.storage.engine import driver_cursor, driver_sql, translated
from tablelog.storage.schema import campaigns, events
from tablelog.storage.store import EventStore
from tablelog.storage.verify_worker import BATCH, ROWS_SQL, Fetch, Part, check_part
from tablelog.storage.verify_workers import Pool, linked, parts_of, target_of, workers_for

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
        pool: Pool | None = None
        try:
            with translated(f"cannot read {label}"), self._snapshot() as conn:
                if not inspect(conn).has_table("campaigns"):
                    raise NotFound(f"{label} holds no tablelog log", code="no-log")
                heads = list(self._heads(conn, only))
                if only is not None and not heads:
                    raise NotFound(f"there is no campaign {only!r} in {label}")
                total = sum(r["head_seq"] for r in heads if isinstance(r["head_seq"], int))
                workers = self.workers
                if workers is None:
                    workers = workers_for(total, server=not self.store.is_sqlite)
                if workers > 1:
                    # Started now, they start while this process looks for orphans.
                    pool = Pool(target_of(self.store), workers - 1)
                self._orphans(conn, only)
                self.progress.start(total, "verifying")
                if pool is not None:
                    self._in_workers(conn, heads, pool)
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
        finally:
            if pool is not None:
                pool.close()
        return self._report(None)

    def _walk(self, conn: Connection, row: dict[str, Any]) -> None:
        self.campaigns += 1
        self.current, self.last_good = row["name"], 0
        checked = self._campaign_fast(conn, row)
        if checked is None:  # something is off: the careful walk names it
            checked = self._campaign(conn, row)
        self.events += checked
        self.current = None

    def _in_workers(self, conn: Connection, heads: list[dict[str, Any]], pool: Pool) -> None:
        """Check the campaigns of `heads` in parts, in the pool's workers and this process;
        then count each campaign whose parts link up to its head, and walk any other here
        (in order, as a single walk meets them: it names the first break)."""
        parts: list[Part] = []
        spans: dict[str, range] = {}
        for row in heads:
            seq = row["head_seq"]
            if type(seq) is int and seq > 0:
                start = len(parts)
                parts.extend(parts_of(row["name"], row["ruleset"], seq))
                spans[row["name"]] = range(start, len(parts))
        fetch, broken, advance = self._fetch(conn), self._broken(conn), self.progress.advance
        results = pool.check(parts, self.progress, lambda p: check_part(fetch, p, broken, advance))
        for row in heads:
            span = spans.get(row["name"])
            if span is not None and linked([results[i] for i in span], row["head_hash"]):
                self.campaigns += 1
                self.events += row["head_seq"]
            else:
                self._walk(conn, row)

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

    def _fetch(self, conn: Connection) -> Fetch:
        """ROWS_SQL through the driver, inside this walk's read snapshot."""
        sql = driver_sql(conn.dialect, ROWS_SQL)

        def fetch(name: str, first: int, limit: int) -> list[tuple[Any, ...]]:
            cursor = driver_cursor(conn)
            try:
                cursor.execute(sql, (name, first, limit))
                rows: list[tuple[Any, ...]] = list(cursor.fetchall())
            finally:
                cursor.close()
            return rows

        return fetch

    def _broken(self, conn: Connection) -> tuple[type[BaseException], ...]:
        """What a damaged row may raise on the quick walk (it then walks carefully)."""
        return (DBAPIError, conn.dialect.loaded_dbapi.Error, msgspec.DecodeError, ValueError)

    def _campaign_fast(self, conn: Connection, head: dict[str, Any]) -> int | None:
        """A healthy campaign checked quickly (verify_worker.check_part over the whole of
        it); None as soon as anything is unusual, and `_campaign` then walks the campaign
        again and explains what it finds."""
        last = head["head_seq"]
        if type(last) is not int or last < 1:
            return None
        part = Part(head["name"], head["ruleset"], 1, last, final=True)
        found = check_part(self._fetch(conn), part, self._broken(conn), self.progress.advance)
        if not linked([found], head["head_hash"]):
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
            .execution_options(yield_per=BATCH)  # a server-side cursor on PostgreSQL
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
