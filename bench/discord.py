"""Discord interactions' answer time on a 10,000-event campaign (issue 30: under 100 ms at
p99, well inside Discord's three seconds).

    python bench/discord.py                  # 10,000 events, 300 interactions of each kind
    python bench/discord.py --quick          # a smoke run: 1,000 events, 15 of each (seconds)
    python bench/discord.py --db d.db        # the campaign kept in d.db (written if new),
                                             # played on a copy

What is measured, on loopback, against a real `tablelog serve` (SQLite, WAL) started with
`--discord-public-key` (and `--discord-api` at tests/support/discord_app.py's stand-in of
Discord's API, which takes the follow-ups): the wall time of `POST /discord/interactions`,
from the request sent to the answer read (httpx, one keep-alive connection: Discord's own
network and TLS are not in it), for interactions built and signed (Ed25519, outside the
timed part) exactly as Discord sends them, by users linked to their seats with `/tl link`
in a channel bound to the campaign (`tablelog discord bind`):

- reads, the campaign unchanged between them (a standing extended conflict, the GM's card
  down, the players' still to come): `/tl state` and `/tl hand` (Bob), `/tl waiting`
  (Susan), the autocomplete (type 4) of `/tl improv play`'s card option (Bob's hand), a
  refusal (Susan playing Kit's side, Bob's); a signed PING (the floor: the signature
  checked, no campaign read); and, for the ratio, the page's table fragment (`GET
  /campaigns/bench/play/table`, Bob's signed-in browser) in the same rounds;
- commands that append, as a table plays them: simple conflicts one after another, each
  `open` (GM), three `stake`s, the card autocompleted then `play`ed face down by Bob and
  Susan (each answered publicly, the card told to its player alone in a follow-up) and the
  GM's from the deck, `reveal`, a `narrate` per side, `close`; after each narration, one
  of the reads above (in turn), the campaign having just moved.

The reads come once a round each, in a new order every round, so each sees the same noisy
machine and the follow-ups a long answer (`/tl state`: a dozen messages on this campaign)
sends after it fall on any kind; the first rounds and conflicts are a warm-up, not counted.
The stand-in of Discord's API runs in this process: the follow-ups it takes share this
client's CPU. The campaign is this script's (`write_managed`): generate.py's realistic
Improv play through the rules with managed decks (the service deals the hands, so `/tl hand`
and the card's autocomplete have cards to show); the session is opened from Discord.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.append(str(HERE))  # generate.py and page.py, beside this file

from generate import Writer, write_campaign  # noqa: E402  (after the path is set)
from page import machine, signed_in, tl, token  # noqa: E402

from tablelog.commands import state  # noqa: E402
from tablelog.rules.common import Command  # noqa: E402
from tablelog.rulesets.improv.rules import commands as c  # noqa: E402
from tablelog.rulesets.improv.rules import lookup  # noqa: E402
from tablelog.storage import open_store  # noqa: E402
from tests.support.discord_app import (  # noqa: E402
    EPHEMERAL,
    DiscordApi,
    DiscordUser,
    Interactor,
    OptionValue,
    discord_api,
    snowflake,
)
from tests.support.server import running_service  # noqa: E402

CAMPAIGN = "bench"  # page.py's helpers (token, signed_in) name it
STANDING = "dbench"  # the conflict the reads look at
GM = DiscordUser(snowflake(), "amanda")
BOB = DiscordUser(snowflake(), "bob")
SUE = DiscordUser(snowflake(), "susan")
READS = ("ping", "state", "hand", "waiting", "autocomplete", "refused", "table")
APPENDS = ("open", "stake", "play", "reveal", "narrate", "close")


class Managed(Writer):
    """generate.py's play with managed decks: a player's card from its hand (blind when the
    hand is empty), the GM's from the top of the GM deck; the tie-breakers are drawn at the
    reveal, so only a loser's choice is left to make."""

    def must(self, command: Command) -> None:
        if isinstance(command, c.PlayCard) and command.conflict is not None:
            with state.reading(self.store, self.campaign) as folded:
                side = lookup.side(folded.state.conflicts[command.conflict], command.side)
                hand = list(folded.state.hands.get(lookup.owner(side), []))
            command = c.PlayCard(
                conflict=command.conflict,
                side=command.side,
                card=None if side.gm or not hand else hand[0],
                from_deck=side.gm,
            )
        super().must(command)

    def hand_of_fate(self, key: str) -> None:
        for _ in range(20):
            with state.reading(self.store, self.campaign) as folded:
                choosing = list(folded.state.conflicts[key].rounds[-1].fate.choices_due)
            if not choosing:
                return
            for side in choosing:
                self.may(c.Fate(conflict=key, side=side, choice="stay"))
        raise RuntimeError(f"the Hand of Fate in {key} did not settle")


