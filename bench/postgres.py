"""tablelog's writers on PostgreSQL against raw psycopg writers doing the same transactions.

    python bench/postgres.py                     # 8 writers x 500 commands, threads
    python bench/postgres.py --smoke             # a tiny run (a few seconds)
    python bench/postgres.py --mode both --commands 500 --repeat 2
    python bench/postgres.py --url postgresql+psycopg://postgres@127.0.0.1:5432/test

What is measured, in one run, on schemas of its own (created fresh, dropped at the end):
- tablelog, 8 campaigns: `--writers` writers, each appending `--commands` narration commands
  through `tablelog.commands.table.execute` to a campaign of its own (a table in play: a
  session, an open conflict with stakes), after `tablelog.commands.database.upgrade` on a
  fresh schema (carried in the URL as `?options=-csearch_path=SCHEMA`, as the tests do). Each
  command is what `tablelog improv narrate` does: lock the campaign's head row (SELECT ...
  FOR UPDATE), bring the cached state to the head, decide, append one hash-chained event, move
  the head, commit (a snapshot every 200 events).
- tablelog, one campaign: the same writers all on one campaign.
- raw psycopg, 8 keys: the same writers each inserting one events row per transaction
  (INSERT, COMMIT) under a key of their own.
- raw psycopg, one key: the same writers on one key, each transaction doing what tablelog's
  does to the database: SELECT head FOR UPDATE, INSERT the event, UPDATE the head, COMMIT.
- raw psycopg, 8 keys with the head lock (an extra line): the one-key transaction on a key per
  writer, the like-for-like floor of tablelog's 8-campaign case.
Printed: commands (transactions) per second for each, and tablelog/raw.

Why the peers are fair: they write into tables created by the same `upgrade` (the same
columns, unique indexes and foreign key), rows of the same size (a narration's JSON payload,
32-byte hashes, a uuid event id), one durable commit per command, over the same server with
the same number of connections, so they are the floor of what a writer of this log must pay
to PostgreSQL; what tablelog spends above it is its own (SQLAlchemy, the state and rules, the
hash chain, envelopes). Prepared statements are psycopg's defaults for both.

`--mode threads` runs the writers as threads sharing one store (as one service process
would), `--mode processes` as processes with a store each (as several CLI invocations or
service workers would), `--mode both` runs every phase both ways. tablelog's per-command
Python work holds the GIL, so threads only suffice while the database's waits dominate; on
the 2-CPU machine this was written on threads still did better than processes (the server
and eight interpreters share two CPUs, and on one campaign every process must first fold
the events the others appended), so threads are the default. The machine's load average is
printed: on a shared machine compare ratios within one run, and repeat (`--repeat`).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import multiprocessing.synchronize
import os
import platform
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

import msgspec
import psycopg
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablelog.commands.campaigns import create_campaign
from tablelog.commands.database import upgrade
from tablelog.commands.table import execute
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
CONFLICT = "live"
GM_SIDE = "Riso"
TEXT = "Riso kicks a stool into Kit's path and draws. ({writer}.{i})"

PRELOAD = ["psycopg", "sqlalchemy", "tablelog.commands.table", "tablelog.rulesets.improv.rules"]
Kind = Literal["tablelog", "raw-insert", "raw-locked"]


# --- schemas ------------------------------------------------------------------------------


def schema_url(base: str, schema: str) -> str:
    """`base` with its search_path set to `schema` (as tests/conftest.py passes it)."""
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options={quote(f'-csearch_path={schema}')}"


def libpq(base: str) -> str:
    """The libpq connection string psycopg takes for a SQLAlchemy URL."""
    url = make_url(base).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


@contextmanager
def schemas(base: str, names: Sequence[str]) -> Iterator[None]:
    """Fresh, empty schemas for the run, dropped afterwards whatever happens."""
    admin = create_engine(base)
    try:
        with admin.begin() as conn:
            for name in names:
                conn.execute(text(f'CREATE SCHEMA "{name}"'))
        yield
    finally:
        with admin.begin() as conn:
            for name in names:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        admin.dispose()


def server_settings(base: str) -> str:
    engine = create_engine(base)
    try:
        with engine.connect() as conn:
            version = conn.execute(text("SHOW server_version")).scalar()
            values = [
                f"{name}={conn.execute(text(f'SHOW {name}')).scalar()}"
                for name in ("synchronous_commit", "fsync", "wal_sync_method", "max_connections")
            ]
    finally:
        engine.dispose()
    return f"PostgreSQL {version}: " + ", ".join(values)


# --- the workloads ------------------------------------------------------------------------


def prepare_campaign(store: EventStore, name: str) -> None:
    """A table in play: two characters, a session, an open conflict with stakes."""
    create_campaign(store, name, ruleset="improv")
    for command in (
        c.CreateCharacter(player="Bob", character="Kit", talents=["Brawler"]),
        c.CreateCharacter(player="Susan", character="Jason", talents=["Protector"]),
        c.StartSession(),
        c.OpenConflict(conflict=CONFLICT),
        c.SetStake(conflict=CONFLICT, side=GM_SIDE, gm=True, text="Riso gets away"),
        c.SetStake(conflict=CONFLICT, side="Kit", opposes=GM_SIDE, text="Kit stops him"),
        c.SetStake(conflict=CONFLICT, side="Jason", opposes=GM_SIDE, text="Jason keeps Vinny"),
    ):
        execute(store, name, command, ruleset="improv")


def narrate(writer: int, i: int) -> c.Narrate:
    return c.Narrate(conflict=CONFLICT, side=GM_SIDE, text=TEXT.format(writer=writer, i=i))


def payload(writer: int, i: int) -> bytes:
    """The JSON payload tablelog stores for `narrate(writer, i)` (same fields, same size)."""
    return msgspec.json.encode(
        {
            "type": "improv.narrated",
            "conflict": CONFLICT,
            "side": GM_SIDE.lower(),
            "text": TEXT.format(writer=writer, i=i),
            "final": False,
        }
    )


INSERT = (
    "INSERT INTO events (campaign_id, seq, event_id, type, schema_version, actor, recorded_at,"
    " payload, prev_hash, hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
)
LOCK_HEAD = "SELECT head_seq, head_hash FROM campaigns WHERE name = %s FOR UPDATE"
MOVE_HEAD = "UPDATE campaigns SET head_seq = %s, head_hash = %s, updated_at = %s WHERE name = %s"
ADD_KEY = (
    "INSERT INTO campaigns (name, ruleset, created_at, head_seq, head_hash, updated_at)"
    " VALUES (%s, 'improv', 0, 0, %s, 0)"
)


def now_us() -> int:
    return time.time_ns() // 1000


def _row(key: str, seq: int, body: bytes, prev: bytes) -> tuple[Any, ...]:
    digest = hashlib.sha256(prev + body).digest()
    return (key, seq, str(uuid.uuid4()), "improv.narrated", 1, "gm", now_us(), body, prev, digest)


@dataclass(frozen=True)
class Job:
    """One writer's work: `count` commands (transactions) of `kind` on `key`."""

    kind: Kind
    url: str  # tablelog: the SQLAlchemy URL with search_path; raw: a libpq string
    schema: str
    key: str
    writer: int
    count: int
    warmup: int


