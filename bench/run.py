"""tablelog's store and projections side by side with their peers, in one process run.

    python bench/run.py                       # the full run: 1,000,000 events (a few minutes)
    python bench/run.py --events 20000 --append-events 5000 --commands 200   # a smoke run
    python bench/run.py --only verify --events 300000       # some workloads only

On the same generated Improv play (bench/generate.py, exported as JSON Lines) it times:
- bulk append: `tablelog import` of the export (hash chain checked and recomputed, as the CLI
  runs it: a file this size is checked in a worker process) against raw sqlite3 executemany,
  SQLAlchemy Core + msgspec and eventsourcing's batched SQLite saves, in `--rounds` rounds
  that alternate them (medians, and each round's ratios);
- commands in-process on a campaign of 10,000 events (decide on the state, append one event,
  synchronous=FULL) against eventsourcing's get-decide-save on 50-event aggregates;
- rebuild: folding every stored event into the Improv projections, streamed, with peak memory,
  against the read+decode floors of raw sqlite3 and SQLAlchemy on the very same file and
  eventsourcing's reconstruction;
- `verify` over every event, as the CLI runs it (worker processes for a log this size) and in
  one process, one after the other.
Results go to stdout and, with --out, to a Markdown file with the date, machine and versions.
Rates are only compared within one run: the machines these run on are shared and noisy.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import importlib.metadata
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from bench import generate, peers
from bench.peers.data import Meter, Result, Row, fresh, load_rows
from tablelog.commands import database
from tablelog.commands.importing import import_jsonl
from tablelog.commands.table import execute
from tablelog.commands.transfer import export_jsonl
from tablelog.projections.fold import fold
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import open_store
from tablelog.storage.verify import verify_log


def timed(name: str, count: int, work: Callable[[], object], unit: str = "events") -> Result:
    with Meter() as meter:
        work()
    return Result(name=name, events=count, seconds=meter.seconds, peak_mb=meter.peak_mb, unit=unit)


def build(scratch: Path, events: int, per_campaign: int) -> tuple[Path, int]:
    """A database of about `events` events: one campaign through the rules, then copies."""
    db = scratch / "big.db"
    store = open_store(str(db), create=True)
    try:
        first = generate.write_campaign(store, "bench", min(per_campaign, events))
        size = len(store.read("bench"))
        copies = max(0, -(-(events - first) // size))
        generate.copies(store, "bench", [f"bench-{i}" for i in range(1, copies + 1)])
        total = sum(head.seq for head in store.campaigns())
    finally:
        store.close()
    return db, total


def export_all(db: Path, out: Path, limit: int) -> int:
    """Export whole campaigns into one JSON Lines file until `limit` events; how many."""
    store = open_store(str(db))
    written = 0
    try:
        with out.open("wb") as handle:
            for head in store.campaigns():
                if written >= limit:
                    break
                for line in export_jsonl(store, head.name):
                    handle.write(line + b"\n")
                    written += 1
    finally:
        store.close()
    return written


def tablelog_import(jsonl: Path, scratch: Path, count: int) -> Result:
    target = fresh(scratch, "imported.db")
    database.upgrade(str(target))
    store = open_store(str(target))
    try:
        return timed(
            "tablelog import (chain checked, hashed, appended)",
            count,
            lambda: import_jsonl(store, jsonl),
        )
    finally:
        store.close()


def bulk_appends(jsonl: Path, rows: list[Row], scratch: Path, count: int) -> list[Result]:
    """One round of the bulk appends, tablelog's import and its peers one after another."""
    return [
        tablelog_import(jsonl, scratch, count),
        peers.raw_sqlite.append_executemany(rows, scratch),
        peers.sqlalchemy_msgspec.append_executemany(rows, scratch),
        peers.eventsourcing_peer.batched_append(rows, scratch),
    ]