def write_managed(db: str, events: int, seed: int = 1) -> int:
    """A managed-deck Improv campaign `bench` of about `events` events (whole conflicts)."""
    store = open_store(db, create=True)
    try:
        return write_campaign(
            store, CAMPAIGN, events, seed, options={"deck_mode": "managed"}, kind=Managed
        )
    finally:
        store.close()


def head(db: str) -> int:
    found = json.loads(tl(db, "campaign", "list", "--json"))
    return int(next(c["seq"] for c in found if c["campaign"] == CAMPAIGN))


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))]

    return (
        f"{statistics.median(ordered):.1f} | {at(0.95):.1f} | {at(0.99):.1f} | "
        f"{ordered[-1]:.1f} | {len(ordered)}"
    )


@dataclass
class Table:
    """The channel bound to the campaign, Discord's side of it, and what each kind took."""

    url: str
    discord: Interactor
    api: DiscordApi
    channel: str
    browser: httpx.Client  # Bob's signed-in page, for the table fragment
    counting: bool = False
    times: dict[str, list[float]] = field(default_factory=dict)
    deferred: int = 0
    last_ms: float = 0.0
    client: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def close(self) -> None:
        self.client.close()
        self.browser.close()

    def post(self, kind: str | None, payload: dict[str, Any]) -> dict[str, Any]:
        """Send one interaction as Discord does; its answer. Signed before the clock starts."""
        raw = json.dumps(payload, separators=(",", ":")).encode()
        stamp = str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "Discord-Interactions/1.0 (+https://discord.com)",
            "X-Signature-Timestamp": stamp,
            "X-Signature-Ed25519": self.discord.sign(stamp, raw),
        }
        started = time.perf_counter()
        answer = self.client.post("/discord/interactions", content=raw, headers=headers)
        elapsed = self.last_ms = (time.perf_counter() - started) * 1000
        if answer.status_code != 200:
            raise RuntimeError(f"{kind}: {answer.status_code} {answer.text}")
        body: dict[str, Any] = answer.json()
        if body.get("type") == 5:  # deferred: over the service's 2 s, sent later
            self.deferred += 1
        if self.counting and kind is not None:
            self.times.setdefault(kind, []).append(elapsed)
        return body

    def command(
        self, kind: str | None, user: DiscordUser, path: str, *, private: bool = False, **opts: Any
    ) -> str:
        """A slash command; its answer, which must be the caller's alone when `private` (a
        read, a refusal), else the channel's (a command that appended)."""
        payload = self.discord.command(user, self.channel, path, opts)
        body = self.post(kind, payload)
        if body.get("type") == 5:  # counted; the answer comes later, as Discord would see it
            return ""
        if body.get("type") != 4:
            raise RuntimeError(f"/tl {path}: {body}")
        content: str = body["data"]["content"]
        if bool(body["data"].get("flags", 0) & EPHEMERAL) != private:
            raise RuntimeError(f"/tl {path} {opts}: {content}")
        return content

    def complete(self, kind: str | None, user: DiscordUser, conflict: str, side: str) -> list[str]:
        payload = self.discord.autocomplete(
            user, self.channel, "improv play", "card", conflict=conflict, side=side, card=""
        )
        body = self.post(kind, payload)
        if body.get("type") != 8:
            raise RuntimeError(f"the card's autocomplete: {body}")
        return [str(choice["value"]) for choice in body["data"]["choices"]]

    def fragment(self, kind: str | None) -> None:
        started = time.perf_counter()
        answer = self.browser.get(f"/campaigns/{CAMPAIGN}/play/table")
        elapsed = (time.perf_counter() - started) * 1000
        answer.raise_for_status()
        if self.counting and kind is not None:
            self.times.setdefault(kind, []).append(elapsed)

    def read(self, what: str, suffix: str = "") -> None:
        """One of READS, timed as `what` + `suffix` (its answer checked, unless deferred)."""
        kind = what + suffix
        said, expected = "", ""
        if what == "ping":
            assert self.post(kind, self.discord.ping()) == {"type": 1}
        elif what == "state":
            said, expected = self.command(kind, BOB, "state", private=True), CAMPAIGN
        elif what == "hand":
            said, expected = self.command(kind, BOB, "hand", private=True), "Your hand:"
        elif what == "waiting":
            said, expected = self.command(kind, SUE, "waiting", private=True), "bob"
        elif what == "autocomplete":
            assert self.complete(kind, BOB, STANDING, "kit"), "Bob's hand is empty"
        elif what == "refused":
            said = self.command(
                kind, SUE, "improv play", private=True, conflict=STANDING, side="kit", card="AH"
            )
            expected = "may not play this side's card"
        else:
            self.fragment(kind)
        assert expected in said or not said, said

    def link(self, user: DiscordUser, db: str, seat: str) -> None:
        code = json.loads(tl(db, "discord", "code", seat, "--json", "-c", CAMPAIGN))["code"]
        said = self.command(None, user, "link", private=True, code=code)
        assert "you now act for" in said, said


