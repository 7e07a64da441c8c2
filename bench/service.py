"""The service under load: `tablelog serve` next to a bare Litestar app on the same stack.

    python bench/service.py                  # 16 clients x 200 commands, 16 clients x 500 reads
    python bench/service.py --smoke          # a tiny run (a few seconds)
    python bench/service.py --commands 400 --reads 1000 --clients 16 --repeat 2

What is measured, on loopback only, in one run:
- commands: `tablelog --db FILE serve` (a subprocess; SQLite in WAL mode, synchronous=FULL)
  answering narration commands, `POST /campaigns/C/improv/conflicts/K/narrations` by the GM
  for a GM stake, from `--clients` concurrent keep-alive clients sending `--commands` each.
  Counted: acknowledged commands (201) per second, and each request's latency (p50, p99).
  Every one authenticates its bearer token, folds, decides, appends one hash-chained event
  with its own durable commit and answers with the event as the caller may see it.
- reads: the same clients doing `GET /campaigns/C/state` (the table as the GM sees it).
- the peer: a bare Litestar app served by uvicorn exactly as `tablelog serve` does (the same
  `uvicorn.run` call, loop and HTTP implementation, its own subprocess: this file with
  `--bare-app`). Its POST takes the same path and the same JSON body, decoded by Litestar
  into a msgspec Struct as tablelog's handler does, and inserts one events-shaped row into
  its own SQLite file (WAL, synchronous=FULL, BEGIN IMMEDIATE ... COMMIT: one durable
  transaction per request) in a worker thread (`sync_to_thread=True`); its writers queue on
  one in-process lock, as tablelog's queue on their campaign's. Its GET returns a small
  JSON, also from a worker thread, as tablelog's state read runs in one.

Why the peer is fair: it pays everything a command or read must pay on this stack whatever
it does (HTTP parsing, routing, body decoding, the hop to a worker thread, one fsync'd SQLite
transaction, response encoding) and nothing else, so `tablelog / bare` is the share of the
stack's ceiling that tablelog reaches; the rest is tablelog's own work (token look-up, the
campaign's state, rules, hash chain, head update, the response's log view).

The clients run in this process and share the machine's CPUs with the servers, so each row
also shows the server's CPU time per request (from /proc/PID/stat: every thread of the server
process), which does not depend on how fast the client is, and the client's. The default
client (`--client raw`) is the one that measures the server rather than itself: hand-written
HTTP/1.1 keep-alive requests over asyncio streams, about 0.05 ms of CPU per request. httpx
costs about 0.5 ms per request either way (`--client async`: asyncio + httpx.AsyncClient;
`--client threads`: a thread and an httpx.Client per client), more than the bare app's
0.2-0.3 ms per read: on two CPUs it held the bare reads to 1,400-2,200/s where the raw
client saw 4,600-5,200/s, and a tablelog/bare ratio measured with it flatters tablelog.
Phases alternate tablelog and bare so both see the same machine; `--repeat` runs all four
again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import itertools
import math
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
from litestar import Litestar, Request, get, post
from litestar.datastructures import State
from litestar.params import FromPath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tablelog from this checkout, as bench/run.py does
HOST = "127.0.0.1"
CAMPAIGN = "bench"
CONFLICT = "live"
GM_SIDE = "riso"  # a GM stake: the GM's token may narrate for it (a player's side is refused)
NARRATIONS = f"/campaigns/{CAMPAIGN}/improv/conflicts/{CONFLICT}/narrations"
STATE = f"/campaigns/{CAMPAIGN}/state"
HEALTH = "/"  # tablelog's health route (`reads.health`); the bare app answers there too
LINES = (
    "Riso sneers and backs toward the kitchen door.",
    "Riso kicks a stool into Kit's path and draws.",
    "Riso fires twice into the ceiling; the crowd scatters.",
    "Riso shouts for the goons to block the exit.",
)


# --- the bare peer: a module of its own, run by `python bench/service.py --bare-app` ---------

BARE_DDL = """
CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY,
    campaign_id VARCHAR(64) NOT NULL,
    seq BIGINT NOT NULL,
    event_id VARCHAR(36) NOT NULL,
    type VARCHAR(100) NOT NULL,
    schema_version INTEGER NOT NULL,
    actor VARCHAR(100) NOT NULL,
    recorded_at BIGINT NOT NULL,
    payload BLOB NOT NULL,
    prev_hash BLOB NOT NULL,
    hash BLOB NOT NULL,
    CONSTRAINT uq_events_campaign_id_seq UNIQUE (campaign_id, seq),
    CONSTRAINT uq_events_event_id UNIQUE (event_id)
)
"""
BARE_INSERT = (
    "INSERT INTO events (campaign_id, seq, event_id, type, schema_version, actor, recorded_at,"
    " payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_BARE_SEQ = itertools.count(1)  # next() on a count is atomic under the GIL
_BARE_LOCAL = threading.local()
# Writers queue on one in-process lock, as tablelog's queue on their campaign's lock, rather
# than on SQLite's busy handler (which sleeps 1 to 100 ms between tries, not in turn).
_BARE_WRITE = threading.Lock()
_ZERO_HASH = bytes(32)


class NarrationBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body tablelog's narration endpoint takes (its generated `NarrateBody`)."""

    side: str
    text: str
    final: bool = False


