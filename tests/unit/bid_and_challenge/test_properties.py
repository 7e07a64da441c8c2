"""Property tests: random legal Bid & Challenge play driven through `execute` on a real SQLite
file, with a few illegal commands mixed in.

A run registers random decks (0 to 5 cards of random Nd6+M values, Flow 1 to 3) and universe
cards, opens a scene seating everyone (refused when no seat has a card in Deck) and plays until
every player who can be active passes in a row (or a step limit): random bids with random
powers, random passes and challenges within the bid's count, random pushes within Flow, dice
rolled by a seeded shuffle or recorded, the winners' narrations now and then; then a second
scene, which compacts the first. Properties checked on the stored log:

(a) folding it twice (`campaign_state`, and `fold(store.read(...))` twice) gives the same state,
    and a snapshot of it decodes to that state;
(b) after every event each card is in exactly one zone, and between rounds none is in Play;
(c) each side's total is its faces plus its cards' mods, and each resolution's winner is the
    higher total, ties to the active player (reference arithmetic written here);
(d) no bid commits more than Flow, no challenge more than the bid, no push more than Flow;
(e) the audit finds nothing to dispute; a refused command leaves the log as it was.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.commands.audit import audit
from tablelog.commands.table import campaign_state
from tablelog.errors import TablelogError
from tablelog.projections.fold import fold, fold_steps
from tablelog.rules.common import Command, StartSession
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import RULESET
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules.narration import decided
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState
from tests.unit.bid_and_challenge.table import CAMPAIGN, SCRATCH, Table, Tables, power

NAMES = ["Anna", "Ben", "Cara", "Dan"]
SKILLS = ["Brawn", "Sword", "Wits", "Talk", "Body", "Luck"]
STEPS = 80
SCENES = 2  # a second scene compacts the first (its rounds leave the state)


class Run:
    def __init__(self, table: Table, rng: random.Random, recorded: bool) -> None:
        self.table, self.rng, self.recorded = table, rng, recorded
        self.fresh = 0

    @property
    def state(self) -> BidAndChallengeState:
        return self.table.state

    def probe(self, command: Command) -> None:
        """(e) an illegal command is refused and the log is untouched."""
        before = self.table.log()
        try:
            self.table.execute(command)
        except TablelogError:
            assert self.table.log() == before
            return
        raise AssertionError(f"{command} was not refused")

    def value(self) -> str:
        return f"{self.rng.randint(0, 2)}d6+{self.rng.randint(0, 3)}"

    def setup(self) -> bool:
        seats = NAMES[: self.rng.randint(2, 4)]
        for name in seats:
            skills = self.rng.sample(SKILLS, self.rng.randint(0, 5))
            self.table.given(
                c.RegisterDeck(
                    player=name.lower(),
                    character=name,
                    flow=self.rng.randint(1, 3),
                    cards=[c.CardSpec(name=s, value=self.value()) for s in skills],
                )
            )
        for n in range(self.rng.randint(0, 3)):
            self.table.given(c.AddUniverseCard(card=c.CardSpec(name=f"U{n}", value=self.value())))
        self.table.given(StartSession())
        return self.open_scene(seats, self.rng.choice(seats))

    def open_scene(self, seats: list[str], asked: str) -> bool:
        """Open a scene, or (no seat has a card in Deck: nobody could be active) see it refused."""
        opening = c.OpenScene(seating=seats, requested_by=asked)
        if not any(self.state.characters[s.lower()].in_zone("deck") for s in seats):
            self.probe(opening)
            return False
        self.table.given(opening)
        return True

    def narrate(self) -> None:
        """Now and then the winner of the latest decided round narrates it (and a loser's try
        is refused)."""
        scene = self.state.open_scenes()[0]
        rnd = decided(scene)
        if rnd is None or rnd.resolved is None or rnd.narration is not None:
            return
        if rnd.resolved.loser is not None and self.rng.random() < 0.2:
            self.probe(c.Narrate(conflict=None, player=rnd.resolved.loser, text="Mine"))
        if self.rng.random() < 0.3:
            self.table.given(c.Narrate(conflict=None, player=rnd.resolved.winner, text="So"))

    def new_name(self) -> str:
        self.fresh += 1
        return f"n{self.fresh}"

    def a_power(self) -> c.PowerSpec:
        state = self.state
        choice = self.rng.randint(0, 3)
        with_discard = [w for w in state.characters.values() if w.in_zone("discard")]
        with_deck = [w for w in state.characters.values() if w.in_zone("deck")]
        if choice == 0 and with_discard:
            who = self.rng.choice(with_discard)
            return power("restore", target=who.key, cards=who.in_zone("discard")[:1])
        if choice == 1 and with_deck:
            who = self.rng.choice(with_deck)
            return power("strike", target=who.key, cards=[self.rng.choice(who.in_zone("deck"))])
        if choice == 2:
            card = c.CardSpec(name=self.new_name(), value=self.value())
            return power("universe_card", card=card)
        return power("detail", detail=self.new_name(), text="a detail")

    def step(self) -> None:
        self.narrate()
        rnd = self.state.open_scenes()[0].current
        rng = self.rng
        match rnd.phase:
            case "bid":
                who = self.state.characters[rnd.active]
                deck = who.in_zone("deck")
                if not deck or rng.random() < 0.25:
                    self.table.given(c.Pass(conflict=None, player=who.key))
                    return
                if len(deck) > who.flow and rng.random() < 0.1:
                    too_many = deck[: who.flow + 1]
                    self.probe(c.Bid(conflict=None, active=who.key, description="x",
                                     cards=too_many, power=self.a_power()))  # fmt: skip
                picked = rng.sample(deck, rng.randint(1, min(who.flow, len(deck))))
                self.table.given(
                    c.Bid(conflict=None, active=who.key, description="I try", cards=picked,
                          power=self.a_power())
                )  # fmt: skip
            case "challenge":
                asked = rnd.asked
                assert asked is not None
                assert rnd.bid is not None
                own = self.state.characters[asked].in_zone("deck")
                universe = self.state.universe.in_zone("deck")
                room = len(rnd.bid.cards)
                pool = [("own", k) for k in own] + [("universe", k) for k in universe]
                if not pool or rng.random() < 0.5:
                    self.table.given(c.Pass(conflict=None, player=asked))
                    return
                picked = rng.sample(pool, rng.randint(1, min(room, len(pool))))
                self.table.given(
                    c.Challenge(conflict=None, challenger=asked, description="No",
                                cards=[k for s, k in picked if s == "own"],
                                universe=[k for s, k in picked if s == "universe"])
                )  # fmt: skip
            case "push":
                who = self.state.characters[rnd.active]
                deck = who.in_zone("deck")
                if deck and rng.random() < 0.5:
                    picked = rng.sample(deck, rng.randint(0, min(who.flow, len(deck))))
                    self.table.given(
                        c.Push(conflict=None, active=who.key, description="More", cards=picked)
                    )
                else:
                    self.roll()
            case "roll":
                self.roll()

    def roll(self) -> None:
        if not self.recorded:
            self.table.given(c.Roll(conflict=None))
            return
        rnd = self.state.open_scenes()[0].current
        from tablelog.rulesets.bid_and_challenge.rules.resolve import side_cards

        dice = {
            side: sum(self.state.holder(o).cards[k].dice for o, k in pairs)
            for side, pairs in side_cards(rnd).items()
        }
        faces = {side: [self.rng.randint(1, 6) for _ in range(n)] for side, n in dice.items()}
        self.table.given(
            c.Roll(
                conflict=None,
                active_faces=faces["active"] or None,
                challenger_faces=faces["challenger"] or None,
            )
        )

    def play(self) -> None:
        if not self.setup():
            return
        for _ in range(STEPS):
            if not self.state.open_scenes():
                if len(self.state.scenes) == SCENES:
                    return
                seats = list(self.state.characters)  # the next scene: everyone again
                self.rng.shuffle(seats)
                if not self.open_scene(seats, seats[0]):
                    return
            self.step()


def check(run: Run) -> None:
    store, log = run.table.store, run.table.log()
    # (a) replay twice, and from the command path's state: identical.
    first, second = fold(log), fold(store.read(CAMPAIGN))
    encode = msgspec.msgpack.encode
    assert (
        encode(first.state) == encode(second.state) == encode(campaign_state(store, CAMPAIGN).state)
    )
    assert first.state.seq == first.seq == len(log)
    # A snapshot of the state decodes to the same state.
    assert RULESET.decode_state(RULESET.encode_state(first.state)) == first.state
    # (b) every card in one zone; none in Play between rounds.
    for _envelope, event, folded in fold_steps(log):
        state: BidAndChallengeState = folded.state
        holders = [*state.characters.values(), state.universe]
        for holder in holders:
            assert set(holder.zones) == set(holder.cards)
        if isinstance(event, ev.RoundStarted | ev.SceneEnded):  # a round is over
            assert not [k for h in holders for k in h.in_zone("play")]
    # (c), (d) from the events alone.
    events = [e.event() for e in log]
    flows = {e.character_id: e.flow for e in events if isinstance(e, ev.DeckRegistered)}
    values: dict[tuple[str, str], int] = {}
    for e in events:
        if isinstance(e, ev.DeckRegistered):
            values.update({(e.character_id, k.card_id): k.mod for k in e.cards})
        elif isinstance(e, ev.UniverseCardCreated):
            values[(ev.UNIVERSE, e.card_id)] = e.mod
    bid_count, totals = 0, {}
    for e in events:
        match e:
            case ev.BidMade():
                assert 1 <= len(e.cards) <= flows[e.active]
                bid_count, totals = len(e.cards), {}
            case ev.ChallengeMade():
                assert 1 <= len(e.cards) <= bid_count
            case ev.Pushed():
                assert len(e.cards) <= flows[e.active]
            case ev.DiceRolled():
                assert all(r.mod == values[(r.owner, r.card_id)] for r in e.rolls)
                assert e.total == sum(sum(r.faces) + r.mod for r in e.rolls)
                assert all(1 <= f <= 6 for r in e.rolls for f in r.faces)
                totals[e.side] = (e.character, e.total)
            case ev.RoundResolved() if e.loser is not None:
                (active, a), (challenger, b) = totals["active"], totals["challenger"]
                assert e.winner == (active if a >= b else challenger)
            case _:
                pass
    # (e) the audit agrees with every recorded decision.
    account = audit(store, CAMPAIGN)
    assert account.ok, account.discrepancies


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), recorded=st.booleans())
def test_random_legal_play_replays_to_the_same_state(seed: int, recorded: bool) -> None:
    rng = random.Random(seed)

    def shuffle(faces: list[str]) -> list[str]:
        return rng.sample(faces, len(faces))

    with tempfile.TemporaryDirectory(dir=SCRATCH) as directory, Tables(Path(directory)) as new:
        table = new({"dice": "recorded"} if recorded else {}, shuffle=shuffle)
        run = Run(table, rng, recorded)
        run.play()
        check(run)
