"""Property tests: random Improv sessions, mostly legal, some not, on a real SQLite file.

A run draws commands one at a time, looking at the folded state to pick names that exist (so
most commands are legal and conflicts get played through to their close), mixed with random
and deliberately wrong ones. Properties checked:

(a) folding the stored log twice from scratch gives the same `state_view`;
(b) the token ledger's total changes only at SessionStarted (checked event by event), and the
    tokens a session start clears are exactly the ones that were there;
(c) a refused command changes nothing: the stored log is identical before and after;
(d) managed decks: after every event each deck still holds exactly its 54 cards (draw pile,
    discards, hands, face-down and pending cards, victory piles of open conflicts);
(e) the audit finds no discrepancy in a log the rules wrote.

Each example plays on its own SQLite file in its own temporary directory.
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.commands.audit import account_of
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import TablelogError
from tablelog.projections.fold import fold
from tablelog.projections.views import state_view
from tablelog.rulesets.improv.events import SessionStarted
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.cards import full_deck
from tablelog.rulesets.improv.rules.state import HOLDERS, ImprovState
from tablelog.storage import EventStore, open_store

CAMPAIGN = "p"
PEOPLE = [("Bob", "Kit", ["Brawler"]), ("Sue", "Diana", ["Charm", "Sneak"]), ("Ann", "Jason", [])]
STRANGERS = ["Zed", "nobody", "gm"]
GM_STAKES = ["riso", "goons"]
CARDS = full_deck()
FULL_DECK = Counter(CARDS)
# A few cards drawn often, so equal totals and exact ties (Hand of Fate) come up.
TIE_PRONE = ["7H", "7H", "7C", "JK", "4H"]
BAD_CARDS = ["11H", "1S", "ZZ", "", "joker!"]

PROPERTY_SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@dataclass
class Run:
    """One campaign played from random commands; what it saw along the way."""

    store: EventStore
    rng: random.Random  # every choice of command and name
    shuffle: Callable[[list[str]], list[str]]  # managed decks, with a Random of its own
    refusals: int = 0
    accepted: int = 0
    refused_codes: list[str] = field(default_factory=list)

    def coin(self) -> bool:
        return self.rng.random() < 0.5

    @property
    def state(self) -> ImprovState:
        state: ImprovState = campaign_state(self.store, CAMPAIGN).state
        return state

    def execute(self, command: c.Command) -> bool:
        """Run one command; a refusal must leave the log exactly as it was (property c)."""
        before = self.store.read(CAMPAIGN)
        refusal: TablelogError | None = None
        try:
            execute(self.store, CAMPAIGN, command, ruleset="improv", shuffle=self.shuffle)
        except TablelogError as error:
            refusal = error
        if refusal is None:
            self.accepted += 1
            return True
        after = self.store.read(CAMPAIGN)
        assert after == before, f"refused {command!r} ({refusal}) but the log changed"
        self.refusals += 1
        self.refused_codes.append(refusal.code)
        return False


@contextmanager
def campaign(options: dict[str, str]) -> Iterator[tuple[EventStore, Path]]:
    """A fresh SQLite file per example (tmp_path is shared by every example of a test)."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "p.db"
        store = open_store(str(path), create=True)
        try:
            create_campaign(store, CAMPAIGN, ruleset="improv", options=options)
            yield store, path
        finally:
            store.close()


options_strategy = st.fixed_dictionaries(
    {
        "deck_mode": st.sampled_from(["recorded", "recorded", "managed"]),
        "player_decks": st.sampled_from(["shared", "per_player"]),
        "lethal_fate": st.sampled_from(["false", "false", "true"]),
        "award_source": st.sampled_from(["pool", "giver"]),
        "carry_tokens": st.sampled_from(["false", "true"]),
    }
)
seeds = st.integers(0, 2**32 - 1)
steps = st.integers(10, 90)


# --- choosing commands ----------------------------------------------------------------------


def pick(run: Run, values: list[Any], default: Any = None) -> Any:
    """One of `values` (`default` when there are none)."""
    return run.rng.choice(values) if values else default


def maybe(run: Run, likely: Any, other: list[Any]) -> Any:
    """Usually `likely`, sometimes one of `other` (often wrong on purpose)."""
    if not other or run.rng.randint(0, 9) < 8:
        return likely
    return pick(run, other)


def open_conflict_key(state: ImprovState) -> str | None:
    open_ = state.open_conflicts()
    return open_[-1].key if open_ else None


def some_card(run: Run, state: ImprovState, owner: str | None) -> str:
    hand = state.hands.get(owner or "", []) if state.managed else []
    if hand and run.rng.randint(0, 9) < 9:
        card: str = pick(run, hand)
        return card
    roll = run.rng.randint(0, 19)
    if roll == 0:
        return str(pick(run, BAD_CARDS))
    if roll < 10:
        return str(pick(run, TIE_PRONE))
    return str(pick(run, CARDS))


