"""Property test: random legal Ace of Cards play driven through `execute` on a real SQLite
file, with a seeded shuffle (managed deck and dice) and random options.

A run builds two Aces and an ally, then plays conflicts: enemy and ally actions, Magic Cards
with random MP and cards (jokers given random values and suits, a random effect among those
the set fits, its choices), Mulligans, Trap Cards and free spells, Checks with Double or
Nothing, High or Low, and the conflict's end. A command the rules refuse is fine (it must
leave the log as it was); what is written must:

(a) fold to the same state twice, and the same again from the whole log;
(b) keep each Ace's 30 cards accounted for (deck + hand + discard) during a conflict, and
    HP and MP between 0 and their maximum after every event;
(c) pass the audit: every recorded decision follows from the events before it.
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.commands.audit import audit
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import TablelogError
from tablelog.projections.fold import Folded, fold, fold_steps
from tablelog.projections.views import state_view
from tablelog.rules.common import Command
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.cards import SUITS
from tablelog.rulesets.ace_of_cards.rules.play import resolve
from tablelog.rulesets.ace_of_cards.rules.sets import STATUSES, fits, type_choices
from tablelog.rulesets.ace_of_cards.rules.state import AceState
from tablelog.storage import EventStore, open_store
from tests.unit.ace_of_cards.table import VECTOR_TYPES
from tests.unit.beer_run.table import SCRATCH

ACES = ("kit", "lea")
VECTOR_LETTERS = {"C": "fire", "D": "earth", "H": "ice", "S": "air"}


class Run:
    def __init__(self, store: EventStore, rng: random.Random) -> None:
        self.store = store
        self.rng = rng
        self.conflicts = 0

    def shuffle(self, cards: list[str]) -> list[str]:
        shuffled = list(cards)
        self.rng.shuffle(shuffled)
        return shuffled

    @property
    def state(self) -> AceState:
        state: AceState = campaign_state(self.store, "p").state
        return state

    def send(self, command: Command) -> None:
        before = self.store.read("p")
        try:
            execute(self.store, "p", command, ruleset="ace-of-cards", shuffle=self.shuffle)
        except TablelogError:
            assert self.store.read("p") == before, f"{command} refused but appended"

    def setup(self) -> None:
        for name in ACES:
            self.send(c.CreateCharacter(player=name, character=name, hp=40, mp=60))
            self.send(
                c.BuildDeck(
                    character=name, suit_types=VECTOR_TYPES, benefit=self.rng.choice(["hp", "mp"])
                )
            )  # type: ignore[arg-type]
            for skill, top in (("magic_cards", 3), ("mulligan", 5), ("trap_card", 4)):
                self.send(c.SetSkillLevel(character=name, skill=skill, sl=self.rng.randint(1, top)))
        self.send(c.CreateCharacter(player="gm", character="bram", hp=50, mp=20))

    def open(self) -> None:
        self.conflicts += 1
        self.send(c.OpenConflict(party=[*ACES, "bram"], enemies=["goblin", "ogre", "imp"]))

    def magic(self, who: str) -> None:
        """Mostly a legal set: MP within the SL's range, the choices its effect takes."""
        rng = self.rng
        character = self.state.characters[who]
        if character.pile is None:
            return
        hand = list(character.pile.hand)
        top = 2 + character.sl("magic_cards") if rng.random() < 0.9 else 6
        mp = 5 * rng.randint(2, top)
        cards = rng.sample(hand, min(len(hand), mp // 5))
        jokers = {
            card: f"{rng.randint(1, 7)}{rng.choice(list(SUITS))}"
            for card in cards
            if card.startswith("JK")
        }
        chosen = None
        resolved = resolve(
            cards, [ev.JokerAs(card=k, suit=v[1], value=int(v[0])) for k, v in jokers.items()]
        )
        fitting = fits(resolved, self.state.options.same_value_groups)
        if fitting:
            chosen = rng.choice(fitting)
        types = type_choices(chosen, resolved, VECTOR_LETTERS) if chosen else []
        self.send(
            c.UseMagicCards(
                conflict=None,
                character=who,
                mp=mp,
                cards=cards,
                jokers=jokers,
                set=chosen,
                targets=rng.sample(["goblin", "ogre", "imp"], rng.randint(1, 2))
                if chosen == "double-trouble"
                else [],
                damage_type=rng.choice(types) if types else None,
                statuses=rng.sample(STATUSES, 2) if chosen == "full-status" else [],
            )
        )

    def step(self) -> None:
        rng = self.rng
        who = rng.choice(ACES)
        state = self.state
        open_ = state.open_conflicts()
        if not open_:
            self.open()
            return
        character = state.characters[who]
        pick = rng.random()
        if pick < 0.25:
            self.magic(who)
        elif pick < 0.4:
            self.send(
                c.TakeAction(conflict=None, actor=rng.choice(["goblin", "ogre", who]), text="acts")
            )
        elif pick < 0.5:
            self.send(c.TrapCard(conflict=None, character=who, suit=rng.choice(list(SUITS))))
            self.send(
                c.FreeSpell(conflict=None, character=who, spell="Zap", mp=5 * rng.randint(0, 3))
            )
        elif pick < 0.6 and character.pile is not None:
            hand = character.pile.hand
            self.send(
                c.Mulligan(
                    conflict=None,
                    character=who,
                    cards=rng.sample(hand, rng.randint(1, min(3, len(hand)))),
                )
            )
        elif pick < 0.8:
            kind = rng.choice(["accuracy", "magic", "clock", "other"])
            self.send(
                c.CallCheck(
                    conflict=None,
                    character=who,
                    kind=kind,  # type: ignore[arg-type]
                    dice=[rng.choice([6, 8, 10, 12]), rng.choice([6, 8, 10, 12])],
                    dl=rng.randint(6, 16),
                    damage=rng.randint(0, 10) if kind in ("accuracy", "magic") else None,
                    offensive=kind == "magic" and rng.random() < 0.7,
                    target=rng.choice(["goblin", None]) if kind != "clock" else None,
                    double=rng.random() < 0.5,
                )
            )
            checks = open_[0].checks
            if checks:
                self.send(
                    c.RollCheck(
                        conflict=None,
                        check=list(checks)[-1],
                        opportunity_on_clock=rng.random() < 0.3,
                    )
                )
        elif pick < 0.9:
            self.send(c.HighOrLowDraw(conflict=None, character=who))
            hand = self.state.characters[who].pile
            if hand is not None and hand.hand:
                self.send(
                    c.HighOrLowDiscard(conflict=None, character=who, card=rng.choice(hand.hand))
                )
        elif pick < 0.97:
            self.send(c.AdjustMP(character=who, delta=rng.randint(-10, 10) or 1))
        else:
            self.send(c.EndConflict(conflict=None))


def snapshot(folded: Folded) -> Any:
    return msgspec.to_builtins(state_view(folded)), folded.state, folded.seq


def check_every_state(store: EventStore) -> None:
    """(b) the cards and the points stay whole and in range after every event."""
    for envelope, _event, folded in fold_steps(store.read("p")):
        state: AceState = folded.state
        for who in state.characters.values():
            assert 0 <= who.hp <= who.max_hp, (envelope.seq, who.key, who.hp)
            assert 0 <= who.mp <= who.max_mp, (envelope.seq, who.key, who.mp)
            if who.pile is not None:
                cards = Counter(who.pile.deck + who.pile.hand + who.pile.discard)
                assert cards == Counter(who.cards), (envelope.seq, who.key)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    don_miss=st.sampled_from(["failure", "fumble"]),
    groups=st.sampled_from(["allowed", "strict"]),
)
def test_random_play_replays_to_the_same_state_twice(seed: int, don_miss: str, groups: str) -> None:
    with tempfile.TemporaryDirectory(dir=SCRATCH) as directory:
        store = open_store(str(Path(directory) / "p.db"), create=True)
        try:
            create_campaign(
                store,
                "p",
                ruleset="ace-of-cards",
                options={"don_miss": don_miss, "same_value_groups": groups},
            )
            run = Run(store, random.Random(seed))
            run.setup()
            for _ in range(80):
                run.step()
            first = snapshot(campaign_state(store, "p"))
            again = snapshot(fold(store.read("p")))
            twice = snapshot(fold(store.read("p")))
            assert first == again == twice
            check_every_state(store)
            account = audit(store, "p")
            assert account.ok, account.discrepancies
        finally:
            store.close()