Step = Callable[[int], None]


@contextmanager
def writer_for(job: Job, store: EventStore | None) -> Iterator[Step]:
    """What one command of `job` is, with its connection open (not timed)."""
    if job.kind == "tablelog":
        own = store is None
        opened = open_store(job.url) if store is None else store
        try:
            yield lambda i: _tablelog_step(opened, job, i)
        finally:
            if own:
                opened.close()
        return
    with psycopg.connect(job.url, options=f"-csearch_path={job.schema}") as conn:
        yield RawWriter(conn, job).step


class RawWriter:
    """One psycopg connection's transactions: an insert alone, or with the head lock."""

    def __init__(self, conn: psycopg.Connection[tuple[Any, ...]], job: Job) -> None:
        self.conn, self.job = conn, job
        self.seq, self.prev = 0, bytes(32)  # raw-insert: a key of its own, no head to read

    def step(self, i: int) -> None:
        conn, key = self.conn, self.job.key
        if self.job.kind == "raw-insert":
            row = _row(key, self.seq + 1, payload(self.job.writer, i), self.prev)
            conn.execute(INSERT, row)
            conn.commit()
            self.seq, self.prev = self.seq + 1, row[-1]
            return
        found = conn.execute(LOCK_HEAD, (key,)).fetchone()
        assert found is not None
        seq, prev = int(found[0]) + 1, bytes(found[1])
        row = _row(key, seq, payload(self.job.writer, i), prev)
        conn.execute(INSERT, row)
        conn.execute(MOVE_HEAD, (seq, row[-1], now_us(), key))
        conn.commit()


