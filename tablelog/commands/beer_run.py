"""Beer Run's own read: a conflict round by round, as a viewer may see it."""

from __future__ import annotations

from tablelog.commands import state
from tablelog.commands.reads import Shown
from tablelog.errors import InvalidInput
from tablelog.projections.beer_run.text import conflict_lines
from tablelog.projections.beer_run.views import show_view
from tablelog.rules.beer_run import flow
from tablelog.rules.beer_run.state import BeerRunState
from tablelog.storage import EventStore


def show(store: EventStore, campaign: str, conflict: str | None, viewer: str | None) -> Shown:
    with state.reading(store, campaign) as folded:
        if not isinstance(folded.state, BeerRunState):
            raise InvalidInput(f"campaign {campaign} does not play beer-run", code="wrong-ruleset")
        view = show_view(folded.state, flow.conflict(folded.state, conflict), viewer)
    return Shown(view=view, lines=conflict_lines(view))