def owner_of(state: ImprovState, conflict: str | None, side: str) -> str | None:
    found = state.conflicts.get(conflict or "")
    if found is None or side.lower() not in found.sides:
        return None
    s = found.sides[side.lower()]
    return "gm" if s.gm else s.player


def progress(run: Run, state: ImprovState) -> c.Command:
    """The next sensible step of the table: what a GM running the game would do next."""
    if len(state.characters) < 2 or (len(state.characters) < 3 and run.coin()):
        player, character, talents = PEOPLE[len(state.characters)]
        return c.CreateCharacter(player=player, character=character, talents=talents)
    if not state.session_open:
        return c.StartSession()
    players = sorted(p for p in state.players if p != state.gm)
    if len(players) > 1 and run.rng.randint(0, 5) == 0:
        giver, receiver = run.rng.sample(players, 2)
        payer = "pool" if state.options.award_source == "pool" else giver
        if state.ledger.held(payer):
            return c.Award(giver=giver, receiver=receiver)
    key = open_conflict_key(state)
    if key is None:
        extended = run.coin()
        rounds = pick(run, [None, 1, 2]) if extended else None
        return c.OpenConflict(extended=extended, rounds=rounds)
    conflict = state.conflicts[key]
    protagonists = [ch for ch in state.characters.values() if ch.player in state.session_players]
    if not conflict.stakes_closed:
        if not conflict.gm_stakes():
            return c.SetStake(conflict=key, side=pick(run, GM_STAKES), text="the GM's", gm=True)
        missing = [ch for ch in protagonists if ch.key not in conflict.sides]
        if missing and (len(conflict.protagonists()) == 0 or run.coin()):
            target = pick(run, [s.key for s in conflict.gm_stakes()])
            return c.SetStake(conflict=key, side=missing[0].display, text="mine", opposes=target)
    rnd = conflict.current
    if rnd is not None and rnd.revealed:
        if rnd.fate.pending:
            pair = rnd.fate.pending[0]
            draws = rnd.fate.draws
            side = (
                pair[0] if len(draws.get(pair[0], [])) <= len(draws.get(pair[1], [])) else pair[1]
            )
            return c.Fate(conflict=key, side=side, draw=some_card(run, state, None))
        if rnd.fate.choices_due:
            choice = pick(run, ["stay", "eliminate"])
            return c.Fate(conflict=key, side=rnd.fate.choices_due[0], choice=choice)
        if rnd.number >= conflict.planned_rounds:
            givers = [
                s
                for s in conflict.sides.values()
                if any(p.own for p in s.victory) and not s.gifts_given
            ]
            if conflict.kind == "extended" and givers and run.coin():
                giver = givers[0]
                receivers = [s.key for s in conflict.sides.values() if s.key != giver.key]
                card = next(p.card for p in giver.victory if p.own)
                return c.Give(
                    conflict=key, giver=giver.key, receiver=pick(run, receivers), card=card
                )
            return c.Close(conflict=key)
        rnd = None  # the next round starts
    played = rnd.plays if rnd is not None else {}
    waiting = [s for s in conflict.sides.values() if s.status == "in" and s.key not in played]
    if waiting:
        side = waiting[0]
        if side.gm and state.managed and run.coin():
            return c.PlayCard(conflict=key, side=side.key, from_deck=True)
        return c.PlayCard(
            conflict=key,
            side=side.display,
            card=some_card(run, state, owner_of(state, key, side.key)),
        )
    if rnd is not None and len(rnd.bonuses) < 3 and run.coin():
        return bonus(run, state, key)
    return c.Reveal(conflict=key)


def bonus(run: Run, state: ImprovState, key: str | None) -> c.Command:
    conflict = state.conflicts.get(key or "")
    rnd = conflict.current if conflict else None
    sides = list(rnd.plays) if rnd else list(conflict.sides) if conflict else ["Kit", "riso"]
    on = maybe(run, pick(run, sides, "Kit"), ["nobody", "riso"])
    helpers = [
        ch for ch in state.characters.values() if ch.key in (conflict.sides if conflict else {})
    ]
    by = pick(run, [None, None, "gm", "gm", *[ch.display for ch in helpers], "Jason"])
    if run.coin():
        count = maybe(run, run.rng.randint(1, 2), [0, 3, 9])
        return c.PlaceBonus(conflict=key, on=on, by=by, tokens=count)
    character = state.characters.get((by or on).lower())
    talents = list(character.talents) if character else []
    talent = maybe(run, pick(run, talents, "Flying"), ["Flying", "Charm"])
    assist = maybe(run, "from the balcony", [None, "  "])
    return c.PlaceBonus(conflict=key, on=on, by=by, talent=talent, assist=assist)


