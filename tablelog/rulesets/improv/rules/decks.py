"""Managed decks inside `decide`: draws and reshuffles worked out on copies, as events.

The shuffle itself comes from outside (the command layer passes `secrets`-backed shuffling;
tests pass a seeded one): rules never call an RNG. Every order it returns is stored in a
DeckShuffled event, so a replay never shuffles again.
"""

from __future__ import annotations

from collections.abc import Callable

from tablelog.events.base import Event
from tablelog.rulesets.improv.events import CardsDrawn, DeckShuffled
from tablelog.rulesets.improv.rules.cards import full_deck
from tablelog.rulesets.improv.rules.state import ImprovState

Shuffle = Callable[[list[str]], list[str]]


class DeckWork:
    """Draws on copies of the decks, collecting the events that record them in order."""

    def __init__(self, state: ImprovState, shuffle: Shuffle) -> None:
        self._shuffle = shuffle
        self._draw = {name: list(deck.draw) for name, deck in state.decks.items()}
        self._discard = {name: list(deck.discard) for name, deck in state.decks.items()}
        self.events: list[Event] = []

    def new_deck(self, deck: str, reason: str) -> None:
        order = self._shuffle(full_deck())
        self.events.append(DeckShuffled(deck=deck, order=order, reason=reason))
        self._draw[deck], self._discard[deck] = list(order), []

    def discard(self, deck: str, cards: list[str]) -> None:
        self._discard.setdefault(deck, []).extend(cards)

    def _refill(self, deck: str) -> bool:
        """Reshuffle the deck's own discards when its draw pile is empty."""
        if self._draw.get(deck):
            return True
        discards = self._discard.get(deck, [])
        if not discards:
            return False
        order = self._shuffle(list(discards))
        self.events.append(DeckShuffled(deck=deck, order=order, reason="reshuffle"))
        self._draw[deck], self._discard[deck] = list(order), []
        return True

    def take(self, deck: str) -> str | None:
        """The top card, for an event that records it (a blind play, a tie-breaker)."""
        if not self._refill(deck):
            return None
        return self._draw[deck].pop(0)

    def deal(self, deck: str, owner: str, count: int, reason: str) -> list[str]:
        """Draw `count` cards into `owner`'s hand (fewer if the deck and discards run dry)."""
        drawn: list[str] = []
        chunk: list[str] = []
        while len(drawn) < count:
            if not self._draw.get(deck):
                if chunk:  # record the cards drawn before the reshuffle first
                    self.events.append(
                        CardsDrawn(deck=deck, owner=owner, cards=chunk, reason=reason)
                    )
                    chunk = []
                if not self._refill(deck):
                    break
            card = self._draw[deck].pop(0)
            chunk.append(card)
            drawn.append(card)
        if chunk:
            self.events.append(CardsDrawn(deck=deck, owner=owner, cards=chunk, reason=reason))
        return drawn
