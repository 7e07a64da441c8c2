"""Several `tablelog serve` processes on one PostgreSQL database (issue 31): commands as services
are added, what watched campaigns cost the database while nothing happens, and how soon an
append reaches the watchers of its campaign.

    python bench/scale.py                    # the whole run (about 4 to 5 minutes on 2 CPUs)
    python bench/scale.py --smoke            # tiny sizes (well under a minute)
    python bench/scale.py --url postgresql://postgres@127.0.0.1:5432/test --database bench_scale
    python bench/scale.py --services 1,2 --clients 16 --seconds 10 --skip-watching

It creates the database `--database` (dropped first if it is left from an earlier run, and
dropped again at the end unless `--keep`) through `--url` (any database of the server: the
bench reads the statistics from there, so its own reads are not counted), runs `tablelog db
upgrade` on it, and starts every service as a host would: `python -m tablelog --db URL serve`,
the first alone (it prints the admin token), all in one directory with the same configuration
(they share the signing key), on loopback. Every campaign is made through the services as a
client would: created with the admin token, two players invited, a character, a session
started; its GM and the two players are its three watchers.

What is measured, in one run:
- throughput: for each count of `--services` (default 1, 2, 4: fresh processes for each), and
  each count of `--clients` (16, 32, 64) on `--campaigns` campaigns of their own (64, the same
  for every phase: a campaign's state grows with each conflict opened, so no phase inherits
  another's), closed-loop keep-alive clients each sending the GM's `POST
  /campaigns/C/improv/conflicts` (a new conflict: one event, hash-chained, durably committed)
  to a random campaign, each request to the next service in turn (a load balancer's round
  robin, per request: a campaign's commands land on every service, each then bringing its
  state to the head). After `--warmup` seconds, for `--seconds` seconds: commands answered 201
  per second, their latency (p50, p99), each as a ratio to one service at the same clients;
  CPU seconds per command of the service processes (/proc/PID/stat utime+stime, every thread)
  and of the database's backends for this database (/proc of the local PostgreSQL's
  processes: those that vanish mid-phase are missed), and of this process (the clients);
  PostgreSQL's transactions for the database (pg_stat_database: `xact_commit`, and
  `xact_rollback`, the reads, which the connection pool ends with a rollback) and the
  server's transaction ids (the xmax of pg_current_snapshot: one per transaction that wrote,
  counted at once; every database's); the most connections the database saw
  (pg_stat_activity, every 0.25 s).
  pg_stat_database lags: a busy backend adds its counts at most once a second, an idle one
  up to 10 s later, and a listening connection (which commits a transaction of its own to
  read the notifications delivered to it) about 10 s after it started listening and then
  only as it exits, so a phase's `xact_commit` may carry another's. Exact figures follow
  each count of services, once its processes stopped: every transaction of its phases,
  warm-ups and pauses included, per command answered.
- idle watching: two fresh services; no feed at all, then `--watched-small` campaigns watched
  (3 feeds each: `GET /campaigns/C/events` with `Last-Event-ID` at the head), then
  `--watched` campaigns (3,000 feeds), the feeds alternating between the two services. For
  each, after `--settle` seconds (past pg_stat_database's 10 s lag: what opening the feeds
  cost is counted before the window), for `--idle` seconds: the database's transactions per
  second (commits and rollbacks) and tuples written per second; the services' CPU, memory
  (VmRSS) and open files; events the feeds received (none is expected: nothing is
  appended) and their `alive` heartbeats; the listening connections. (pg_stat_statements
  would name the statements, but only a server that preloads it has it.)
- under appends: with those feeds open, `--rate` appends a second (the GM's new conflict on
  a random watched campaign, sent at a steady pace whatever the answers, the services in
  turn) for `--appends-seconds` seconds: from each command sent, and from its answer, to each
  of the campaign's three feeds receiving it (p50, p99, max); deliveries missing (not come
  within 5 s) or repeated; the services' CPU and the database's transactions per append.

The open-file limit is raised to its hard limit here, before any service starts (each
inherits it; the run prints a service's own limit); if the hard limit cannot hold the feeds,
`--watched` is lowered and the run says so.

The clients are hand-written HTTP/1.1 over asyncio streams, as bench/service.py's default
(httpx costs about ten times their CPU per request). They, the services and PostgreSQL share
the machine's CPUs: on 2 CPUs more services add processes, not CPU, so the ratios say what
the spreading itself costs (the cross-service catch-up, more connections), not what more
machines would gain; the CPU per command is what sizes a host (bench/results/).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import platform
import random
import re
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import psycopg
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tablelog from this checkout

from tablelog.storage.engine import POOL_MOST

HOST = "127.0.0.1"
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
START_TIMEOUT_S = 60.0
DELIVERY_TIMEOUT_S = 5.0
# Every serve option that limits a client is lifted: all the bench's clients are one address.
LIFTED = (
    "--campaign-limit", "1000000", "--feeds-per-token", "1000", "--feeds-per-address",
    "1000000", "--auth-failures", "1000000",
)  # fmt: skip
# Set by `main` for the server it finds: every service's `--db-connections`, so the most
# services of a run fit its max_connections together, as README's Hosting tells hosts.
FITTED: list[str] = []
SPARE_CONNECTIONS = 10  # the superuser's reserve (3) and this bench's own
_ADMIN_LINE = re.compile(r"^admin token \(.*\): (\S+)$", re.MULTILINE)
_TICK = os.sysconf("SC_CLK_TCK")


# --- processes ------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of every thread of process `pid` so far (0 once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime (fields 14, 15)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return math.nan


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def file_limit(pid: int) -> str:
    """Process `pid`'s soft open-file limit, as /proc says it."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return line.split()[3]
    return "?"