class Appended(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    seq: int


def _bare_connection(path: str) -> sqlite3.Connection:
    """One connection per worker thread, configured as tablelog configures its own."""
    conn: sqlite3.Connection | None = getattr(_BARE_LOCAL, "conn", None)
    if conn is None:
        conn = sqlite3.connect(path, isolation_level=None, timeout=60.0)
        conn.execute("PRAGMA busy_timeout = 60000")
        conn.execute("PRAGMA synchronous = FULL")
        _BARE_LOCAL.conn = conn
    return conn


@get(HEALTH, sync_to_thread=False)
def bare_health() -> dict[str, str]:
    return {"service": "bare"}


@post(
    "/campaigns/{campaign:str}/improv/conflicts/{conflict:str}/narrations",
    sync_to_thread=True,
    status_code=201,
)
def bare_narrate(
    request: Request[Any, Any, Any],
    campaign: FromPath[str],
    conflict: FromPath[str],
    data: NarrationBody,
) -> Appended:
    """Decode the body (Litestar, msgspec), insert one row, commit durably."""
    payload = msgspec.json.encode(data)
    seq = next(_BARE_SEQ)
    row = (
        campaign,
        seq,
        str(uuid.uuid4()),
        "improv.narrated",
        1,
        "gm",
        time.time_ns() // 1000,
        payload,
        _ZERO_HASH,
        hashlib.sha256(payload).digest(),
    )
    conn = _bare_connection(request.app.state.db)
    with _BARE_WRITE:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(BARE_INSERT, row)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return Appended(campaign=campaign, seq=seq)


@get("/campaigns/{campaign:str}/state", sync_to_thread=True)
def bare_state(campaign: FromPath[str]) -> dict[str, Any]:
    """A small JSON answer from a worker thread."""
    return {"campaign": campaign, "seq": 0, "session_open": True, "conflicts": {}}


def bare_app(db: str) -> Litestar:
    """The peer application over the SQLite file `db` (its table created here)."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(BARE_DDL)
    finally:
        conn.close()
    return Litestar(
        route_handlers=[bare_health, bare_narrate, bare_state],
        state=State({"db": db}),
        debug=False,
    )


def serve_bare(db: str, port: int) -> None:
    """Serve the peer as `tablelog serve` serves tablelog (same uvicorn call and options)."""
    import uvicorn

    uvicorn.run(
        bare_app(db),
        host=HOST,
        port=port,
        log_level="warning",
        proxy_headers=False,
        forwarded_allow_ips="",
    )


# --- servers ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of every thread of process `pid` so far."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime (fields 14, 15)


@dataclass
class Server:
    name: str
    argv: list[str]
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout: float = 30.0) -> None:
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(self.argv, cwd=ROOT, stdout=out, stderr=out)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + HEALTH, timeout=1.0).status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.name} did not answer {HEALTH} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextlib.contextmanager
def running(servers: Sequence[Server]) -> Iterator[None]:
    try:
        for server in servers:
            server.start()
        yield
    finally:
        for server in servers:
            server.stop()


def prepare_campaign(db: Path) -> str:
    """A campaign with a character, a running session and an open conflict with stakes: a
    table in play. Written in-process (the server's cache then starts cold, as after a
    restart). Returns the GM's access token."""
    from tablelog.commands.campaigns import create_campaign
    from tablelog.commands.table import execute
    from tablelog.rulesets.improv.rules import commands as c
    from tablelog.storage import open_store

    store = open_store(str(db), create=True)
    try:
        token = create_campaign(store, CAMPAIGN, ruleset="improv").token
        for command in (
            c.CreateCharacter(player="Bob", character="Kit", talents=["Brawler"]),
            c.CreateCharacter(player="Susan", character="Jason", talents=["Protector"]),
            c.StartSession(),
            c.StartScene(title="Riso's bar"),
            c.OpenConflict(conflict=CONFLICT),
            c.SetStake(conflict=CONFLICT, side="Riso", gm=True, text="Riso gets away"),
            c.SetStake(conflict=CONFLICT, side="Kit", opposes="Riso", text="Kit stops him"),
            c.SetStake(conflict=CONFLICT, side="Jason", opposes="Riso", text="Jason keeps Vinny"),
        ):
            execute(store, CAMPAIGN, command, ruleset="improv")
    finally:
        store.close()
    return token


# --- load ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    body: bytes | None  # pre-encoded: the client spends no time on JSON
    expect: int


CallOf = Callable[[int, int], Call]  # (client, i) -> the request


def narration(client: int, i: int) -> Call:
    text = f"{LINES[(client + i) % len(LINES)]} ({client}.{i})"
    body = msgspec.json.encode({"side": GM_SIDE, "text": text})
    return Call("POST", NARRATIONS, body, 201)


def state_read(_client: int, _i: int) -> Call:
    return Call("GET", STATE, None, 200)


@dataclass
class Measured:
    name: str
    count: int  # answered with the expected status
    errors: int
    seconds: float
    latencies: list[float]  # seconds, successful requests only
    server_cpu: float
    client_cpu: float
    first_error: str = ""

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return math.nan
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, math.ceil(p * len(ordered)) - 1))]

    def per_request_ms(self, cpu: float) -> float:
        return 1000 * cpu / self.count if self.count else math.nan


