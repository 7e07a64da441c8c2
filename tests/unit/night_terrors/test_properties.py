"""Property tests: random legal Night Terrors play driven through `execute` on a real SQLite
file, with a managed deck shuffled by a seeded RNG or a recorded one dealt random cards, and
payments the rules leave no choice in made at once or asked for (`pay=ask`).

A run creates 2 to 4 characters, starts a session and plays several conflicts (a scene between
them resets the hands: discards down, refreshes), each exchange by exchange: the next raiser
raises 2 random cards (3 with a held reversal card); each answerer sees with a random subset of
its hand that meets the raise, or else pushes, escalates or gives; a payment with a choice is
split at random within the rules. Properties checked on the stored log:

(a) folding it twice (`campaign_state` twice, and `fold(store.read(...))`) gives the same state;
(b) after every event the 52 cards are all somewhere, once: the deck, the set-aside pile or one
    hand; every pool stays within 0..20;
(c) the audit recomputes every recorded decision and finds no discrepancy;
(d) every conflict ends (nobody is stuck) and a refused command leaves the log as it was;
(e) a snapshot of the state decodes back to the same state.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.commands.audit import audit
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state
from tablelog.errors import TablelogError
from tablelog.projections.fold import Folded, fold, fold_steps
from tablelog.rules.common import EndScene, StartScene, StartSession
from tablelog.rulesets.night_terrors.rules import RULESET, flow
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules.cards import DECK, PAID_IN, TRADES, value
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState
from tablelog.storage import open_store
from tests.unit.beer_run.table import SCRATCH
from tests.unit.night_terrors.table import Table

FACES = ["KS", "QH", "JC", "KD"]
NAMES = ["Alice", "Bob", "Cara", "Dan"]
KINDS = ["talk", "physical", "melee", "guns"]


class Run:
    def __init__(self, table: Table, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.refusals = 0

    @property
    def state(self) -> NightTerrorsState:
        return self.table.state

    def do(self, command: Any) -> bool:
        """Run a command; a refusal must leave the log untouched. With a recorded deck, the
        table then deals every draw owed: random cards of the deck (the set-aside pile too
        when the deck runs short)."""
        before = self.table.store.read("t")
        try:
            self.table.execute(command)
        except TablelogError:
            assert self.table.store.read("t") == before
            self.refusals += 1
            return False
        while self.state.options.deck == "recorded" and self.state.draws:
            key, owed = next(iter(self.state.draws.items()))
            pile = self.state.deck + (
                self.state.set_aside if len(self.state.deck) < owed.count else []
            )
            cards = self.rng.sample(pile, min(owed.count, len(pile)))
            self.table.execute(c.Draw(character=key, cards=cards))
        return True

    def play(self) -> None:
        count = self.rng.randint(2, 4)
        for name, face in zip(NAMES[:count], FACES, strict=False):
            self.do(c.CreateCharacter(player=name.lower(), character=name, card=face))
        self.do(StartSession())
        for number in range(self.rng.randint(1, 3)):
            if number:
                if self.state.table.scene_open:
                    self.do(EndScene())
                assert self.do(StartScene())
                self.reset()
            ready = [k for k, ch in self.state.characters.items() if all(ch.pools().values())]
            if len(ready) < 2:
                return
            names = self.rng.sample(ready, self.rng.randint(2, len(ready)))
            kind = self.rng.choice(KINDS)
            assert self.do(c.OpenConflict(aggressor=names[0], others=names[1:], kind=kind))
            self.conflict(f"c{number + 1}")

    def reset(self) -> None:
        for key, owed in list(self.state.discards.items()):
            hand = self.state.characters[key].hand
            assert self.do(c.Discard(character=key, cards=self.rng.sample(hand, owed)))
        for key, ch in self.state.characters.items():
            if ch.hand and self.rng.random() < 0.3:
                cards = self.rng.sample(ch.hand, self.rng.randint(1, len(ch.hand)))
                assert self.do(c.Refresh(character=key, cards=cards))

    def conflict(self, key: str) -> None:
        for _step in range(200):
            found = self.state.conflicts[key]
            if found.status == "ended":
                return
            if self.pay_any():
                continue
            exchange = found.current
            if exchange is not None and exchange.owing:
                self.answer(key, exchange.owing[0], exchange.raised.value)
            else:
                raiser = flow.next_raiser(self.state, found)
                assert raiser is not None, "an open conflict with nobody to raise"
                self.raise_(key, raiser)
        raise AssertionError(f"conflict {key} did not end in 200 steps")

    def pay_any(self) -> bool:
        for key, owed in self.state.costs.items():
            cost = owed[0]
            ch = self.state.characters[key]
            pools = list(PAID_IN[self.state.conflicts[cost.conflict].trump])
            split = dict.fromkeys(("blood", "sweat", "tears"), 0)
            first = self.rng.randint(0, cost.amount) if len(pools) == 2 else cost.amount
            split[pools[0]] += first
            split[pools[-1]] += cost.amount - first
            if TRADES[ch.rank] in pools and self.rng.random() < 0.5:
                own = TRADES[ch.rank]
                moved = split[own] // 2
                if self.state.options.trade_limit == "pool":
                    moved = min(moved, ch.pool(own) // 2)
                elsewhere = self.rng.choice([p for p in split if p not in pools] or [own])
                split[own] -= moved
                split[elsewhere] += moved
            self.rng.random() < 0.1 and self.do(c.Pay(character=key, blood=cost.amount + 1))
            assert self.do(c.Pay(character=key, **split)), (split, cost, ch.rank)
            return True
        return False

    def raise_(self, key: str, raiser: str) -> None:
        hand = self.state.characters[raiser].hand
        held = self.state.characters[raiser].held
        cards = self.rng.sample(hand, 2)
        if held and held not in cards and self.rng.random() < 0.5:
            cards.append(held)  # a 3-card raise with the held reversal card
        if self.rng.random() < 0.1:
            self.do(c.Raise(conflict=key, character=raiser, cards=hand[:1]))  # refused: 1 card
        assert self.do(c.Raise(conflict=key, character=raiser, cards=cards))

    def answer(self, key: str, who: str, raised: int) -> None:
        options = self.state.options
        hand = list(self.state.characters[who].hand)
        self.rng.shuffle(hand)
        numbers = [x for x in hand if x[:-1] not in ("J", "Q", "K")]
        faces = [x for x in hand if x[:-1] in ("J", "Q", "K")]
        # Prefixes of the hand, and (faces do not stack) every number card with one face,
        # and the faces alone: the best any cards make is among the last two.
        tries = [hand[:n] for n in range(1, len(hand) + 1)] + [numbers + faces[:1], faces]
        meeting = [t for t in tries if t and value(t, options) >= raised]
        roll = self.rng.random()
        if meeting and roll < 0.85:
            assert self.do(c.See(conflict=key, character=who, cards=self.rng.choice(meeting)))
        elif roll < 0.93 and self.state.conflicts[key].trump != "S" and not meeting:
            assert self.do(c.Escalate(conflict=key, character=who))
        elif not meeting and roll < 0.97:
            cards = hand[: self.rng.randint(0, len(hand))]
            assert self.do(c.Push(conflict=key, character=who, cards=cards))
        else:
            assert self.do(c.Give(conflict=key, character=who))


def snapshot(folded: Folded) -> Any:
    from tablelog.projections.views import state_view

    return msgspec.to_builtins(state_view(folded)), msgspec.to_builtins(folded.state), folded.seq


def check_cards_and_pools(table: Table) -> None:
    for envelope, _event, folded in fold_steps(table.store.read("t")):
        state: NightTerrorsState = folded.state
        if not state.shuffled and state.options.deck == "managed":
            continue
        held = [card for ch in state.characters.values() for card in ch.hand]
        everywhere = state.deck + state.set_aside + held
        assert sorted(everywhere) == sorted(DECK), f"cards lost or doubled at {envelope.seq}"
        for ch in state.characters.values():
            assert all(0 <= v <= 20 for v in ch.pools().values()), (envelope.seq, ch)


@contextmanager
def campaign(seed: int, options: dict[str, str]) -> Iterator[Table]:
    with tempfile.TemporaryDirectory(dir=SCRATCH) as directory:
        store = open_store(str(Path(directory) / "p.db"), create=True)
        try:
            create_campaign(store, "t", ruleset="night-terrors", options=options)
            deck = random.Random(seed ^ 0x5EED)
            yield Table(store, shuffle=lambda cards: deck.sample(cards, len(cards)))
        finally:
            store.close()


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    options=st.fixed_dictionaries(
        {
            "middle": st.sampled_from(["sorted", "positional"]),
            "trade_limit": st.sampled_from(["payment", "pool"]),
            "cannot_see": st.sampled_from(["strict", "free"]),
            "deck": st.sampled_from(["managed", "recorded"]),
            "pay": st.sampled_from(["forced", "ask"]),
        }
    ),
)
def test_random_play_replays_the_same_and_keeps_the_deck(
    seed: int, options: dict[str, str]
) -> None:
    with campaign(seed, options) as table:
        Run(table, random.Random(seed)).play()
        first = snapshot(campaign_state(table.store, "t"))
        again = snapshot(campaign_state(table.store, "t"))
        assert first == again == snapshot(fold(table.store.read("t")))
        assert snapshot(fold(table.store.read("t"))) == first
        state = table.state  # a snapshot keeps the state whole
        assert RULESET.decode_state(RULESET.encode_state(state)) == state
        check_cards_and_pools(table)
        account = audit(table.store, "t")
        assert account.ok, account.discrepancies