def backend_cpu(database: str) -> dict[int, float]:
    """CPU seconds so far of each local PostgreSQL backend connected to `database` (found by
    its process title, `postgres: ... USER DATABASE HOST(PORT) STATE`)."""
    found = {}
    marker = f" {database} ".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            title = Path(f"/proc/{entry}/cmdline").read_bytes()
            if title.startswith(b"postgres:") and marker in title:
                found[int(entry)] = cpu_seconds(int(entry))
    return found


def backend_delta(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def raise_open_files() -> None:
    """The soft open-file limit up to the hard one, here; every service started afterwards
    inherits it (as a `preexec_fn` would set it, without forking a process that runs
    threads: asyncio's resolver has some)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Service:
    port: int
    log: Path
    process: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.process.pid


def _launch(db: str, scratch: Path) -> Service:
    port = free_port()
    log = scratch / f"serve-{port}.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env.update(XDG_CONFIG_HOME=str(scratch / "config"), XDG_DATA_HOME=str(scratch / "data"))
    argv = [sys.executable, "-m", "tablelog", "--db", db, "serve", "--host", HOST]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*argv, "--port", str(port), *LIFTED, *FITTED],
            cwd=scratch,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Service(port, log, process)


async def _answers(service: Service) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:  # bounded: gives up at the deadline
        if service.process.poll() is not None:
            raise RuntimeError(f"a service exited: {service.log.read_text()[-2000:]}")
        with contextlib.suppress(OSError, RuntimeError, asyncio.IncompleteReadError):
            http = await Http.open(service.port)
            try:
                if (await http.call("GET", "/"))[0] == 200:
                    return
            finally:
                http.close()
        if time.monotonic() > deadline:
            raise RuntimeError(f"a service did not answer on port {service.port}")
        await asyncio.sleep(0.1)


def stop(services: Sequence[Service]) -> None:
    for service in services:
        if service.process.poll() is None:
            service.process.terminate()
    for service in services:
        try:
            service.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            service.process.kill()
            service.process.wait()


@contextlib.asynccontextmanager
async def running(count: int, db: str, scratch: Path) -> Any:
    """`count` fresh services (started together: none is the database's first)."""
    services: list[Service] = []
    try:
        for _ in range(count):
            services.append(_launch(db, scratch))
        await asyncio.gather(*(_answers(s) for s in services))
        yield services
    finally:
        stop(services)


# --- HTTP/1.1 over asyncio streams ----------------------------------------------------------


class Http:
    """One keep-alive connection; every answer tablelog gives but a feed has a length."""

    def __init__(self, port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.port = port
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Http:
        reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 20)
        return cls(port, reader, writer)

    async def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, bytes]:
        head = [f"{method} {path} HTTP/1.1", f"host: {HOST}:{self.port}"]
        if token:
            head.append(f"authorization: Bearer {token}")
        data = b""
        if body is not None:
            data = msgspec.json.encode(body)
            head += ["content-type: application/json", f"content-length: {len(data)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


async def _json(http: Http, method: str, path: str, body: Any, token: str) -> dict[str, Any]:
    status, raw = await http.call(method, path, body, token)
    if status != 201:
        raise RuntimeError(f"{method} {path} -> {status}: {raw[:300]!r}")
    answer: dict[str, Any] = msgspec.json.decode(raw)
    return answer


@dataclass
class Campaign:
    name: str
    gm: str
    watchers: tuple[str, str, str]  # the GM's and two players' tokens
    head: int


async def make_campaigns(
    count: int, services: Sequence[Service], admin: str, parallel: int
) -> list[Campaign]:
    """`count` Improv campaigns made through the services (in turn), each with its session
    started: a table where the GM may open conflicts."""
    made: list[Campaign | None] = [None] * count
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(count):
        queue.put_nowait(n)

    async def worker(w: int) -> None:
        http = await Http.open(services[w % len(services)].port)
        try:
            while not queue.empty():
                n = queue.get_nowait()
                name = f"s{n:05d}"
                created = await _json(
                    http, "POST", "/campaigns", {"name": name, "ruleset": "improv"}, admin
                )
                gm = created["token"]
                players = []
                for player in ("ann", "bob"):
                    path = f"/campaigns/{name}/players/{player}/tokens"
                    players.append((await _json(http, "POST", path, {}, gm))["token"])
                body = {"player": "ann", "character": "Kit"}
                await _json(http, "POST", f"/campaigns/{name}/improv/characters", body, players[0])
                head = (await _json(http, "POST", f"/campaigns/{name}/sessions", {}, gm))["seq"]
                made[n] = Campaign(name, gm, (gm, players[0], players[1]), head)
        finally:
            http.close()

    await asyncio.gather(*(worker(w) for w in range(parallel)))
    return [c for c in made if c is not None]


# --- PostgreSQL's own figures ---------------------------------------------------------------


@dataclass(frozen=True)
class DbStats:
    commits: int
    rollbacks: int
    written: int  # tuples inserted, updated and deleted
    wal: int  # the server's WAL position (every database's writes)
    xids: int  # the server's next transaction id (every database's writing transactions)
    at: float

    def minus(self, other: DbStats) -> DbStats:
        return DbStats(
            self.commits - other.commits,
            self.rollbacks - other.rollbacks,
            self.written - other.written,
            self.wal - other.wal,
            self.xids - other.xids,
            self.at - other.at,
        )


class Postgres:
    """Statistics of the bench's database, read through a connection to another one."""

    def __init__(self, dsn: str, database: str) -> None:
        self.dsn, self.database = dsn, database
        self.conn = psycopg.connect(dsn, autocommit=True)

    def stats(self) -> DbStats:
        row = self.conn.execute(
            "SELECT xact_commit, xact_rollback, tup_inserted + tup_updated + tup_deleted,"
            " pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint,"
            " pg_snapshot_xmax(pg_current_snapshot())::text::bigint"
            " FROM pg_stat_database WHERE datname = %s",
            (self.database,),
        ).fetchone()
        assert row is not None
        commits, rollbacks, written, wal, xids = (int(value) for value in row)
        return DbStats(commits, rollbacks, written, wal, xids, time.perf_counter())

    def backends(self) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.database,)
        ).fetchone()
        return int(row[0]) if row else 0

    def listeners(self) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
            " AND application_name = 'tablelog-listen'",
            (self.database,),
        ).fetchone()
        return int(row[0]) if row else 0

    def settled(self, timeout: float = 15.0) -> DbStats:
        """The statistics once no backend of the database is left (each added its counts as
        it exited): after the services stopped."""
        deadline = time.monotonic() + timeout
        while self.backends() and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.stats()

    def max_connections(self) -> int:
        row = self.conn.execute("SHOW max_connections").fetchone()
        return int(row[0]) if row else 0

    def describe(self) -> str:
        version = self.conn.execute("SHOW server_version").fetchone()
        settings = [
            f"{name}={self.conn.execute(f'SHOW {name}').fetchone()[0]}"  # type: ignore[index]
            for name in ("synchronous_commit", "fsync", "max_connections", "shared_buffers")
        ]
        return f"PostgreSQL {version[0] if version else '?'} ({', '.join(settings)})"

    def close(self) -> None:
        self.conn.close()


