"""What each caller may see of an Improv event (the service filters every read with this).

- A face-down card (`card_played`) is its owner's until its round is revealed; then public.
  A card played blind (from an empty managed hand, or the GM's from the top of a managed
  deck) is no one's until then, its owner's neither.
  A conflict the GM abandons turns its face-down cards up.
- Cards drawn into a hand, discarded from one or redrawn are the hand owner's only.
- A shuffled deck's order is no one's: it would tell every future draw (the operator's own
  local view, `viewer` None, is the only exception, as everywhere).
Everything else is public. The GM is a viewer like any other: its face-down cards are hidden
from players, and the players' from it.
"""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.rulesets.improv import events as ev
from tablelog.rulesets.improv.rules.state import GM, ImprovState


def _owner_of_side(state: ImprovState, conflict: str, side: str) -> str | None:
    found = state.conflicts.get(conflict)
    if found is None or side not in found.sides:
        return None
    s = found.sides[side]
    return GM if s.gm or s.player is None else s.player


def _revealed(state: ImprovState, conflict: str, number: int) -> bool:
    if conflict in state.archive:
        return True  # closed: its rounds were revealed, or turned up when it was abandoned
    found = state.conflicts.get(conflict)
    if found is None:
        return False
    return any(r.number == number and r.revealed for r in found.rounds)


def hidden_fields(event: Event, viewer: str, state: ImprovState) -> list[str]:
    """The fields of `event` that `viewer` may not see, given the state now."""
    match event:
        case ev.CardPlayed():
            if _revealed(state, event.conflict, event.round):
                return []
            # Blind (an empty hand, or the GM's from the top of a managed deck: "randomly
            # from the top of the deck"): nobody's until the reveal, its owner's neither.
            if event.unseen or (state.managed and event.from_deck):
                return ["card"]
            owner = _owner_of_side(state, event.conflict, event.side)
            return [] if owner == viewer else ["card"]
        case ev.CardsDrawn() | ev.CardsDiscarded():
            return [] if event.owner == viewer else ["cards"]
        case ev.TokenSpent():
            return [] if event.player == viewer or not event.cards else ["cards"]
        case ev.DeckShuffled():
            return ["order"]
    return []


def hides(state: ImprovState, viewer: str) -> str | None:
    """Why some of this state is hidden from `viewer` (None: it may see all of it).

    A what-if through the service may play on only from such a point: playing on from a
    hidden card or a managed deck would show the caller what it may not see (a reveal, the
    next cards of a deck)."""
    if state.managed:
        return "managed decks hold hands and deck orders"
    for conflict in state.conflicts.values():
        for rnd in conflict.rounds:
            if rnd.revealed:
                continue
            for side in rnd.plays:
                if _owner_of_side(state, conflict.key, side) != viewer:
                    return f"conflict {conflict.key} has face-down cards that are not yours"
    return None