def random_command(run: Run, state: ImprovState) -> c.Command:
    """Any command, with names from the table most of the time."""
    players = [p for p, _, _ in PEOPLE]
    key = maybe(run, open_conflict_key(state), ["c1", "c2", "nope", None])
    conflict = state.conflicts.get(key or "")
    sides = list(conflict.sides) if conflict else []
    some_side = maybe(run, pick(run, sides), ["nobody", "Kit", "riso"]) if sides else "Kit"
    kind = pick(
        run,
        [
            "character",
            "session_end",
            "scene_start",
            "scene_end",
            "open",
            "stake",
            "play",
            "bonus",
            "bonus",
            "reveal",
            "fate",
            "give",
            "award",
            "award",
            "redraw",
            "bribe",
            "narrate",
            "close",
        ],
    )
    match kind:
        case "character":
            player, character, talents = pick(
                run, [*PEOPLE, ("gm", "Boss", []), ("Bob", "Kat", [])]
            )
            return c.CreateCharacter(player=player, character=character, talents=talents)
        case "session_end":
            return c.EndSession()
        case "scene_start":
            return c.StartScene(title=pick(run, [None, "The bar", "   "]))
        case "scene_end":
            return c.EndScene()
        case "open":
            extended = run.coin()
            return c.OpenConflict(
                conflict=pick(run, [None, None, "c1", "Fight!"]),
                extended=extended,
                rounds=pick(run, [None, 0, 2, 30]) if extended else pick(run, [None, None, 2]),
            )
        case "stake":
            gm = run.coin()
            if gm:
                side = pick(run, [*GM_STAKES, "Kit"])
                return c.SetStake(conflict=key, side=side, text="theirs", gm=True)
            side = pick(run, [ch for _, ch, _ in PEOPLE] + ["Nobody"])
            opposes = pick(run, [None, *sides, "Kit"]) if sides else None
            return c.SetStake(
                conflict=key, side=side, text=pick(run, ["mine", " "]), opposes=opposes
            )
        case "play":
            from_deck = run.rng.randint(0, 9) == 0
            card = None if from_deck else some_card(run, state, owner_of(state, key, some_side))
            return c.PlayCard(conflict=key, side=some_side, card=card, from_deck=from_deck)
        case "bonus":
            return bonus(run, state, key)
        case "reveal":
            return c.Reveal(conflict=key)
        case "fate":
            if run.coin():
                return c.Fate(conflict=key, side=some_side, draw=some_card(run, state, None))
            return c.Fate(conflict=key, side=some_side, choice=pick(run, ["stay", "eliminate"]))
        case "give":
            card = some_card(run, state, None)
            receiver = pick(run, [*sides, "Kit"])
            return c.Give(
                conflict=key, giver=some_side, receiver=receiver, card=card, random=run.coin()
            )
        case "award":
            known = [p for p in state.players if p != state.gm] or players
            giver = maybe(run, pick(run, known), players + STRANGERS)
            receiver = maybe(run, pick(run, known), players + STRANGERS)
            return c.Award(giver=giver, receiver=receiver, conflict=pick(run, [None, key]))
        case "redraw":
            who = pick(run, [*players, "gm", "Zed"])
            owner = "gm" if who == "gm" else who.lower()
            count = run.rng.randint(0, 2)
            cards = [some_card(run, state, owner) for _ in range(count)]
            return c.Redraw(player=who, cards=cards)
        case "bribe":
            giver, receiver = pick(run, [*players, "gm"]), pick(run, players + STRANGERS)
            return c.Bribe(giver=giver, receiver=receiver, conflict=pick(run, [None, key]))
        case "narrate":
            return c.Narrate(
                conflict=key,
                side=some_side,
                text=pick(run, ["It goes well.", ""]),
                final=run.coin(),
            )
        case _:
            return c.Close(conflict=key)


def play_randomly(run: Run, steps: int) -> None:
    for _ in range(steps):
        state = run.state
        legal = run.rng.randint(0, 9) < 7
        run.execute(progress(run, state) if legal else random_command(run, state))


def played(store: EventStore, seed: int, steps: int) -> Run:
    """`steps` commands chosen by a Random seeded with `seed` (hypothesis picks the seed, so a
    failure reports it; choices depend on the state, which a shrinker could not keep legal)."""
    deck_rng = random.Random(seed + 1)
    run = Run(
        store=store,
        rng=random.Random(seed),
        shuffle=lambda cards: deck_rng.sample(cards, len(cards)),
    )
    play_randomly(run, steps)
    return run