@dataclass
class _Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    first_error: str = ""

    def record(self, call: Call, status: int, took: float) -> bool:
        """Count one answer; False (and counted as an error) unless it has the expected status."""
        if status == call.expect:
            self.latencies.append(took)
            return True
        self.errors += 1
        return False

    def note(self, call: Call, status: int, text: str) -> None:
        if not self.first_error:
            self.first_error = f"{call.method} {call.path} -> {status}: {text[:300]}"


def _headers(token: str | None) -> dict[str, str]:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return headers


@dataclass(frozen=True)
class _Load:
    tallies: list[_Tally]
    seconds: float
    server_cpu: float
    client_cpu: float


class _Clock:
    """Wall time and the server's and this process's CPU time, from `start` to `stop`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.wall = self.server = self.client = 0.0

    def start(self) -> None:
        self.server, self.client = cpu_seconds(self.pid), time.process_time()
        self.wall = time.perf_counter()

    def stop(self, tallies: list[_Tally]) -> _Load:
        wall = time.perf_counter() - self.wall
        server = cpu_seconds(self.pid) - self.server
        return _Load(tallies, wall, server, time.process_time() - self.client)


async def _async_load(
    clock: _Clock,
    base: str,
    token: str | None,
    call_of: CallOf,
    clients: int,
    each: int,
    warmup: int,
) -> _Load:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with contextlib.AsyncExitStack() as stack:
        sessions = [
            await stack.enter_async_context(
                httpx.AsyncClient(
                    base_url=base, headers=_headers(token), limits=limits, timeout=120.0
                )
            )
            for _ in range(clients)
        ]

        async def one(session: httpx.AsyncClient, call: Call, tally: _Tally) -> None:
            started = time.perf_counter()
            response = await session.request(call.method, call.path, content=call.body)
            took = time.perf_counter() - started
            if not tally.record(call, response.status_code, took):
                tally.note(call, response.status_code, response.text)

        async def client(number: int, session: httpx.AsyncClient, count: int, first: int) -> _Tally:
            tally = _Tally()
            for i in range(first, first + count):
                await one(session, call_of(number, i), tally)
            return tally

        # Warm-up: every connection opened, the server's caches and thread pool filled.
        await asyncio.gather(*(client(n, s, warmup, 0) for n, s in enumerate(sessions)))
        clock.start()
        tallies = await asyncio.gather(
            *(client(n, s, each, warmup) for n, s in enumerate(sessions))
        )
        return clock.stop(list(tallies))


def _raw_request(call: Call, token: str | None) -> bytes:
    head = [f"{call.method} {call.path} HTTP/1.1", f"host: {HOST}"]
    if token:
        head.append(f"authorization: Bearer {token}")
    if call.body is not None:
        head += ["content-type: application/json", f"content-length: {len(call.body)}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + (call.body or b"")


async def _raw_exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    """One HTTP/1.1 keep-alive exchange; the answer must carry a Content-Length."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length = None
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    if length is None:
        raise RuntimeError(f"an answer without Content-Length: {lines[0]}")
    return status, await reader.readexactly(length)