class Activity:
    """The most client connections the bench's database had at once (pg_stat_activity,
    sampled in a thread every `every` seconds)."""

    def __init__(self, dsn: str, database: str, every: float) -> None:
        self.dsn, self.database, self.every = dsn, database, every
        self.most = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Activity:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self._stop.is_set():
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = %s AND backend_type = 'client backend'",
                    (self.database,),
                ).fetchone()
                self.most = max(self.most, int(row[0]) if row else 0)
                self._stop.wait(self.every)


def statements_loaded(pg: Postgres) -> bool:
    """Whether pg_stat_statements could be read (only if the server preloads it)."""
    loaded = pg.conn.execute("SHOW shared_preload_libraries").fetchone()
    return bool(loaded and "pg_stat_statements" in str(loaded[0]))


# --- throughput -----------------------------------------------------------------------------


@dataclass
class Phase:
    services: int
    clients: int
    count: int = 0
    errors: int = 0
    first_error: str = ""
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    service_cpu: float = 0.0
    backend_cpu: float = 0.0
    client_cpu: float = 0.0
    db: DbStats | None = None
    connections: int = 0
    sent: int = 0  # every command answered 201, warm-up and in-flight tails included

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else math.nan

    def ms_per(self, seconds: float) -> float:
        return 1000 * seconds / self.count if self.count else math.nan


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p * len(ordered)) - 1))]


class Sample:
    """CPU of the services, the database's backends and this process, and pg_stat_database."""

    def __init__(self, pg: Postgres, services: Sequence[Service]) -> None:
        self.services = sum(cpu_seconds(s.pid) for s in services)
        self.backends = backend_cpu(pg.database)
        self.client = time.process_time()
        self.db = pg.stats()


