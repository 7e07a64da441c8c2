"""Realistic Improv campaigns for the benchmarks, written through the command layer.

Each conflict is a bar fight like the seed's: five sides (three protagonists, two GM stakes),
three rounds of face-down cards (recorded mode, random cards), tokens and talents where the
rules allow them, reveals, narration, gifts and a close: about 50 events of 150-300 bytes.
Sessions hold a few conflicts each. Every event is decided by the rules and appended by
`execute`, exactly as `tablelog` would write it.

    python bench/generate.py --db bench.db --events 10000
    python bench/generate.py --db bench.db --events 1000000 --copies   # see `copies`

A million events through the rules take a while, so `--copies` writes one campaign through the
command layer and then stores renamed copies of it (each a campaign of its own, its hash chain
recomputed), the way an export imported under another name would be.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time

from tablelog.commands import state
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.errors import TablelogError
from tablelog.events.codec import encode
from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import Envelope, Pending
from tablelog.rules.common import Command
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.cards import full_deck
from tablelog.storage import EventStore, open_store

PLAYERS = [
    ("Bob", "Kit", "Brawler"),
    ("Susan", "Jason", "Protector"),
    ("Richard", "Diana", "Marksman"),
]
LINES = [
    "{who} vaults the bar and swings a bottle.",
    "{who} ducks behind the jukebox as glass flies.",
    "{who} shouts a warning over the noise of the crowd.",
    "{who} drags a chair into the doorway to slow them down.",
    "{who} catches the swinging light and kicks off the wall.",
]


class Writer:
    """Plays random legal Improv through `execute`; a refused optional action is skipped."""

    def __init__(self, store: EventStore, campaign: str, rng: random.Random) -> None:
        self.store, self.campaign, self.rng = store, campaign, rng
        self.events = 0
        self.conflicts = 0

    def must(self, command: Command) -> None:
        self.events += len(execute(self.store, self.campaign, command))

    def may(self, command: Command) -> None:
        with contextlib.suppress(TablelogError):
            self.must(command)

    def conflict(self) -> None:
        self.conflicts += 1
        key = f"c{self.conflicts}"
        sides = ["Kit", "Jason", "Diana", "Riso", "Goons"]
        self.must(c.OpenConflict(conflict=key, extended=True, rounds=3))
        self.must(c.SetStake(conflict=key, side="Riso", gm=True, text="Riso gets away with it"))
        self.must(c.SetStake(conflict=key, side="Goons", gm=True, text="The goons grab Vinny"))
        self.must(c.SetStake(conflict=key, side="Kit", opposes="Riso", text="Kit captures Riso"))
        self.must(
            c.SetStake(conflict=key, side="Jason", opposes="Riso", text="Jason keeps Vinny safe")
        )
        self.must(
            c.SetStake(conflict=key, side="Diana", opposes="Goons", text="Diana holds the door")
        )
        for _round in range(3):
            deck = full_deck()
            self.rng.shuffle(deck)
            for side in sides:
                self.must(c.PlayCard(conflict=key, side=side, card=deck.pop()))
            for side in self.rng.sample(sides, 2):
                if side in ("Riso", "Goons") or self.rng.random() < 0.5:
                    self.may(c.PlaceBonus(conflict=key, on=side, tokens=1))
                else:
                    talent = {"Kit": "Brawler", "Jason": "Protector", "Diana": "Marksman"}[side]
                    self.may(c.PlaceBonus(conflict=key, on=side, talent=talent))
            self.must(c.Reveal(conflict=key))
            self.hand_of_fate(key)
            for side in self.rng.sample(sides, 2):
                line = self.rng.choice(LINES).format(who=side)
                self.may(c.Narrate(conflict=key, side=side, text=line))
            giver, receiver = self.rng.sample([p for p, _n, _t in PLAYERS], 2)
            self.may(c.Award(giver=giver, receiver=receiver, conflict=key))
        for side in sides:
            self.may(c.Narrate(conflict=key, side=side, final=True, text=f"{side} is done."))
        self.must(c.Close(conflict=key))

    def hand_of_fate(self, key: str) -> None:
        """Exact ties after a reveal: tie-breaker cards until decided, then the loser stays."""
        for _ in range(20):
            with state.reading(self.store, self.campaign) as folded:
                fate = folded.state.conflicts[key].rounds[-1].fate
                pending = sorted({side for pair in fate.pending for side in pair})
                choosing = list(fate.choices_due)
            if not pending and not choosing:
                return
            for side in pending:
                self.may(c.Fate(conflict=key, side=side, draw=self.rng.choice(full_deck())))
            for side in choosing:
                self.may(c.Fate(conflict=key, side=side, choice="stay"))
        raise RuntimeError(f"the Hand of Fate in {key} did not settle")

    def session(self, conflicts: int) -> None:
        self.must(c.StartSession())
        for _ in range(conflicts):
            self.conflict()
        self.must(c.EndSession())


def write_campaign(
    store: EventStore,
    name: str,
    events: int,
    seed: int = 1,
    *,
    options: dict[str, str] | None = None,
    kind: type[Writer] | None = None,
) -> int:
    """A campaign of about `events` events (whole conflicts); how many were written.
    `options`: the campaign's (a managed deck); `kind`: a Writer that plays them."""
    create_campaign(store, name, ruleset="improv", options=options)
    writer = (kind or Writer)(store, name, random.Random(seed))
    writer.events = 1
    for player, character, talent in PLAYERS:
        writer.must(c.CreateCharacter(player=player, character=character, talents=[talent]))
    while writer.events < events:
        writer.session(conflicts=4)
    return writer.events


def copies(store: EventStore, source: str, names: list[str]) -> int:
    """Store each name as a copy of `source` (its first event renamed, every hash recomputed):
    campaigns of realistic play, written in bulk. How many events were written."""
    original = store.read(source)
    written = 0
    for name in names:
        first = original[0].event()
        assert isinstance(first, CampaignCreated)
        renamed = CampaignCreated(
            campaign=name, ruleset=first.ruleset, gm=first.gm, options=first.options
        )
        pending = [
            Pending(
                event_id=f"{name}-{e.seq}",
                type=e.type,
                schema_version=e.schema_version,
                actor=e.actor,
                payload=encode(renamed) if e.seq == 1 else e.payload,
                recorded_at=e.recorded_at,
            )
            for e in original
        ]
        with store.new_campaign(name, first.ruleset) as tx:
            tx.append(pending)
        written += len(pending)
    return written


def _envelopes(store: EventStore, name: str) -> list[Envelope]:
    return store.read(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="SQLite path or database URL")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--campaign", default="bench")
    parser.add_argument("--per-campaign", type=int, default=10_000, help="with --copies")
    parser.add_argument("--copies", action="store_true", help="one campaign, then copies")
    args = parser.parse_args(argv)
    store = open_store(args.db, create=True)
    started = time.perf_counter()
    try:
        if not args.copies:
            total = write_campaign(store, args.campaign, args.events)
        else:
            total = write_campaign(store, args.campaign, min(args.per_campaign, args.events))
            size = len(store.read(args.campaign))
            names = [
                f"{args.campaign}-{i}" for i in range(1, max(0, args.events - total) // size + 1)
            ]
            total += copies(store, args.campaign, names)
    finally:
        store.close()
    took = time.perf_counter() - started
    print(f"wrote {total} events to {args.db} in {took:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