def _tablelog_step(store: EventStore, job: Job, i: int) -> None:
    written = execute(store, job.key, narrate(job.writer, i), ruleset="improv")
    assert len(written) == 1


class Span(msgspec.Struct, frozen=True):
    started: float  # time.monotonic(): one clock for every process of the machine
    ended: float
    count: int
    error: str = ""


def run_job(job: Job, store: EventStore | None, start: Callable[[], object]) -> Span:
    """Open, warm up, wait for every writer (`start`), then the timed commands."""
    try:
        with writer_for(job, store) as step:
            for i in range(job.warmup):
                step(-1 - i)
            start()
            started = time.monotonic()
            for i in range(job.count):
                step(i)
            return Span(started, time.monotonic(), job.count)
    except Exception as exc:
        # The others must not wait for ever at the start line for a writer that failed.
        with suppress(Exception):
            start()
        return Span(0.0, 0.0, 0, f"{type(exc).__name__}: {exc}")


def _process_main(
    job: Job, barrier: multiprocessing.synchronize.Barrier, out: Any
) -> None:  # pragma: no cover - runs in a child
    out.put(msgspec.msgpack.encode(run_job(job, None, barrier.wait)))


@dataclass(frozen=True)
class Measured:
    name: str
    mode: str
    count: int
    seconds: float
    errors: list[str]

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0


