"""Drawing, discarding and shuffling an Ace's cards, and the `Plan` a command's events are
decided on (each event folded into a scratch state, so the next step sees it: a set's cards
are discarded before the draw that may reshuffle them into the deck).

Every shuffle comes through the contract's `shuffle` (managed decks) or is recorded from the
table (deck_mode=recorded: the table's order is unknown, so the cards are listed sorted, and
the cards drawn are given by the command).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules.cards import card_code, in_order, is_joker
from tablelog.rulesets.ace_of_cards.rules.evolve import evolve
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Pile

Shuffle = Callable[[list[str]], list[str]]


class Plan:
    """The events a command causes, in order, with the state they lead to."""

    def __init__(self, state: AceState, shuffle: Shuffle) -> None:
        self.state = copy.deepcopy(state)
        self.shuffle = shuffle
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        for event in events:
            evolve(self.state, event)  # type: ignore[arg-type]
            self.events.append(event)

    def pile(self, key: str) -> Pile:
        pile = self.state.characters[key].pile
        assert pile is not None
        return pile

    @property
    def recorded(self) -> bool:
        return self.state.options.deck_mode == "recorded"


def pick(given: Sequence[str], pool: Sequence[str], where: str) -> list[str]:
    """The cards `given` names, each found in `pool` (`JK`: a joker of the pool not yet
    picked); the first card missing is refused naming `where` it should be."""
    picked: list[str] = []
    for text in given:
        code = card_code(text)
        if code == "JK":
            free = [c for c in pool if is_joker(c) and c not in picked]
            if not free:
                raise RuleViolation(f"card Joker is not in {where}", code="card-not-there")
            code = free[0]
        elif code in picked:
            raise InvalidInput(f"card {code} is given twice", code="card-twice")
        if code not in pool:
            raise RuleViolation(f"card {code} is not in {where}", code="card-not-there")
        picked.append(code)
    return picked


def drawable(pile: Pile, count: int) -> int:
    """How many cards a draw of `count` gets: the deck, then the reshuffled discard pile."""
    return min(count, len(pile.deck) + len(pile.discard))


def check_given(plan: Plan, drawn: list[str] | None, count: int) -> None:
    """A draw's cards are given exactly when the deck is recorded from the table."""
    if not plan.recorded and drawn is not None:
        raise InvalidInput(
            "the deck is managed by tablelog (option deck_mode=managed): cards drawn are not given",
            code="managed-deck",
        )
    if plan.recorded and (drawn is None or len(drawn) != count):
        raise InvalidInput(
            f"the deck is recorded from the table (option deck_mode=recorded): {count} "
            f"card(s) are drawn; {0 if drawn is None else len(drawn)} given",
            code="draw-count",
        )


def draw(
    plan: Plan,
    conflict: str,
    key: str,
    count: int,
    drawn: list[str] | None,
    reason: ev.DrawReason,
) -> list[str]:
    """Draw `count` cards: what the deck has, then (deck empty) the discard pile shuffled into
    a new face-down deck, then the rest. Returns the cards drawn."""
    pile = plan.pile(key)
    count = drawable(pile, count)
    check_given(plan, drawn, count)
    given = list(drawn or [])
    taken: list[str] = []
    first = min(count, len(pile.deck))
    if first:
        cards = pick(given[:first], pile.deck, "the deck") if plan.recorded else pile.deck[:first]
        plan.add(ev.CardsDrawn(conflict=conflict, character_id=key, cards=cards, reason=reason))
        taken += cards
    rest = count - first
    if rest:
        order = in_order(pile.discard) if plan.recorded else plan.shuffle(list(pile.discard))
        plan.add(ev.DiscardShuffledIntoDeck(conflict=conflict, character_id=key, order=order))
        pile = plan.pile(key)
        if plan.recorded:
            cards = pick(given[first:], pile.deck, "the deck reshuffled from the discard pile")
        else:
            cards = pile.deck[:rest]
        plan.add(ev.CardsDrawn(conflict=conflict, character_id=key, cards=cards, reason=reason))
        taken += cards
    return taken
