"""Improv's own reads: a conflict round by round, and a managed hand (its owner's only)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tablelog.commands import state
from tablelog.commands.reads import Shown
from tablelog.errors import Forbidden, InvalidInput
from tablelog.projections.improv.text import conflict_text
from tablelog.projections.improv.views import hand_view, show_view
from tablelog.rules.improv import lookup
from tablelog.rules.improv.state import GM, ImprovState
from tablelog.storage import EventStore


@contextmanager
def improv_state(store: EventStore, campaign: str) -> Iterator[ImprovState]:
    """The campaign's Improv state, valid inside the block (see `state.reading`)."""
    with state.reading(store, campaign) as folded:
        if not isinstance(folded.state, ImprovState):
            raise InvalidInput(f"campaign {campaign} does not play improv", code="wrong-ruleset")
        yield folded.state


def show(store: EventStore, campaign: str, conflict: str | None, viewer: str | None) -> Shown:
    with improv_state(store, campaign) as found_state:
        record = lookup.archived(found_state, conflict)
        if record is None:
            found = lookup.conflict(found_state, conflict, open_only=False)
            view = show_view(found_state, found, viewer)
            return Shown(view=view, lines=conflict_text(found_state, found, view))
    # Rebuilt from the log as it stood when the conflict closed (from the snapshot before).
    then = state.state_at(store, campaign, record.closed_at).state
    assert isinstance(then, ImprovState)
    whole = then.conflicts[record.key]
    view = show_view(then, whole, viewer)
    return Shown(view=view, lines=conflict_text(then, whole, view))


def hand(store: EventStore, campaign: str, who: str, viewer: str | None) -> dict[str, Any]:
    """A hand, shown only to its owner (`viewer` None: the local operator sees any)."""
    with improv_state(store, campaign) as found_state:
        if not found_state.managed:
            raise InvalidInput(
                "hands are tracked only with --deck-mode managed", code="not-managed"
            )
        owner = lookup.player(found_state, who)
        if viewer is not None and viewer != owner:
            whose = "the GM's" if owner == GM else f"{owner}'s"
            raise Forbidden(f"{whose} hand is visible to its owner only", code="not-yours")
        return hand_view(found_state, owner)
