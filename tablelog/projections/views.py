"""Views of a folded campaign, through its ruleset's projections (see `registry`)."""

from __future__ import annotations

from typing import Any

from tablelog.errors import TablelogError
from tablelog.projections.fold import Folded
from tablelog.projections.registry import views_for


def state_view(folded: Folded, viewer: str | None = None) -> dict[str, Any]:
    """`state --json`: the keys every ruleset shares, then the ruleset's own."""
    table = folded.ruleset.table(folded.state)
    own = views_for(folded.ruleset.name).state_view(folded.state, viewer)
    return {
        "campaign": folded.campaign,
        "ruleset": folded.ruleset.name,
        "seq": folded.seq,
        "session": table.session,
        "session_open": table.session_open,
        "scene": table.scene if table.scene_open else None,
        **own,
    }


def show_view(
    folded: Folded, conflict: str | None, viewer: str | None
) -> tuple[dict[str, Any], list[str]]:
    """A conflict round by round, as a view and as lines of text."""
    views = views_for(folded.ruleset.name)
    view = views.show_view(folded.state, conflict, viewer)
    return view, views.show_lines(folded.state, view)


def conflict_lines(folded: Folded, conflict: str, viewer: str | None = None) -> list[str]:
    """A conflict as text (for replay), or nothing when the state holds no such conflict."""
    try:
        return show_view(folded, conflict, viewer)[1]
    except TablelogError:
        return []