def medians(rounds: list[list[Result]]) -> list[Result]:
    """Each workload's median round (by time); the rounds alternate the workloads, so a
    drift of the machine's load reaches them all."""
    chosen = []
    for runs in zip(*rounds, strict=True):
        ordered = sorted(runs, key=lambda r: r.seconds)
        median = ordered[len(ordered) // 2]
        name = median.name if len(runs) == 1 else f"{median.name} (median of {len(runs)})"
        chosen.append(dataclasses.replace(median, name=name))
    return chosen


def round_ratios(rounds: list[list[Result]], worker_mb: float) -> list[str]:
    """tablelog's import against raw sqlite3 and eventsourcing, round by round."""
    against_raw = [r[0].rate / r[1].rate for r in rounds]
    against_es = [r[0].rate / r[3].rate for r in rounds]
    # The floor against the same peer: an import writes these very rows, so it cannot go
    # past raw executemany; 5x eventsourcing is out of reach wherever this is below 5.
    floor_es = [r[1].rate / r[3].rate for r in rounds]
    listed = ", ".join
    return [
        "import / raw sqlite3 executemany, each round: "
        + listed(f"{x:.2f}" for x in against_raw)
        + f" (median {statistics.median(against_raw):.2f}; target >= 0.5)",
        "import / eventsourcing batched, each round: "
        + listed(f"{x:.2f}" for x in against_es)
        + f" (median {statistics.median(against_es):.2f}; target >= 5)",
        "raw sqlite3 executemany / eventsourcing batched (the most an import could reach), "
        "each round: "
        + listed(f"{x:.2f}" for x in floor_es)
        + f" (median {statistics.median(floor_es):.2f})",
        "import peak MB is the importing process's; the worker process checking the file "
        f"beside it peaks at {worker_mb:.0f} MB more",
    ]


def worker_peak_mb(jsonl: Path) -> float:
    """The import's checking worker alone on `jsonl` (its output thrown away), its resident
    set sampled every 5 ms from /proc: the memory a large import costs beyond its own."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "tablelog.commands.import_check", str(jsonl)],
        stdout=subprocess.DEVNULL,
    )
    peak = 0
    status = Path(f"/proc/{worker.pid}/status")
    while worker.poll() is None:
        with contextlib.suppress(OSError, ValueError):
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    peak = max(peak, int(line.split()[1]))
        time.sleep(0.005)
    return peak / 1024


def tablelog_commands(db: Path, scratch: Path, commands: int) -> Result:
    """Narration commands on the 10,000-event campaign: each folds nothing old (the state is
    cached, or read from a snapshot), decides, and appends one event with its own commit."""
    copy = scratch / "commands.db"
    store = open_store(str(db))
    try:
        source = store.read("bench")
    finally:
        store.close()
    database.upgrade(str(copy))
    store = open_store(str(copy))
    try:
        from tablelog.commands.transfer import copy_campaign

        copy_campaign(store, source)
        execute(store, "bench", c.StartSession())
        execute(store, "bench", c.OpenConflict(conflict="bench-fight"))
        execute(store, "bench", c.SetStake(conflict="bench-fight", side="Riso", gm=True, text="x"))
        execute(
            store, "bench", c.SetStake(conflict="bench-fight", side="Kit", text="y", opposes="Riso")
        )
        held = len(store.read("bench"))

        def run() -> None:
            for i in range(commands):
                execute(
                    store, "bench", c.Narrate(conflict="bench-fight", side="Kit", text=f"line {i}")
                )

        result = timed(f"tablelog commands on a {held}-event campaign", commands, run, "commands")
    finally:
        store.close()
    return result


def tablelog_rebuild(db: Path, total: int) -> Result:
    store = open_store(str(db))

    def run() -> None:
        for head in store.campaigns():
            fold(store.stream(head.name))

    try:
        return timed("tablelog rebuild (fold into Improv state, streamed)", total, run)
    finally:
        store.close()


def tablelog_verify(db: Path, total: int) -> list[Result]:
    """`verify` as `tablelog verify` runs it (worker processes for a log this size), and in
    this process alone: their ratio is what the workers bring in this run."""
    store = open_store(str(db))
    try:
        # Untimed: the event modules imported and their decoders built, as the workloads
        # before it leave them in a full run.
        verify_log(store, campaign=store.campaigns()[-1].name)
        return [
            timed("tablelog verify", total, lambda: verify_log(store, workers=None)),
            timed("tablelog verify (one process)", total, lambda: verify_log(store, workers=1)),
        ]
    finally:
        store.close()


WORKLOADS = ("import", "commands", "rebuild", "verify")


def workloads(text: str) -> set[str]:
    chosen = {name.strip() for name in text.split(",") if name.strip()}
    unknown = chosen - set(WORKLOADS)
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"choose among {', '.join(WORKLOADS)}")
    return chosen


def machine() -> list[str]:
    versions = []
    for package in ("sqlalchemy", "msgspec", "eventsourcing", "typer", "litestar"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions.append(f"{package} {importlib.metadata.version(package)}")
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return [
        f"date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"machine: {cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
        f"python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        + ", ".join(versions),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="rebuild and verify")
    parser.add_argument("--append-events", type=int, default=200_000, help="bulk appends")
    parser.add_argument("--per-campaign", type=int, default=10_000)
    parser.add_argument("--commands", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the bulk appends")
    parser.add_argument("--scratch", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the results here (.md)")
    parser.add_argument(
        "--only",
        type=workloads,
        default=set(WORKLOADS),
        help=f"some of {','.join(WORKLOADS)} (comma-separated; default: all)",
    )
    args = parser.parse_args(argv)
    only: set[str] = args.only
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="tablelog-bench-"))
    scratch.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rounds: list[list[Result]] = []
    results: list[Result] = []
    try:
        db, total = build(scratch, args.events, args.per_campaign)
        print(f"generated {total} events in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        if only - {"verify"}:
            jsonl = scratch / "append.jsonl"
            appended = export_all(db, jsonl, args.append_events)
            rows = load_rows(jsonl)
        if "import" in only:
            rounds = [bulk_appends(jsonl, rows, scratch, appended) for _ in range(args.rounds)]
            worker_mb = worker_peak_mb(jsonl)
            results.extend(medians(rounds))
        if "commands" in only:
            results.append(tablelog_commands(db, scratch, args.commands))
            results.append(
                peers.eventsourcing_peer.get_decide_save(scratch, args.commands, rows=rows)
            )
        if "rebuild" in only:
            results.extend(
                [
                    tablelog_rebuild(db, total),
                    peers.raw_sqlite.read_decode(db),
                    peers.sqlalchemy_msgspec.read_decode(db),
                    peers.eventsourcing_peer.reconstruct(
                        scratch, min(total, args.append_events), rows=rows
                    ),
                ]
            )
        if "verify" in only:
            verified = tablelog_verify(db, total)
            results.extend(verified)
    finally:
        if args.scratch is None:
            shutil.rmtree(scratch, ignore_errors=True)
    lines = [*machine(), "", "```", peers.format_table(results), ""]
    if rounds:
        lines.extend(round_ratios(rounds, worker_mb))
    if "verify" in only:
        gain = verified[0].rate / verified[1].rate
        lines.append(f"verify / verify in one process: {gain:.2f}")
    lines.append("```")
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(f"# tablelog benchmark\n\n{text}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
