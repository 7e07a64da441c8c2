"""Improv's own reads: a conflict round by round, and a managed hand (its owner's only)."""

from __future__ import annotations

from typing import Any

from tablelog.commands.reads import Shown
from tablelog.commands.table import campaign_state
from tablelog.errors import Forbidden, InvalidInput
from tablelog.projections.improv.text import conflict_text
from tablelog.projections.improv.views import hand_view, show_view
from tablelog.rules.improv import lookup
from tablelog.rules.improv.state import GM, ImprovState
from tablelog.storage import EventStore


def improv_state(store: EventStore, campaign: str) -> ImprovState:
    folded = campaign_state(store, campaign)
    if not isinstance(folded.state, ImprovState):
        raise InvalidInput(f"campaign {campaign} does not play improv", code="wrong-ruleset")
    return folded.state


def show(store: EventStore, campaign: str, conflict: str | None, viewer: str | None) -> Shown:
    state = improv_state(store, campaign)
    found = lookup.conflict(state, conflict, open_only=False)
    view = show_view(state, found, viewer)
    return Shown(view=view, lines=conflict_text(state, found, view))


def hand(store: EventStore, campaign: str, who: str, viewer: str | None) -> dict[str, Any]:
    """A hand, shown only to its owner (`viewer` None: the local operator sees any)."""
    state = improv_state(store, campaign)
    if not state.managed:
        raise InvalidInput("hands are tracked only with --deck-mode managed", code="not-managed")
    owner = lookup.player(state, who)
    if viewer is not None and viewer != owner:
        whose = "the GM's" if owner == GM else f"{owner}'s"
        raise Forbidden(f"{whose} hand is visible to its owner only", code="not-yours")
    return hand_view(state, owner)
