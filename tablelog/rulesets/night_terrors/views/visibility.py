"""What each caller may see of a Night Terrors event (the service filters every read with this).

Hands are hidden: a card drawn or discarded is its character's player's alone (the GM's for an
NPC; the GM also sees draws it records, with option deck=recorded, since it dealt them). The
deck's order is nobody's through the service: it would tell every draw to come. Raises and
answers are played face up, so everything else is public.
"""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.rules.table import GM
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState


def owner(state: NightTerrorsState, character: str) -> str:
    found = state.characters.get(character)
    if found is None or found.player == state.gm:
        return GM
    return found.player


def sees_hand(state: NightTerrorsState, character: str, viewer: str | None) -> bool:
    return viewer is None or owner(state, character) == viewer


def hidden_fields(event: Event, viewer: str, state: NightTerrorsState) -> tuple[str, ...]:
    match event:
        case ev.DeckShuffled():
            return event.hidden
        case ev.CardsDrawn():
            if viewer == GM and state.options.deck == "recorded":
                return ()
            return () if sees_hand(state, event.character_id, viewer) else event.hidden
        case ev.CardsDiscarded():
            return () if sees_hand(state, event.character_id, viewer) else event.hidden
    return ()


def hides(state: NightTerrorsState, viewer: str) -> str | None:
    """Why some of this state is hidden from `viewer` (None: it may see all of it)."""
    for key, character in state.characters.items():
        if character.hand and not sees_hand(state, key, viewer):
            return f"{key}'s hand is hidden"
    if state.shuffled and state.deck:
        return "the deck's order is hidden"
    return None
