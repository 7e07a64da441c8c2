"""The web page's server time on a large campaign, and the live feed's fan-out.

    python bench/page.py                     # 100,000 events, 200 SSE clients, 50 appends
    python bench/page.py --smoke             # a tiny run (a few seconds)
    python bench/page.py --db big.db         # reuse a campaign written earlier (generate.py)

What is measured, on loopback, against a real `tablelog serve` (SQLite, WAL):
- the page: `GET /campaigns/C/play` for a signed-in browser (its session cookie, traded
  from a sign-in link as the page does), for the GM and for a player, and the table fragment
  the page fetches on each live update (`GET .../play/table`). Twice: with the campaign
  unchanged between requests (the page model is kept until the campaign moves), and right
  after an append each time (the page built from the state anew). The time is the client's,
  request sent to answer read (httpx, keep-alive): it bounds the server's from above.
- the fan-out: `--clients` SSE connections to `GET /campaigns/C/events` (raw asyncio
  clients, one token per viewer: the GM, the three players and observers), then `--appends`
  commands, one at a time; for each, the delay from the moment the command was sent to the
  moment each client read the new event's id. p50, p99 and the largest over all of them.

The campaign is generate.py's (realistic Improv play through the rules), with one more
conflict opened and a card played at the end, so the page has a table to show.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.support.server import running_service  # noqa: E402  (after the path is set)


def tl(db: str, *args: str, check: bool = True) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tablelog", "--db", db, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if check and done.returncode != 0:
        raise RuntimeError(f"tablelog {' '.join(args)}: {done.stderr}")
    return done.stdout


def prepare(db: str, events: int) -> None:
    if not Path(db).exists():
        subprocess.run(
            [sys.executable, str(HERE / "generate.py"), "--db", db, "--events", str(events)],
            check=True,
        )
    tl(db, "session", "start", "-c", "bench", check=False)  # already open: fine
    if "page-bench" not in tl(db, "state", "-c", "bench"):
        tl(db, "improv", "open", "--id", "page-bench", "--extended", "-c", "bench")
        tl(db, "improv", "stake", "page-bench", "riso", "Riso holds the bar", "--gm", "-c", "bench")
        tl(
            db,
            "improv",
            "stake",
            "page-bench",
            "kit",
            "Kit wins",
            "--opposes",
            "riso",
            "-c",
            "bench",
        )
        tl(db, "improv", "play", "page-bench", "kit", "10H", "-c", "bench")


def token(db: str, who: str, *more: str) -> str:
    return str(json.loads(tl(db, "invite", who, "--json", "-c", "bench", *more))["token"])


def signed_in(url: str, link_token: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=30)
    answer = client.post(
        "/campaigns/bench/play/session", json={"token": link_token}, headers={"Origin": url}
    )
    answer.raise_for_status()
    return client


def timed(client: httpx.Client, path: str) -> float:
    started = time.perf_counter()
    answer = client.get(path)
    elapsed = time.perf_counter() - started
    answer.raise_for_status()
    return elapsed * 1000


def narrate(url: str, gm: str, text: str) -> int:
    answer = httpx.post(
        f"{url}/campaigns/bench/improv/conflicts/page-bench/narrations",
        json={"side": "riso", "text": text},
        headers={"Authorization": f"Bearer {gm}"},
        timeout=30,
    )
    answer.raise_for_status()
    return int(answer.json()["seq"])


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, "
        f"max {ordered[-1]:.1f} ms (n={len(ordered)})"
    )


def page_times(url: str, db: str, gm: str, requests: int) -> list[str]:
    # The GM's browser: a second device of the GM's own (a re-issue would revoke `gm`).
    own = httpx.post(
        f"{url}/campaigns/bench/players/gm/tokens",
        json={"role": "gm", "link": True},
        headers={"Authorization": f"Bearer {gm}"},
    )
    own.raise_for_status()
    browsers = {
        "GM": signed_in(url, own.json()["token"]),
        "player bob": signed_in(url, token(db, "bob", "--link")),
    }
    lines = []
    for who, client in browsers.items():
        for path, what in (
            ("/campaigns/bench/play", "page"),
            ("/campaigns/bench/play/table", "table"),
        ):
            timed(client, path)  # the first build
            still = [timed(client, path) for _ in range(requests)]
            moved = []
            for n in range(max(5, requests // 4)):
                narrate(url, gm, f"bench {who} {what} {n}")
                moved.append(timed(client, path))
            lines.append(f"| {who} | {what}, campaign unchanged | {summary(still)} |")
            lines.append(f"| {who} | {what}, right after an append | {summary(moved)} |")
    for client in browsers.values():
        client.close()
    return lines


async def sse_client(
    port: int, bearer: str, after: int, arrivals: dict[int, list[float]], ready: asyncio.Event
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        (
            f"GET /campaigns/bench/events?after={after} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {bearer}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    ready.set()
    pattern = re.compile(rb"^id: (\d+)\r?$")
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            found = pattern.match(line.strip())
            if found is not None:
                arrivals.setdefault(int(found.group(1)), []).append(time.perf_counter())
    finally:
        writer.close()


async def fan_out(url: str, db: str, gm: str, clients: int, appends: int) -> str:
    port = int(url.rsplit(":", 1)[1])
    viewers = [gm, token(db, "bob"), token(db, "susan"), token(db, "richard")]
    viewers += [token(db, f"watcher{n}", "--role", "observer") for n in range(6)]
    head = narrate(url, gm, "the fan-out begins")
    arrivals: dict[int, list[float]] = {}
    readies = [asyncio.Event() for _ in range(clients)]
    tasks = [
        asyncio.create_task(sse_client(port, viewers[n % len(viewers)], head, arrivals, readies[n]))
        for n in range(clients)
    ]
    for ready in readies:
        await ready.wait()
    await asyncio.sleep(1.0)  # every connection answered and waiting
    delays: list[float] = []
    after_ack: list[float] = []
    sent: dict[int, float] = {}
    acked: dict[int, float] = {}
    for n in range(appends):
        started = time.perf_counter()
        seq = await asyncio.to_thread(narrate, url, gm, f"fan-out {n}")
        sent[seq], acked[seq] = started, time.perf_counter()
        deadline = time.perf_counter() + 10
        while len(arrivals.get(seq, [])) < clients and time.perf_counter() < deadline:
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.2)  # let the feeds settle before the next append
    for seq, started in sent.items():
        got = arrivals.get(seq, [])
        delays += [(t - started) * 1000 for t in got]
        after_ack += [max(0.0, t - acked[seq]) * 1000 for t in got]
        if len(got) < clients:
            delays += [float("inf")] * (clients - len(got))  # never arrived: a failure
    for task in tasks:
        task.cancel()
    return (
        f"| {clients} SSE clients, {appends} appends ({len(viewers)} viewers), from the "
        f"command sent | {percentiles(delays)} |\n"
        f"| {clients} SSE clients, {appends} appends, from the command acknowledged | "
        f"{percentiles(after_ack)} |"
    )


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms "
        f"(n={len(ordered)})"
    )


def machine() -> str:
    model = "unknown CPU"
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{os.cpu_count()} CPUs ({model}), {platform.system()}, Python {platform.python_version()}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a campaign `bench` written by generate.py (else a new one)")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--appends", type=int, default=50)
    parser.add_argument("--smoke", action="store_true", help="a tiny run")
    args = parser.parse_args(argv)
    if args.smoke:
        args.events, args.requests, args.clients, args.appends = 300, 5, 5, 2
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or str(Path(scratch) / "page.db")
        prepare(db, args.events)
        events = json.loads(tl(db, "campaign", "list", "--json"))[0]["seq"]
        gm = token(db, "gm", "--role", "gm")
        # The feeds' caps per token and per address (8 and 64 by default) are lifted: all
        # 200 clients come from one address, with a token per viewer.
        caps = ("--feeds-per-token", "1000", "--feeds-per-address", "1000")
        with running_service(db, Path(scratch), *caps) as url:
            rows = page_times(url, db, gm, args.requests)
            rows.append(asyncio.run(fan_out(url, db, gm, args.clients, args.appends)))
    print(f"campaign of {events:,} events; {machine()}")
    print("| who | what | time |\n|---|---|---|")
    for row in "\n".join(rows).splitlines():
        print(row if row.count("|") == 4 else row.replace("| ", "| fan-out | ", 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