def run_phase(name: str, mode: str, jobs: Sequence[Job], store: EventStore | None) -> Measured:
    """Every job at once (threads sharing `store`, or processes with a store each)."""
    spans: list[Span] = []
    if mode == "threads":
        barrier = threading.Barrier(len(jobs))
        results: list[Span | None] = [None] * len(jobs)

        def thread_main(n: int) -> None:
            results[n] = run_job(jobs[n], store, barrier.wait)

        threads = [threading.Thread(target=thread_main, args=(n,)) for n in range(len(jobs))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        spans = [s if s is not None else Span(0, 0, 0, "no result") for s in results]
    else:
        # A fork server with the heavy imports done once: each writer starts in a fraction of a
        # second, with no connection inherited from this process.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        mp_barrier = context.Barrier(len(jobs))
        queue = context.Queue()
        processes = [
            context.Process(target=_process_main, args=(job, mp_barrier, queue)) for job in jobs
        ]
        for process in processes:
            process.start()
        spans = [msgspec.msgpack.decode(queue.get(timeout=600), type=Span) for _ in processes]
        for process in processes:
            process.join()
    good = [s for s in spans if not s.error]
    seconds = max(s.ended for s in good) - min(s.started for s in good) if good else 0.0
    return Measured(
        name=name,
        mode=mode,
        count=sum(s.count for s in good),
        seconds=seconds,
        errors=[s.error for s in spans if s.error],
    )


# --- one run ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    many: Measured  # tablelog, a campaign per writer
    one: Measured  # tablelog, one campaign
    raw_many: Measured  # raw insert, a key per writer
    raw_one: Measured  # raw head lock + insert + head update, one key
    raw_many_locked: Measured  # raw head lock ..., a key per writer

    def rows(self) -> list[Measured]:
        return [self.many, self.raw_many, self.raw_many_locked, self.one, self.raw_one]


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def run_round(args: argparse.Namespace, mode: str, tag: str) -> Round:
    writers, count, warmup = args.writers, args.commands, args.warmup
    base = args.url
    names = [f"tl_bench_{tag}", f"tl_raw_{tag}"]
    tablelog_url = schema_url(base, names[0])
    raw_url = libpq(base)
    campaigns = [f"w{n}" for n in range(writers)]
    locked = [f"l{n}" for n in range(writers)]

    def jobs(kind: Kind, keys: Sequence[str]) -> list[Job]:
        url, schema = (tablelog_url, names[0]) if kind == "tablelog" else (raw_url, names[1])
        return [Job(kind, url, schema, key, n, count, warmup) for n, key in enumerate(keys)]

    with schemas(base, names):
        upgrade(tablelog_url)
        upgrade(schema_url(base, names[1]))  # the same tables for the raw writers
        with psycopg.connect(raw_url, options=f"-csearch_path={names[1]}") as conn:
            for key in [*campaigns, "one", *locked]:
                conn.execute(ADD_KEY, (key, bytes(32)))
            conn.commit()
        store = open_store(tablelog_url)
        try:
            for name in [*campaigns, "one"]:
                prepare_campaign(store, name)
            shared = store if mode == "threads" else None
            # Each tablelog phase next to its peers: the machine may change between phases.
            many = run_phase(
                f"tablelog, {writers} campaigns", mode, jobs("tablelog", campaigns), shared
            )
            raw_many = run_phase(
                f"raw psycopg, {writers} keys (insert)", mode, jobs("raw-insert", campaigns), None
            )
            raw_many_locked = run_phase(
                f"raw psycopg, {writers} keys (head lock)", mode, jobs("raw-locked", locked), None
            )
            one = run_phase(
                "tablelog, one campaign", mode, jobs("tablelog", ["one"] * writers), shared
            )
            raw_one = run_phase(
                "raw psycopg, one key (head lock)",
                mode,
                jobs("raw-locked", ["one"] * writers),
                None,
            )
        finally:
            store.close()
    return Round(many, one, raw_many, raw_one, raw_many_locked)


def report(number: int, result: Round) -> None:
    print(f"\nround {number} ({result.many.mode})")
    print(f"{'name':<40} {'count':>6} {'seconds':>8} {'commands/s':>11}")
    for m in result.rows():
        print(f"{m.name:<40} {m.count:>6} {m.seconds:>8.2f} {m.rate:>11.1f}")
        for error in m.errors[:3]:
            print(f"    error: {error[:300]}")
    many = ratio(result.many.rate, result.raw_many.rate)
    locked = ratio(result.many.rate, result.raw_many_locked.rate)
    one = ratio(result.one.rate, result.raw_one.rate)
    print(
        f"tablelog/raw: {result.many.name.split(', ')[1]} {many:.3f} (target >= 0.40; "
        f"against the head-lock peer {locked:.3f}), one campaign {one:.3f} (target >= 0.70)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("TABLELOG_BENCH_PG_URL", DEFAULT_URL))
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--commands", type=int, default=500, help="commands per writer (K)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed commands per writer")
    parser.add_argument("--mode", choices=("threads", "processes", "both"), default="threads")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a tiny run")
    args = parser.parse_args(argv)
    if args.smoke:
        args.commands, args.repeat = min(args.commands, 20), 1
        if args.mode == "both":
            args.mode = "threads"
    if min(args.writers, args.commands, args.repeat) < 1 or args.warmup < 0:
        parser.error("--writers, --commands and --repeat must be at least 1")
    modes = ["threads", "processes"] if args.mode == "both" else [args.mode]
    print(
        f"{args.writers} writers x {args.commands} commands; {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
        + server_settings(args.url),
        flush=True,
    )
    rounds: list[Round] = []
    failed = False
    for number in range(1, args.repeat + 1):
        for mode in modes:
            result = run_round(args, mode, f"{os.getpid()}_{number}_{mode[0]}")
            report(number, result)
            rounds.append(result)
            failed = failed or any(m.errors for m in result.rows())
    if len(rounds) > 1:
        print("\nover the rounds (min .. max):")
        for mode in modes:
            mine = [r for r in rounds if r.many.mode == mode]
            spreads = {
                "tablelog/raw, campaigns": [ratio(r.many.rate, r.raw_many.rate) for r in mine],
                "tablelog/raw, one campaign": [ratio(r.one.rate, r.raw_one.rate) for r in mine],
            }
            for label, values in spreads.items():
                print(f"  {mode:<9} {label:<28} {min(values):.3f} .. {max(values):.3f}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