# --- the properties -------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, steps=steps, cuts=st.lists(st.integers(1, 400)))
def test_folding_the_stored_log_twice_gives_the_same_view(
    options: dict[str, str], seed: int, steps: int, cuts: list[int]
) -> None:
    with campaign(options) as (store, path):
        played(store, seed, steps)
        envelopes = store.read(CAMPAIGN)
        first = fold(envelopes)
        again = open_store(str(path))  # from scratch: another engine on the same file
        try:
            second = fold(again.read(CAMPAIGN))
        finally:
            again.close()
        assert first.seq == second.seq == len(envelopes)
        assert state_view(first) == state_view(second)
        assert first.state.hands == second.state.hands
        assert first.state.ledger == second.state.ledger
        for cut in {min(cut, len(envelopes)) for cut in cuts}:
            one, two = fold(envelopes, upto=cut), fold(store.read(CAMPAIGN), upto=cut)
            assert one.seq == two.seq == cut
            assert state_view(one) == state_view(two)


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, steps=steps)
def test_the_ledger_total_changes_only_at_session_start(
    options: dict[str, str], seed: int, steps: int
) -> None:
    with campaign(options) as (store, _path):
        played(store, seed, steps)
        envelopes = store.read(CAMPAIGN)
        total = fold(envelopes, upto=1).state.ledger.total()
        assert total == 0
        for envelope in envelopes[1:]:
            ledger = fold(envelopes, upto=envelope.seq).state.ledger
            event = envelope.event()
            where = (envelope.seq, envelope.type, event)
            if isinstance(event, SessionStarted):
                # What the reset clears is what was there, less the carried player tokens.
                carried = sum(event.player_tokens.values())
                assert sum(event.cleared.values()) + carried == total, where
                assert ledger.total() == event.gm_tokens + event.pool + carried, where
            else:
                assert ledger.total() == total, where
            holdings = [ledger.held(h) for h in HOLDERS] + list(ledger.players.values())
            assert min(holdings) >= 0, where
            total = ledger.total()


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, steps=steps)
def test_a_refused_command_changes_nothing(options: dict[str, str], seed: int, steps: int) -> None:
    with campaign(options) as (store, _path):
        run = played(store, seed, steps)  # Run.execute compares the log around every refusal
        assert run.accepted > 0


def census(state: ImprovState, deck: str) -> Counter[str]:
    """Every card that belongs to `deck`, wherever it is now."""
    found = Counter(state.decks[deck].draw) + Counter(state.decks[deck].discard)
    for owner, hand in state.hands.items():
        if state.deck_of(owner) == deck:
            found.update(hand)
    for conflict in state.open_conflicts():
        for side in conflict.sides.values():
            found.update(p.card for p in side.victory if p.deck == deck)
        for rnd in conflict.rounds:
            for key, play in rnd.plays.items():
                side = conflict.sides[key]
                owner = "gm" if side.gm else side.player or "gm"
                if key not in rnd.settled and (play.deck or state.deck_of(owner)) == deck:
                    found[play.card] += 1
    return found


managed_options = st.fixed_dictionaries(
    {
        "deck_mode": st.just("managed"),
        "player_decks": st.sampled_from(["shared", "per_player"]),
        "lethal_fate": st.sampled_from(["false", "true"]),
        # Big hands empty the decks, so reshuffles happen.
        "gm_hand_base": st.sampled_from(["3", "40"]),
        "player_hand": st.sampled_from(["4", "12"]),
    }
)


@PROPERTY_SETTINGS
@given(options=managed_options, seed=seeds, steps=steps)
def test_managed_decks_never_gain_or_lose_a_card(
    options: dict[str, str], seed: int, steps: int
) -> None:
    with campaign(options) as (store, _path):
        played(store, seed, steps)
        envelopes = store.read(CAMPAIGN)
        for envelope in envelopes[1:]:
            state = fold(envelopes, upto=envelope.seq).state
            for deck in state.decks:
                assert census(state, deck) == FULL_DECK, (envelope.seq, envelope.type, deck)


@PROPERTY_SETTINGS
@given(options=options_strategy, seed=seeds, steps=steps)
def test_every_log_the_rules_write_audits_clean(
    options: dict[str, str], seed: int, steps: int
) -> None:
    """(e) The audit recomputes each decision and re-checks each limited action from the
    events before it: on a log the rules wrote themselves it must find nothing."""
    with campaign(options) as (store, _path):
        played(store, seed, steps)
        account = account_of(store.read(CAMPAIGN))
        assert account.discrepancies == []
        assert account.seq == len(store.read(CAMPAIGN))
