"""Views of a folded campaign, through its ruleset's projections (see `registry`)."""

from __future__ import annotations

from typing import Any

from tablelog.projections.fold import Folded
from tablelog.projections.registry import views_for


def state_view(folded: Folded, viewer: str | None = None) -> dict[str, Any]:
    return views_for(folded.ruleset.name).state_view(folded.state, folded.seq, viewer)


def conflict_lines(folded: Folded, conflict: str, viewer: str | None = None) -> list[str]:
    """A conflict as text (for replay), or nothing when the ruleset has no such conflict."""
    return views_for(folded.ruleset.name).conflict_lines(folded.state, conflict, viewer)