def standing(t: Table) -> None:
    """The session open and a conflict the reads look at: the GM's card down, the players'
    to come (so the table waits on Bob and Susan)."""
    t.command(None, GM, "session start")
    t.command(None, GM, "improv open", id=STANDING, extended=True)
    t.command(None, GM, "improv stake", conflict=STANDING, side="guard", text="The alarm", gm=True)
    t.command(
        None, BOB, "improv stake", conflict=STANDING, side="kit", text="Kit runs", opposes="guard"
    )
    t.command(
        None,
        SUE,
        "improv stake",
        conflict=STANDING,
        side="jason",
        text="Jason opens the safe",
        opposes="guard",
    )
    t.command(None, GM, "improv play", conflict=STANDING, side="guard", **{"from-deck": True})


def reads(t: Table, rounds: int, warm: int) -> None:
    """Every read once a round, in a new order each round (a long answer's follow-ups, sent
    after it, fall on any kind), the campaign unchanged."""
    order, rng = list(READS), random.Random(7)
    for n in range(warm + rounds):
        t.counting = n >= warm
        rng.shuffle(order)
        for what in order:
            t.read(what)
    t.counting = False


def conflict(t: Table, key: str, after: Iterator[str]) -> None:
    """One simple conflict played through Discord, a read after each narration."""
    t.command("open", GM, "improv open", id=key)
    t.command("stake", GM, "improv stake", conflict=key, side="guard", text="The alarm", gm=True)
    t.command(
        "stake", BOB, "improv stake", conflict=key, side="kit", text="Kit runs", opposes="guard"
    )
    t.command(
        "stake",
        SUE,
        "improv stake",
        conflict=key,
        side="jason",
        text="Jason keeps watch",
        opposes="guard",
    )
    for user, side in ((BOB, "kit"), (SUE, "jason")):
        offered = t.complete("autocomplete, right after an append", user, key, side)
        card: dict[str, Any] = {"card": offered[0]} if offered else {}
        t.command("play", user, "improv play", conflict=key, side=side, **card)
    t.command("play", GM, "improv play", conflict=key, side="guard", **{"from-deck": True})
    t.command("reveal", GM, "improv reveal", conflict=key)
    for user, side in ((GM, "guard"), (BOB, "kit"), (SUE, "jason")):
        t.command("narrate", user, "improv narrate", conflict=key, side=side, text=f"{side} acts")
        what = next(after)
        if what != "autocomplete":  # the cycle's own autocompletes are after an append
            t.read(what, ", right after an append")
    closing = t.discord.command(GM, t.channel, "improv close", {"conflict": key})
    body = t.post(None, closing)
    if body["data"].get("flags", 0) & EPHEMERAL:  # a tie's loser still chooses: it stays
        for user, side in ((GM, "guard"), (BOB, "kit"), (SUE, "jason")):
            stay: dict[str, OptionValue] = {"conflict": key, "side": side, "stay": True}
            t.post(None, t.discord.command(user, t.channel, "improv fate", stay))
        t.command("close", GM, "improv close", conflict=key)
    elif t.counting:
        t.times.setdefault("close", []).append(t.last_ms)