async def throughput(
    pg: Postgres,
    services: Sequence[Service],
    campaigns: Sequence[Campaign],
    clients: int,
    args: argparse.Namespace,
    label: str,
) -> Phase:
    phase = Phase(len(services), clients)
    conns = [[await Http.open(s.port) for s in services] for _ in range(clients)]
    now = time.perf_counter()
    begin, end = now + args.warmup, now + args.warmup + args.seconds
    samples: dict[str, Sample] = {}

    async def sampler() -> None:
        await asyncio.sleep(max(0.0, begin - time.perf_counter()))
        samples["begin"] = Sample(pg, services)
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        samples["end"] = Sample(pg, services)

    async def client(number: int) -> None:
        rng = random.Random(f"{label}-{number}")
        mine = conns[number]
        i = 0
        while (started := time.perf_counter()) < end:
            campaign = rng.choice(campaigns)
            http = mine[(number + i) % len(mine)]
            path = f"/campaigns/{campaign.name}/improv/conflicts"
            body = {"conflict": f"{label}c{number}n{i}"}
            status, raw = await http.call("POST", path, body, campaign.gm)
            done = time.perf_counter()
            i += 1
            if status == 201:
                phase.sent += 1
                if started >= begin and done <= end:
                    phase.latencies.append(done - started)
            elif started >= begin:
                phase.errors += 1
                phase.first_error = phase.first_error or f"{status}: {raw[:200]!r}"

    with Activity(pg.dsn, pg.database, 0.25) as activity:
        await asyncio.gather(sampler(), *(client(n) for n in range(clients)))
    for mine in conns:
        for http in mine:
            http.close()
    first, last = samples["begin"], samples["end"]
    phase.count = len(phase.latencies)
    phase.seconds = last.db.at - first.db.at
    phase.service_cpu = last.services - first.services
    phase.backend_cpu = backend_delta(first.backends, last.backends)
    phase.client_cpu = last.client - first.client
    phase.db = last.db.minus(first.db)
    phase.connections = activity.most
    return phase


@dataclass
class Group:
    """Every transaction of one count of services, counted once its processes stopped."""

    services: int
    commands: int
    db: DbStats


# --- watching -------------------------------------------------------------------------------


class Arrivals:
    """When each (campaign, seq) reached each feed."""

    def __init__(self) -> None:
        self.times: dict[tuple[str, int], list[float]] = defaultdict(list)
        self.counting = True  # events received outside the appends (idle: none expected)
        self.stray = 0


class Watcher:
    """One live feed, read with streams: the `id:` and `event:` lines of each message (the
    chunked framing's size lines match neither)."""

    def __init__(self, campaign: Campaign, token: str, port: int, arrivals: Arrivals) -> None:
        self.campaign, self.token, self.port, self.arrivals = campaign, token, port, arrivals
        self.seqs: list[int] = []
        self.alive = 0
        self.ended = False
        self.status = 0
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> int:
        reader, writer = await asyncio.open_connection(HOST, self.port, limit=1 << 20)
        self._writer = writer
        writer.write(
            (
                f"GET /campaigns/{self.campaign.name}/events HTTP/1.1\r\n"
                f"host: {HOST}:{self.port}\r\nauthorization: Bearer {self.token}\r\n"
                f"last-event-id: {self.campaign.head}\r\naccept: text/event-stream\r\n\r\n"
            ).encode()
        )
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        self.status = int(head.split(" ", 2)[1])
        if self.status == 200:
            self._task = asyncio.create_task(self._read(reader))
        else:
            writer.close()
        return self.status

    async def _read(self, reader: asyncio.StreamReader) -> None:
        kind, seq = "message", None
        try:
            while line := await reader.readline():
                text = line.strip()
                if text.startswith(b"id:"):
                    seq = int(text[3:])
                elif text.startswith(b"event:"):
                    kind = text[6:].strip().decode()
                elif text.startswith(b"data:"):
                    if kind == "event" and seq is not None:
                        self.seqs.append(seq)
                        key = (self.campaign.name, seq)
                        self.arrivals.times[key].append(time.perf_counter())
                        if not self.arrivals.counting:
                            self.arrivals.stray += 1
                    elif kind == "alive":
                        self.alive += 1
                    kind, seq = "message", None
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self.ended = True

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._writer is not None:
            self._writer.close()


