"""Which projection module renders each ruleset's state (the projections' registry)."""

from __future__ import annotations

from typing import Any

from tablelog.projections.fold import Folded


def state_view(folded: Folded, viewer: str | None = None) -> dict[str, Any]:
    if folded.ruleset.name == "improv":
        from tablelog.projections import improv

        return improv.state_view(folded.state, folded.seq, viewer)
    return {"campaign": folded.campaign, "ruleset": folded.ruleset.name, "seq": folded.seq}


def conflict_lines(folded: Folded, conflict: str) -> list[str]:
    """A conflict as text (for replay), or nothing when the ruleset has no such conflict."""
    if folded.ruleset.name == "improv":
        from tablelog.projections import improv, improv_text

        found = folded.state.conflicts.get(conflict)
        if found is None:
            return []
        return improv_text.conflict_text(folded.state, found, improv.show_view(folded.state, found))
    return []
