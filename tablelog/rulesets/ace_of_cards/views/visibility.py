"""What each caller may see of an Ace of Cards event (the service filters every read with it).

While a conflict is open, a deck's order is nobody's to see (the cards lie face down), and a
card drawn is its Ace's player's alone (the hand is private unless shown). Everything played
(a set, a discard, a Trap Card's bottom card) is face up and public. Once the conflict ends
and the cards are put away, its draws and shuffles are open to all, so any outcome can be
audited. The GM is a viewer like any other.
"""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.rules.table import GM
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules.state import AceState


def owner(state: AceState, character: str) -> str:
    found = state.characters.get(character)
    if found is None or found.player == state.gm:
        return GM
    return found.player


def _open(state: AceState, conflict: str) -> bool:
    found = state.conflicts.get(conflict)
    return found is not None and found.status == "open"


def sees_hand(state: AceState, character: str, viewer: str | None) -> bool:
    return viewer is None or owner(state, character) == viewer


def hidden_fields(event: Event, viewer: str, state: AceState) -> tuple[str, ...]:
    """The fields of `event` that `viewer` may not see, given the state now."""
    match event:
        case ev.DeckShuffled() | ev.DiscardShuffledIntoDeck():
            return event.hidden if _open(state, event.conflict) else ()
        case ev.CardsDrawn() | ev.MulliganTaken() | ev.HighOrLowUsed():
            if _open(state, event.conflict) and not sees_hand(state, event.character_id, viewer):
                return event.hidden
    return ()


def hides(state: AceState, viewer: str) -> str | None:
    """Why some of this state is hidden from `viewer` (None: it may see all of it)."""
    for conflict in state.open_conflicts():
        for key in conflict.party:
            if state.characters[key].pile is not None:
                return f"conflict {conflict.key} has decks face down and hands not all yours"
    return None