async def watch(
    campaigns: Sequence[Campaign], services: Sequence[Service], arrivals: Arrivals, parallel: int
) -> list[Watcher]:
    """Three feeds per campaign (its GM and two players), alternating between the services, so
    each campaign is watched on more than one; opened `parallel` at a time."""
    watchers = [
        Watcher(c, token, services[(n * 3 + k) % len(services)].port, arrivals)
        for n, c in enumerate(campaigns)
        for k, token in enumerate(c.watchers)
    ]
    gate = asyncio.Semaphore(parallel)

    async def one(watcher: Watcher) -> int:
        async with gate:
            return await watcher.open()

    statuses = Counter(await asyncio.gather(*(one(w) for w in watchers)))
    if set(statuses) != {200}:
        raise RuntimeError(f"feeds refused: {dict(statuses)}")
    return watchers


@dataclass
class Idle:
    campaigns: int
    feeds: int
    seconds: float
    db: DbStats
    service_cpu: float
    rss: list[float]
    files: list[int]
    stray: int
    alive: int
    listeners: int


async def idle(
    pg: Postgres,
    services: Sequence[Service],
    watchers: Sequence[Watcher],
    campaigns: int,
    arrivals: Arrivals,
    args: argparse.Namespace,
) -> Idle:
    await asyncio.sleep(args.settle)
    stray, alive = arrivals.stray, sum(w.alive for w in watchers)
    cpu = sum(cpu_seconds(s.pid) for s in services)
    first = pg.stats()
    await asyncio.sleep(args.idle)
    last = pg.stats()
    return Idle(
        campaigns=campaigns,
        feeds=len(watchers),
        seconds=last.at - first.at,
        db=last.minus(first),
        service_cpu=sum(cpu_seconds(s.pid) for s in services) - cpu,
        rss=[rss_mb(s.pid) for s in services],
        files=[open_files(s.pid) for s in services],
        stray=arrivals.stray - stray,
        alive=sum(w.alive for w in watchers) - alive,
        listeners=pg.listeners(),
    )


@dataclass
class Appends:
    feeds: int
    sent: int = 0
    errors: int = 0
    first_error: str = ""
    from_sent: list[float] = field(default_factory=list)
    from_ack: list[float] = field(default_factory=list)
    command: list[float] = field(default_factory=list)
    missing: int = 0
    repeated: int = 0
    service_cpu: float = 0.0
    backend_cpu: float = 0.0
    db: DbStats | None = None
    seconds: float = 0.0


async def appends(
    pg: Postgres,
    services: Sequence[Service],
    campaigns: Sequence[Campaign],
    watchers: Sequence[Watcher],
    arrivals: Arrivals,
    args: argparse.Namespace,
    label: str,
) -> Appends:
    """`--rate` appends a second to random campaigns of `campaigns`, each sent on time
    whatever the earlier ones' answers (a pool of connections per service), through the
    services in turn; then until each of `watchers` that watches its campaign has it, or
    DELIVERY_TIMEOUT_S. Each campaign's head moves with its appends."""
    by_name = {c.name: c for c in campaigns}
    feeds_of: Counter[str] = Counter(w.campaign.name for w in watchers)
    rng = random.Random(f"appends-{label}")
    pools: list[asyncio.Queue[Http]] = []
    for service in services:
        pool: asyncio.Queue[Http] = asyncio.Queue()
        for _ in range(8):
            pool.put_nowait(await Http.open(service.port))
        pools.append(pool)
    sent: dict[tuple[str, int], tuple[float, float]] = {}
    result = Appends(len(watchers))

    async def send(n: int, campaign: Campaign) -> None:
        pool = pools[n % len(pools)]
        http = await pool.get()
        try:
            started = time.perf_counter()
            path = f"/campaigns/{campaign.name}/improv/conflicts"
            status, raw = await http.call("POST", path, {"conflict": f"{label}{n}"}, campaign.gm)
            acked = time.perf_counter()
        finally:
            pool.put_nowait(http)
        if status != 201:
            result.errors += 1
            result.first_error = result.first_error or f"{status}: {raw[:200]!r}"
            return
        seq = int(msgspec.json.decode(raw)["seq"])
        campaign.head = max(campaign.head, seq)
        sent[(campaign.name, seq)] = (started, acked)
        result.command.append(acked - started)

    arrivals.counting = True
    first = Sample(pg, services)
    total = max(1, round(args.rate * args.appends_seconds))
    begin = time.perf_counter()
    tasks = []
    for n in range(total):
        await asyncio.sleep(max(0.0, begin + n / args.rate - time.perf_counter()))
        tasks.append(asyncio.create_task(send(n, by_name[rng.choice(sorted(by_name))])))
    await asyncio.gather(*tasks)
    deadline = time.perf_counter() + DELIVERY_TIMEOUT_S
    while time.perf_counter() < deadline:  # bounded: every delivery, or the deadline
        if all(len(arrivals.times.get(key, ())) >= feeds_of[key[0]] for key in sent):
            break
        await asyncio.sleep(0.05)
    last = Sample(pg, services)
    arrivals.counting = False
    result.service_cpu = last.services - first.services
    result.backend_cpu = backend_delta(first.backends, last.backends)
    result.db, result.seconds = last.db.minus(first.db), last.db.at - first.db.at
    result.sent = len(sent)
    for key, (started, acked) in sent.items():
        came = arrivals.times.get(key, [])
        result.from_sent += [t - started for t in came]
        result.from_ack += [max(0.0, t - acked) for t in came]
        result.missing += max(0, feeds_of[key[0]] - len(came))
    for w in watchers:
        result.repeated += len(w.seqs) - len(set(w.seqs))
    for pool in pools:
        while not pool.empty():
            pool.get_nowait().close()
    return result


