"""Commands per second with turn notices on and off, in one run (issue 28: the ratio must
stay at or above 0.9).

    python bench/notices.py                  # 6 rounds of every ruleset's demo, each way
    python bench/notices.py --rounds 2       # a quicker run
    python bench/notices.py --out bench/results/DATE-notices.md

Each round plays every ruleset's demo (its whole play: players joining, conflicts opened,
cards played and revealed, closed) on new campaigns of one SQLite file (WAL,
synchronous=FULL, one durable commit per command), in-process through the same append path
the CLI and the service use (`commands.table.execute`):
- off: a campaign with no notice target: whom the table waits on is never worked out;
- on: the same play on a campaign with a `turn` webhook (json, queued only: nothing is sent
  here, delivery is the service's worker and never on the append path) and every player and
  the GM with a Discord id and an address: each command works out the steps it began,
  queues their notices in its own transaction, and keeps since when each step has lasted.
Rounds alternate off and on, campaign by campaign, so both see the same noisy machine; only
the commands are timed (the campaign's creation, contacts and first read are not: a service
holds a campaign's state, and its steps once tracked, in its cache). The figure is
commands per second over all rounds, and the ratio on / off.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablelog.commands import contacts, database, state, webhooks
from tablelog.commands.access import grant
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.demo import demo_of
from tablelog.commands.table import execute
from tablelog.rules import registry
from tablelog.storage import EventStore, open_store

RULESETS = ("improv", "night-terrors", "beer-run", "bid-and-challenge", "ace-of-cards")


def players_of(store: EventStore, ruleset: str) -> tuple[str, list[str]]:
    """The GM's name and the players a ruleset's demo seats (played once, untimed)."""
    rules, play = demo_of(ruleset)
    created = create_campaign(store, f"probe-{ruleset}", ruleset=rules.name, options=play.options)
    for command in play.commands:
        execute(store, created.campaign, command, ruleset=rules.name)
    gm = str(getattr(created.event.event(), "gm", "gm"))
    actors = {e.actor for e in store.read(created.campaign)}
    return gm, sorted(a for a in actors if a not in (gm, "gm", ""))


def prepared(store: EventStore, name: str, ruleset: str, seats: list[str], on: bool) -> None:
    rules, play = demo_of(ruleset)
    create_campaign(store, name, ruleset=rules.name, options=play.options)
    # Untimed, both ways: the campaign's state in the process's cache, as a running service
    # holds it; with notices on, since when each step has lasted too (a service tracks it
    # from the first notice or page on, once per process).
    if not on:
        with state.reading(store, name):
            return
    state.awaited(store, name)
    webhooks.add(store, name, "http://127.0.0.1:9/turns", "json", "turn")
    for number, seat in enumerate(["gm", *seats]):
        if seat != "gm":
            grant(store, name, seat)
        contacts.set_discord(store, name, seat, str(80351110224678912 + number))
        contacts.set_email(store, name, seat, f"{seat}@example.org")


def played(store: EventStore, name: str, ruleset: str) -> tuple[int, float]:
    """The demo's commands on campaign `name`: how many, and the seconds they took."""
    _rules, play = demo_of(ruleset)
    began = time.perf_counter()
    for command in play.commands:
        execute(store, name, command, ruleset=ruleset)
    return len(play.commands), time.perf_counter() - began


def queued(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM notices").fetchone()[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    totals = {"off": [0, 0.0], "on": [0, 0.0]}
    per_ruleset: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "notices.db"
        database.upgrade(str(db))
        store = open_store(str(db))
        try:
            seats = {r: players_of(store, r)[1] for r in RULESETS if r in registry.names()}
            for ruleset, players in seats.items():  # untimed: every module imported once
                for way in ("off", "on"):
                    prepared(store, f"warm-{way}-{ruleset}", ruleset, players, way == "on")
                    played(store, f"warm-{way}-{ruleset}", ruleset)
            for number in range(args.rounds):
                ways = ("off", "on") if number % 2 == 0 else ("on", "off")
                for ruleset, players in seats.items():
                    for way in ways:
                        name = f"{way}-{ruleset}-{number}"
                        prepared(store, name, ruleset, players, way == "on")
                        count, seconds = played(store, name, ruleset)
                        totals[way][0] += count
                        totals[way][1] += seconds
                        per_ruleset.setdefault((ruleset, way), []).append(count / seconds)
        finally:
            store.close()
        notices = queued(db)
    rate = {way: count / seconds for way, (count, seconds) in totals.items()}
    ratio = rate["on"] / rate["off"]
    lines = [
        f"# Commands with turn notices on and off, {datetime.date.today()}",
        "",
        f"Machine: {platform.processor() or platform.machine()}, {platform.system()}; "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}. "
        f"`bench/notices.py --rounds {args.rounds}`; shared and noisy: one run's ratio only.",
        "",
        "| ruleset | off commands/s | on commands/s | on / off |",
        "|---|---|---|---|",
    ]
    for ruleset in seats:
        off = sorted(per_ruleset[(ruleset, "off")])[len(per_ruleset[(ruleset, "off")]) // 2]
        on = sorted(per_ruleset[(ruleset, "on")])[len(per_ruleset[(ruleset, "on")]) // 2]
        lines.append(f"| {ruleset} (median round) | {off:,.0f} | {on:,.0f} | {on / off:.2f} |")
    lines += [
        f"| **all** ({totals['off'][0]} commands each way) | {rate['off']:,.0f} | "
        f"{rate['on']:,.0f} | **{ratio:.2f}** |",
        "",
        f"Notices queued with notices on: {notices} (none sent: delivery is the service's).",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