async def _raw_load(
    clock: _Clock,
    port: int,
    token: str | None,
    call_of: CallOf,
    clients: int,
    each: int,
    warmup: int,
) -> _Load:
    """Hand-written HTTP/1.1 over asyncio streams: a client costing a fraction of httpx."""
    streams = [await asyncio.open_connection(HOST, port) for _ in range(clients)]

    async def client(number: int, first: int, count: int) -> _Tally:
        reader, writer = streams[number]
        tally = _Tally()
        for i in range(first, first + count):
            call = call_of(number, i)
            request = _raw_request(call, token)
            started = time.perf_counter()
            status, body = await _raw_exchange(reader, writer, request)
            took = time.perf_counter() - started
            if not tally.record(call, status, took):
                tally.note(call, status, body.decode(errors="replace"))
        return tally

    try:
        await asyncio.gather(*(client(n, 0, warmup) for n in range(clients)))
        clock.start()
        tallies = await asyncio.gather(*(client(n, warmup, each) for n in range(clients)))
        return clock.stop(list(tallies))
    finally:
        for _reader, writer in streams:
            writer.close()


def _thread_load(
    clock: _Clock,
    base: str,
    token: str | None,
    call_of: CallOf,
    clients: int,
    each: int,
    warmup: int,
) -> _Load:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    sessions = [
        httpx.Client(base_url=base, headers=_headers(token), limits=limits, timeout=120.0)
        for _ in range(clients)
    ]
    tallies = [_Tally() for _ in range(clients)]
    ready = threading.Barrier(clients + 1)
    done = threading.Barrier(clients + 1)

    def client(number: int) -> None:
        session, tally = sessions[number], tallies[number]

        def run(first: int, count: int, into: _Tally) -> None:
            for i in range(first, first + count):
                call = call_of(number, i)
                started = time.perf_counter()
                response = session.request(call.method, call.path, content=call.body)
                took = time.perf_counter() - started
                if not into.record(call, response.status_code, took):
                    into.note(call, response.status_code, response.text)

        run(0, warmup, _Tally())
        ready.wait()
        run(warmup, each, tally)
        done.wait()

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    try:
        for thread in threads:
            thread.start()
        ready.wait()
        clock.start()
        done.wait()
        load = clock.stop(tallies)
    finally:
        for thread in threads:
            thread.join(timeout=60)
        for session in sessions:
            session.close()
    return load


def measure(
    name: str,
    server: Server,
    token: str | None,
    call_of: CallOf,
    *,
    clients: int,
    each: int,
    kind: str,
    warmup: int = 3,
) -> Measured:
    """`clients` concurrent keep-alive clients, `each` requests apiece (after `warmup`)."""
    clock = _Clock(server.pid)
    if kind == "async":
        load = asyncio.run(_async_load(clock, server.base, token, call_of, clients, each, warmup))
    elif kind == "raw":
        load = asyncio.run(_raw_load(clock, server.port, token, call_of, clients, each, warmup))
    else:
        load = _thread_load(clock, server.base, token, call_of, clients, each, warmup)
    latencies = [x for t in load.tallies for x in t.latencies]
    return Measured(
        name=name,
        count=len(latencies),
        errors=sum(t.errors for t in load.tallies),
        seconds=load.seconds,
        latencies=latencies,
        server_cpu=load.server_cpu,
        client_cpu=load.client_cpu,
        first_error=next((t.first_error for t in load.tallies if t.first_error), ""),
    )


# --- report -------------------------------------------------------------------------------

HEADER = (
    f"{'name':<34} {'count':>6} {'seconds':>8} {'rate/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
    f"{'srv ms/req':>10} {'cli ms/req':>10}"
)


def row(m: Measured) -> str:
    return (
        f"{m.name:<34} {m.count:>6} {m.seconds:>8.2f} {m.rate:>8.1f} "
        f"{1000 * m.percentile(0.50):>7.1f} {1000 * m.percentile(0.99):>7.1f} "
        f"{m.per_request_ms(m.server_cpu):>10.2f} {m.per_request_ms(m.client_cpu):>10.2f}"
        + (f"  ({m.errors} errors)" if m.errors else "")
    )


def ratio(a: float, b: float) -> float:
    return a / b if b else math.nan


@dataclass(frozen=True)
class Round:
    commands: Measured
    bare_commands: Measured
    reads: Measured
    bare_reads: Measured

    def ratios(self) -> dict[str, float]:
        return {
            "commands rate": ratio(self.commands.rate, self.bare_commands.rate),
            "reads rate": ratio(self.reads.rate, self.bare_reads.rate),
            "commands server CPU": ratio(
                self.bare_commands.per_request_ms(self.bare_commands.server_cpu),
                self.commands.per_request_ms(self.commands.server_cpu),
            ),
            "reads server CPU": ratio(
                self.bare_reads.per_request_ms(self.bare_reads.server_cpu),
                self.reads.per_request_ms(self.reads.server_cpu),
            ),
        }