def appends(t: Table, conflicts: int, warm: int) -> None:
    after = itertools.cycle(READS)
    for n in range(warm + conflicts):
        t.counting = n >= warm
        conflict(t, f"d{n + 1}", after)
    t.counting = False


@contextmanager
def table_at(db: str, scratch: Path) -> Iterator[Table]:
    with discord_api() as api:
        discord = Interactor("http://127.0.0.1:1", api=api)
        options = ("--discord-public-key", discord.public_key_hex, "--discord-api", api.url)
        with running_service(db, scratch, *options) as url:
            discord.service_url = url
            channel = snowflake()
            tl(db, "discord", "bind", channel, "-c", CAMPAIGN)
            browser = signed_in(url, token(db, "bob", "--link"))
            t = Table(url, discord, api, channel, browser)
            try:
                yield t
            finally:
                t.close()


def report(t: Table, before: int, after: int, command: str, took: float) -> list[str]:
    rows = [
        f"campaign of {before:,} events at the start, {after:,} at the end; {machine()}",
        f"`{command}`, {took:.0f} s; deferred answers: {t.deferred}; follow-ups taken by "
        f"the API stand-in: {len(t.api.followups)}",
        "",
        "| interaction | p50 ms | p95 ms | p99 ms | max ms | n |",
        "|---|---|---|---|---|---|",
    ]
    order: list[str] = [*READS]
    order += [f"{r}, right after an append" for r in READS]
    order += list(APPENDS)
    for kind in order:
        if kind in t.times:
            name = "page table fragment (GET)" if kind.startswith("table") else kind
            name += kind.removeprefix("table") if kind.startswith("table") else ""
            rows.append(f"| {name} | {percentiles(t.times[kind])} |")
    discord = [v for k, vs in t.times.items() if not k.startswith("table") for v in vs]
    every = [v for k in APPENDS for v in t.times.get(k, [])]
    rows.append(f"| **every interaction** | {percentiles(discord)} |")
    rows.append(f"| every append | {percentiles(every)} |")
    table = t.times.get("table", [])
    if table:
        ratios = [
            f"{what} {statistics.median(t.times[what]) / statistics.median(table):.1f}"
            for what in (*READS[:-1], *APPENDS)
            if what in t.times
        ]
        rows += ["", "p50 over the page table fragment's p50: " + ", ".join(ratios)]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db", help="keep the campaign written in this file, and play on a copy of it"
    )
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300, help="of each read kind")
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    args = parser.parse_args(argv)
    warm = 20
    if args.quick:
        args.events, args.requests, warm = 1_000, 15, 2
    command = " ".join(["python bench/discord.py", *(argv if argv is not None else sys.argv[1:])])
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        db = str(Path(scratch) / "discord.db")
        if args.db is not None and not Path(args.db).exists():
            write_managed(args.db, args.events)
        if args.db is not None:  # played on a copy: the file stays as written, for next time
            shutil.copyfile(args.db, db)
        else:
            write_managed(db, args.events)
        before = head(db)
        with table_at(db, Path(scratch)) as t:
            for user, seat in ((GM, "gm"), (BOB, "bob"), (SUE, "susan")):
                t.link(user, db, seat)
            standing(t)
            reads(t, args.requests, warm)
            # A conflict has 3 stakes, 3 plays and 3 narrations: `requests` of each.
            appends(t, max(2, args.requests // 3), max(1, warm // 10))
        after = head(db)
    print("\n".join(report(t, before, after, command, time.perf_counter() - started)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