# --- report ---------------------------------------------------------------------------------


def ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{1000 * value:.1f}"


def x(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"


def report_throughput(phases: Sequence[Phase], groups: Sequence[Group]) -> None:
    print("\n## Throughput\n")
    print(
        "| services | clients | commands | commands/s | p50 ms | p99 ms | rate / 1 service"
        " | p50 / 1 service | p99 / 1 service | service CPU ms/command"
        " | PostgreSQL backends' CPU ms/command | clients' CPU ms/command | xact_commit/s"
        " | transaction ids/s | transaction ids/command | rollbacks/command"
        " | most connections | errors |"
    )
    print("|" + "---|" * 18)
    alone = {p.clients: p for p in phases if p.services == 1}
    for p in phases:
        one = alone.get(p.clients)
        db = p.db
        assert db is not None

        def over(mine: float, base: float) -> str:
            return x(mine / base) if base else "-"

        p50, p99 = percentile(p.latencies, 0.5), percentile(p.latencies, 0.99)
        print(
            f"| {p.services} | {p.clients} | {p.count} | {p.rate:.0f} | {ms(p50)} | {ms(p99)} | "
            + (
                f"{over(p.rate, one.rate)} | {over(p50, percentile(one.latencies, 0.5))} | "
                f"{over(p99, percentile(one.latencies, 0.99))} | "
                if one is not None
                else "- | - | - | "
            )
            + f"{p.ms_per(p.service_cpu):.2f} | {p.ms_per(p.backend_cpu):.2f} | "
            f"{p.ms_per(p.client_cpu):.2f} | {db.commits / p.seconds:.0f} | "
            f"{db.xids / p.seconds:.0f} | {db.xids / max(1, p.count):.2f} | "
            f"{db.rollbacks / max(1, p.count):.2f} | {p.connections} | {p.errors} |"
        )
    print(
        "\n`xact_commit/s` lags and takes in the listening connections' transactions in"
        " bursts (see the table below); transaction ids count the writes at once."
    )
    for p in phases:
        if p.first_error:
            print(f"\nfirst error ({p.services} services, {p.clients} clients): {p.first_error}")
    print(
        "\nExact, per count of services once its processes stopped (every transaction of its"
        " phases, warm-ups and pauses included, over every command answered). The commits"
        " include each listening connection's: PostgreSQL reads the notifications it"
        " delivers to an idle listener in a transaction of its own, counted when that"
        " backend exits. Transaction ids and WAL are the whole server's (other databases'"
        " writes too):\n"
    )
    print(
        "| services | commands answered | commits/command | rollbacks/command"
        " | tuples written/command | transaction ids/command | WAL bytes/command |"
    )
    print("|---|---|---|---|---|---|---|")
    for g in groups:
        n = max(1, g.commands)
        print(
            f"| {g.services} | {g.commands} | {g.db.commits / n:.2f} | {g.db.rollbacks / n:.2f}"
            f" | {g.db.written / n:.1f} | {g.db.xids / n:.2f} | {g.db.wal / n:.0f} |"
        )


def progress(r: Idle) -> str:
    per_s = (r.db.commits + r.db.rollbacks) / r.seconds
    return f"{r.feeds} feeds, {per_s:.2f} transactions/s, {r.stray} events received"


def report_idle(rows: Sequence[Idle], statements: bool) -> None:
    print("\n## Idle watching (2 services)\n")
    print(
        "| watched campaigns | open feeds | window s | transactions/s (commits + rollbacks)"
        " | commits/s | rollbacks/s | tuples written/s | services' CPU ms/s"
        " | RSS MB per service | open files per service | events received"
        " | heartbeats received | listening connections |"
    )
    print("|" + "---|" * 13)
    for r in rows:
        s = r.seconds
        print(
            f"| {r.campaigns} | {r.feeds} | {s:.1f} | {(r.db.commits + r.db.rollbacks) / s:.2f}"
            f" | {r.db.commits / s:.2f} | {r.db.rollbacks / s:.2f} | {r.db.written / s:.1f} |"
            f" {1000 * r.service_cpu / s:.1f} | {', '.join(f'{v:.0f}' for v in r.rss)} |"
            f" {', '.join(map(str, r.files))} | {r.stray} | {r.alive} | {r.listeners} |"
        )
    if not statements:
        print("\n(pg_stat_statements is not loaded on this server: no per-statement counts)")


def report_appends(rows: Sequence[Appends], rate: float) -> None:
    print("\n## Under appends (2 services)\n")
    print(
        "| open feeds | appends | per second | deliveries | from the command sent"
        " p50 / p99 / max ms | from its answer p50 / p99 / max ms | command p50 / p99 ms"
        " | missing | repeated | services' CPU ms/append | PostgreSQL backends' CPU ms/append"
        " | transaction ids/append | rollbacks/append | errors |"
    )
    print("|" + "---|" * 14)
    for a in rows:
        n = max(1, a.sent)
        db = a.db
        assert db is not None
        print(
            f"| {a.feeds} | {a.sent} | {rate:g} | {len(a.from_sent)} | "
            f"{ms(percentile(a.from_sent, 0.5))} / {ms(percentile(a.from_sent, 0.99))} / "
            f"{ms(max(a.from_sent, default=math.nan))} | {ms(percentile(a.from_ack, 0.5))} / "
            f"{ms(percentile(a.from_ack, 0.99))} / {ms(max(a.from_ack, default=math.nan))} | "
            f"{ms(percentile(a.command, 0.5))} / {ms(percentile(a.command, 0.99))} | "
            f"{a.missing} | {a.repeated} | {1000 * a.service_cpu / n:.2f} | "
            f"{1000 * a.backend_cpu / n:.2f} | {db.xids / n:.2f} | {db.rollbacks / n:.2f} | "
            f"{a.errors} |"
        )
        if a.first_error:
            print(f"\nfirst error ({a.feeds} feeds): {a.first_error}")


# --- main -----------------------------------------------------------------------------------


def urls(base: str, database: str) -> tuple[str, str]:
    """The libpq string of `base` (statistics, CREATE DATABASE) and the services' URL."""
    url = make_url(base)
    libpq = url.set(drivername="postgresql").render_as_string(hide_password=False)
    served = url.set(drivername="postgresql+psycopg", database=database, query={})
    return libpq, served.render_as_string(hide_password=False)


@contextlib.contextmanager
def database(libpq: str, name: str, keep: bool) -> Iterator[None]:
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
        raise SystemExit(f"--database {name!r}: lowercase letters, digits and _ only")
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield
    finally:
        if not keep:
            with psycopg.connect(libpq, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fit_open_files(args: argparse.Namespace) -> str:
    """Raise the limit; lower --watched if even the hard limit cannot hold its feeds (this
    process holds them all, each service half, plus their connections and files)."""
    raise_open_files()
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = (soft - 256) // 3
    note = f"RLIMIT_NOFILE raised to {soft} (hard)"
    if args.watched > room:
        note += f"; --watched lowered from {args.watched} to {room} to fit it"
        args.watched = room
        args.watched_small = min(args.watched_small, room)
    return note


def parse_counts(text: str) -> list[int]:
    counts = [int(part) for part in text.split(",") if part.strip()]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"counts of at least 1, comma-separated: {text!r}")
    return counts


async def run(args: argparse.Namespace, scratch: Path) -> int:
    libpq, served = urls(args.url, args.database)
    note = fit_open_files(args)
    pg = Postgres(libpq, args.database)
    started = time.monotonic()
    print(
        f"{os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}; "
        f"{pg.describe()}; {note}; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(f"files in {scratch}", flush=True)
    # Each service's pool and its listening connection, with room for this bench's own
    # connections and the superuser's reserve, within the server's max_connections.
    room = (pg.max_connections() - SPARE_CONNECTIONS) // max(args.services) - 1
    pool = max(2, min(POOL_MOST, room))
    FITTED[:] = ["--db-connections", str(pool)]
    print(
        f"each service: --db-connections {pool} (and one listening), {max(args.services)} "
        f"services within max_connections={pg.max_connections()}",
        flush=True,
    )
    upgrade = [sys.executable, "-m", "tablelog", "--db", served, "db", "upgrade"]
    subprocess.run(upgrade, cwd=scratch, check=True, capture_output=True)
    phase_sets = len(args.services) * len(args.clients)
    needed = max(args.watched if not args.skip_watching else 0, phase_sets * args.campaigns)

    # The first service alone (it prints the admin token), then a second: they make every
    # campaign.
    first = _launch(served, scratch)
    try:
        await _answers(first)
        print(f"a service's open-file limit: {file_limit(first.pid)}", flush=True)
        found = _ADMIN_LINE.search(first.log.read_text())
        if found is None:
            raise RuntimeError(f"no admin token printed: {first.log.read_text()[-1000:]}")
        async with running(1, served, scratch) as second:
            made = time.perf_counter()
            campaigns = await make_campaigns(
                needed, [first, *second], found.group(1), args.parallel
            )
            print(
                f"{len(campaigns)} campaigns made through 2 services in "
                f"{time.perf_counter() - made:.1f} s",
                flush=True,
            )
    finally:
        stop([first])

    phases: list[Phase] = []
    groups: list[Group] = []
    sets = iter(range(phase_sets))
    for count in args.services:
        before = pg.settled()
        async with running(count, served, scratch) as services:
            mine = []
            for clients in args.clients:
                n = next(sets)
                chosen = campaigns[n * args.campaigns : (n + 1) * args.campaigns]
                phase = await throughput(pg, services, chosen, clients, args, f"t{n}")
                phases.append(phase)
                mine.append(phase)
                print(
                    f"{count} service(s), {clients} clients: {phase.rate:.0f} commands/s, p99 "
                    f"{ms(percentile(phase.latencies, 0.99))} ms, {phase.errors} errors",
                    flush=True,
                )
        groups.append(Group(count, sum(p.sent for p in mine), pg.settled().minus(before)))

    idles: list[Idle] = []
    under: list[Appends] = []
    if not args.skip_watching:
        arrivals = Arrivals()
        arrivals.counting = False
        watchers: list[Watcher] = []
        async with running(2, served, scratch) as services:
            try:
                idles.append(await idle(pg, services, watchers, 0, arrivals, args))
                print(f"idle, no feed: {progress(idles[-1])}", flush=True)
                watched = campaigns[: args.watched]
                under.append(await appends(pg, services, watched, [], arrivals, args, "u"))
                done = 0
                for size in (args.watched_small, args.watched):
                    more = campaigns[done:size]
                    watchers += await watch(more, services, arrivals, args.parallel)
                    done = size
                    idles.append(await idle(pg, services, watchers, size, arrivals, args))
                    print(f"idle, {size} campaigns watched: {progress(idles[-1])}", flush=True)
                under.append(await appends(pg, services, watched, watchers, arrivals, args, "w"))
                print(f"appends, {len(watchers)} feeds: {under[-1].missing} missing", flush=True)
            finally:
                for w in watchers:
                    w.close()

    statements = statements_loaded(pg)
    pg.close()
    print(f"\n(the run took {time.monotonic() - started:.0f} s; load average at the end "
          f"{os.getloadavg()[0]:.2f})")  # fmt: skip
    report_throughput(phases, groups)
    if idles:
        report_idle(idles, statements)
    if under:
        report_appends(under, args.rate)
    failed = any(p.errors for p in phases) or any(
        a.errors or a.missing or a.repeated for a in under
    )
    return 1 if failed or any(i.stray for i in idles) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--url", default=DEFAULT_URL, help="any database of the server")
    parser.add_argument("--database", default="bench_scale", help="created, then dropped")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--services", type=parse_counts, default=[1, 2, 4])
    parser.add_argument("--clients", type=parse_counts, default=[16, 32, 64])
    parser.add_argument("--campaigns", type=int, default=64, help="per throughput phase")
    parser.add_argument("--seconds", type=float, default=6.0, help="per throughput phase")
    parser.add_argument("--warmup", type=float, default=1.5, help="seconds before each phase")
    parser.add_argument("--watched", type=int, default=1000, help="campaigns watched (3 feeds)")
    parser.add_argument("--watched-small", type=int, default=100)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of each idle window")
    parser.add_argument("--settle", type=float, default=11.0, help="seconds before a window")
    parser.add_argument("--rate", type=float, default=20.0, help="appends per second")
    parser.add_argument("--appends-seconds", type=float, default=15.0)
    parser.add_argument("--parallel", type=int, default=16, help="setup requests at once")
    parser.add_argument("--skip-watching", action="store_true", help="throughput only")
    parser.add_argument("--dir", default=None, help="keep the services' logs here")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, a few seconds each")
    args = parser.parse_args(argv)
    if args.smoke:
        args.services, args.clients = [1, 2], [2, 4]
        args.campaigns, args.seconds, args.warmup = 4, 1.0, 0.3
        args.watched, args.watched_small, args.idle, args.settle = 8, 3, 1.0, 0.5
        args.rate, args.appends_seconds = 10.0, 1.0
    if min(args.campaigns, args.watched, args.watched_small, args.parallel) < 1:
        parser.error("--campaigns, --watched, --watched-small and --parallel must be >= 1")
    if args.watched_small > args.watched:
        parser.error("--watched-small must not exceed --watched")
    if args.dir is not None:
        Path(args.dir).mkdir(parents=True, exist_ok=True)
        return asyncio.run(_in_database(args, Path(args.dir)))
    with tempfile.TemporaryDirectory(prefix="tablelog-scale-bench-") as scratch:
        return asyncio.run(_in_database(args, Path(scratch)))


async def _in_database(args: argparse.Namespace, scratch: Path) -> int:
    libpq, _ = urls(args.url, args.database)
    with database(libpq, args.database, args.keep):
        return await run(args, scratch)


if __name__ == "__main__":
    sys.exit(main())