def report(number: int, result: Round) -> None:
    print(f"\nround {number}")
    print(HEADER)
    for m in (result.commands, result.bare_commands, result.reads, result.bare_reads):
        print(row(m))
        if m.first_error:
            print(f"    first error: {m.first_error}")
    parts = [f"{k} {v:.3f}" for k, v in result.ratios().items()]
    print("tablelog/bare: " + ", ".join(parts) + "  (CPU: bare ms/req over tablelog ms/req)")


def summary(rounds: Sequence[Round]) -> None:
    if len(rounds) < 2:
        return
    print("\nover the rounds (min .. max):")
    for key in rounds[0].ratios():
        values = [r.ratios()[key] for r in rounds]
        print(f"  tablelog/bare {key:<22} {min(values):.3f} .. {max(values):.3f}")
    for label in ("commands", "bare_commands", "reads", "bare_reads"):
        rates = [getattr(r, label).rate for r in rounds]
        print(f"  {label + ' rate/s':<36} {min(rates):9.1f} .. {max(rates):9.1f}")


# --- main ---------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """Every round against one pair of servers; the files are kept only with --dir."""
    if args.dir is not None:
        Path(args.dir).mkdir(parents=True, exist_ok=True)
        return run_in(args, Path(args.dir))
    with tempfile.TemporaryDirectory(prefix="tablelog-service-bench-") as scratch:
        return run_in(args, Path(scratch))


def run_in(args: argparse.Namespace, scratch: Path) -> int:
    tablelog_db, bare_db = scratch / "tablelog.db", scratch / "bare.db"
    for stale in (tablelog_db, bare_db):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{stale}{suffix}").unlink(missing_ok=True)
    python, here = sys.executable, str(Path(__file__).resolve())
    port = free_port()
    argv = [python, "-m", "tablelog", "--db", str(tablelog_db), "serve", "--host", HOST]
    argv += ["--port", str(port)]
    tablelog = Server("tablelog serve", argv, port, scratch / "tablelog-serve.log")
    port = free_port()
    argv = [python, here, "--bare-app", "--db", str(bare_db), "--port", str(port)]
    bare = Server("bare app", argv, port, scratch / "bare-app.log")
    print(
        f"{args.clients} clients ({args.client}), {args.commands} commands and {args.reads} "
        f"reads each, {args.repeat} round(s); {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.2f}; files in {scratch}",
        flush=True,
    )
    rounds: list[Round] = []
    with running([tablelog, bare]):
        token = prepare_campaign(tablelog_db)
        print(f"tablelog pid {tablelog.pid}, bare pid {bare.pid}", flush=True)
        load: dict[str, Any] = {"clients": args.clients, "kind": args.client}
        for number in range(1, args.repeat + 1):
            commands = measure(
                "tablelog commands (POST narration)",
                tablelog,
                token,
                narration,
                each=args.commands,
                **load,
            )
            bare_commands = measure(
                "bare commands (POST, 1 insert)", bare, None, narration, each=args.commands, **load
            )
            reads = measure(
                "tablelog reads (GET state)", tablelog, token, state_read, each=args.reads, **load
            )
            bare_reads = measure(
                "bare reads (GET small JSON)", bare, None, state_read, each=args.reads, **load
            )
            result = Round(commands, bare_commands, reads, bare_reads)
            report(number, result)
            rounds.append(result)
    summary(rounds)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    failed = any(
        m.errors for r in rounds for m in (r.commands, r.bare_commands, r.reads, r.bare_reads)
    )
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=200, help="commands per client (N)")
    parser.add_argument("--reads", type=int, default=500, help="reads per client (M)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--client", choices=("raw", "async", "threads"), default="raw")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of all four phases")
    parser.add_argument("--dir", default=None, help="keep the databases and logs here")
    parser.add_argument("--smoke", action="store_true", help="a tiny run")
    parser.add_argument("--bare-app", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bare_app:
        if not args.db or not args.port:
            parser.error("--bare-app needs --db and --port")
        serve_bare(args.db, args.port)
        return 0
    if args.smoke:
        args.commands, args.reads, args.repeat = min(args.commands, 10), min(args.reads, 20), 1
    if min(args.commands, args.reads, args.clients, args.repeat) < 1:
        parser.error("--commands, --reads, --clients and --repeat must be at least 1")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
