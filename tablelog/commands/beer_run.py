"""Beer Run's own read: a conflict round by round, as a viewer may see it."""

from __future__ import annotations

from tablelog.commands.reads import Shown
from tablelog.commands.table import campaign_state
from tablelog.errors import InvalidInput
from tablelog.projections.beer_run.text import conflict_lines
from tablelog.projections.beer_run.views import show_view
from tablelog.rules.beer_run import flow
from tablelog.rules.beer_run.state import BeerRunState
from tablelog.storage import EventStore


def beer_run_state(store: EventStore, campaign: str) -> BeerRunState:
    folded = campaign_state(store, campaign)
    if not isinstance(folded.state, BeerRunState):
        raise InvalidInput(f"campaign {campaign} does not play beer-run", code="wrong-ruleset")
    return folded.state


def show(store: EventStore, campaign: str, conflict: str | None, viewer: str | None) -> Shown:
    state = beer_run_state(store, campaign)
    view = show_view(state, flow.conflict(state, conflict), viewer)
    return Shown(view=view, lines=conflict_lines(view))
