"""The quick check of a stretch of one campaign's chain, and the `verify` worker process that
runs it beside the verifying process (verify_workers.py).

The worker is started by path, `python -P .../verify_worker.py`, not as `-m
tablelog.storage.verify_worker`: importing the storage package imports SQLAlchemy, 0.3 s of a
0.4 s start, and a worker reading a SQLite file needs only sqlite3, msgspec and the event
modules (a start of about 0.1 s, which lets `verify` use it from 50,000 events). A server's URL
still goes through the store, imported then. `-P` keeps this folder and the working directory
off `sys.path`. The worker reads the database's address and then one `Part` at a time on its
stdin, and answers each on its stdout (see tablelog.workers). This module imports nothing of
tablelog.storage, so that it can run so.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

import msgspec

from tablelog.events.chain import GENESIS, chained_hash
from tablelog.events.codec import UndecodableEvent, decode, fast_decoder
from tablelog.events.core import CampaignCreated
from tablelog.workers import read_frame, write_frame

BATCH = 5000  # rows read at a time
ROWS_SQL = (
    "SELECT seq, event_id, type, schema_version, actor, recorded_at, payload, prev_hash, hash "
    "FROM events WHERE campaign_id = ? AND seq >= ? ORDER BY seq LIMIT ?"
)
"""A campaign's rows from a seq on, in the driver's own types (? placeholders)."""

Fetch = Callable[[str, int, int], Sequence[tuple[Any, ...]]]
"""(campaign, first seq, at most) -> the rows of ROWS_SQL."""

_UNSEEN: Any = object()
_CREATED = CampaignCreated.type_name()


class Part(msgspec.Struct, frozen=True, array_like=True):
    """Seqs `first` to `last` of a campaign whose head is at `last` when `final`."""

    name: str
    ruleset: str
    first: int
    last: int
    final: bool


class Linked(msgspec.Struct, frozen=True, array_like=True):
    """A part found sound: the prev_hash its first event names (so the part before it must
    end on that hash) and the hash of its last event."""

    prev: bytes
    hash: bytes


class Target(msgspec.Struct, frozen=True, array_like=True):
    """The database a worker reads: a SQLite file (read straight through sqlite3), or a URL."""

    sqlite: str | None = None
    url: str | None = None
    timeout: float = 5.0


def check_part(
    fetch: Fetch,
    part: Part,
    broken: tuple[type[BaseException], ...],
    advance: Callable[[int], object],
) -> Linked | None:
    """Check a healthy part quickly: the driver's tuples, one `type() is` per column, the
    hash, one cached decoder per type. None as soon as anything is unusual (a bad type or
    value, a break, a row missing, a row after a final part's last, an error of `broken`);
    the verifying process then walks the whole campaign and explains what it finds.

    A part from seq 1 begins at the genesis hash with the campaign's own creation event; a
    later one takes the prev_hash of its first row on trust, for the caller to link."""
    name, expected, last = part.name, part.first, part.last
    prev: bytes | None = GENESIS if expected == 1 else None
    first_prev = prev
    decoders: dict[tuple[str, int], Any] = {}
    while expected <= last:
        wanted = min(BATCH, last - expected + 1)
        # The batch that ends a final part asks for one row more: there must be none.
        beyond = 1 if part.final and expected + wanted > last else 0
        try:
            rows = fetch(name, expected, wanted + beyond)
        except broken:
            return None
        if len(rows) != wanted:
            return None
        if prev is None:
            prev = first_prev = rows[0][7]
            if type(prev) is not bytes:
                return None
        elif expected == 1:
            # The first row must be the campaign's own creation event.
            seq, _, kind, version, *_rest = rows[0]
            if seq != 1 or not _begins(name, part.ruleset, kind, version, rows[0][6]):
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
            computed = chained_hash(prev, header, payload)
            if computed != digest:
                return None
            decoder = decoders.get((kind, version), _UNSEEN)
            if decoder is _UNSEEN:
                decoder = decoders[kind, version] = (
                    None if kind == _CREATED else fast_decoder(kind, version)
                )
            if decoder is None:
                if seq != 1:
                    return None
            else:
                try:
                    decoder.decode(payload)
                except broken:
                    return None
            prev, expected = computed, expected + 1
        advance(len(rows))
    if prev is None or first_prev is None:  # an empty part: never asked for
        return None
    return Linked(prev=first_prev, hash=prev)


def _begins(name: str, ruleset: str, kind: Any, version: Any, payload: Any) -> bool:
    """Whether a first row is the campaign's own creation event."""
    if type(kind) is not str or type(version) is not int or type(payload) is not bytes:
        return False
    try:
        event = decode(kind, version, payload)
    except UndecodableEvent:
        return False
    return isinstance(event, CampaignCreated) and (event.campaign, event.ruleset) == (
        name,
        ruleset,
    )


def _sqlite_rows(target: Target) -> tuple[Fetch, tuple[type[BaseException], ...]]:
    import sqlite3
    from urllib.parse import quote  # (pathlib's as_uri would cost 10 ms more to import)

    assert target.sqlite is not None
    # mode=rw: a file that has gone is an error, never a new empty database.
    conn = sqlite3.connect(
        "file://" + quote(os.path.abspath(target.sqlite)) + "?mode=rw",
        uri=True,
        timeout=target.timeout,
        isolation_level=None,  # each part one SELECT: its own read snapshot
    )
    # Pages read in place rather than copied in: about 4% of the check. A file cut short
    # under the mapping ends this process with a signal, and its parts go back to the
    # verifying process, which reads without it.
    conn.execute("PRAGMA mmap_size = 1073741824")

    def fetch(name: str, first: int, limit: int) -> list[tuple[Any, ...]]:
        return conn.execute(ROWS_SQL, (name, first, limit)).fetchall()

    return fetch, (sqlite3.Error, msgspec.DecodeError, ValueError)


def _url_rows(target: Target) -> tuple[Fetch, tuple[type[BaseException], ...]]:
    from tablelog.storage import open_store
    from tablelog.storage.engine import driver_sql

    assert target.url is not None
    engine = open_store(target.url, check_schema=False).engine
    sql = driver_sql(engine.dialect, ROWS_SQL)
    raw = engine.raw_connection()

    def fetch(name: str, first: int, limit: int) -> list[tuple[Any, ...]]:
        cursor = raw.cursor()
        try:
            cursor.execute(sql, (name, first, limit))
            rows: list[tuple[Any, ...]] = list(cursor.fetchall())
        finally:
            cursor.close()
            raw.rollback()  # each part one SELECT: its own snapshot, none held open
        return rows

    return fetch, (engine.dialect.loaded_dbapi.Error, msgspec.DecodeError, ValueError)


def main(source: IO[bytes], out: IO[bytes]) -> int:
    """The worker: open the database named first on `source`, then check each part sent
    there, answering on `out` (None: not sound, or not checked; the verifying process walks
    that campaign itself)."""
    # A process of its own that keeps nothing: no cycles worth the collector's walks.
    gc.disable()
    # Built here, not on import: the verifying process imports this module too.
    parts, answers = msgspec.msgpack.Decoder(Part), msgspec.msgpack.Encoder()
    try:
        target = msgspec.msgpack.decode(read_frame(source), type=Target)
    except EOFError:
        return 0
    fetch, broken = _sqlite_rows(target) if target.sqlite is not None else _url_rows(target)
    while True:
        try:
            part = parts.decode(read_frame(source))
        except EOFError:
            return 0
        write_frame(out, answers.encode(check_part(fetch, part, broken, _ignore)))
        out.flush()


def _ignore(_count: int) -> None:
    """The worker's progress is told by the verifying process, from its answers."""


if __name__ == "__main__":
    code = main(sys.stdin.buffer, sys.stdout.buffer)
    sys.stdout.flush()
    # Every answer is written: leave without the interpreter's teardown (about 15 ms that
    # the verifying process would wait for).
    os._exit(code)
