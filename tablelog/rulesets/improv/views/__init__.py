"""Improv's projections: views for `state` and `show`, words for the log, the audit."""

from __future__ import annotations

from typing import Any

from tablelog.projections.contract import Read, RulesetViews, lazy
from tablelog.rulesets.improv.events import RoundRevealed
from tablelog.rulesets.improv.rules.state import ImprovState
from tablelog.rulesets.improv.views import (
    awaiting,
    page_actions,
    page_panels,
    text,
    views,
    visibility,
)


def _show_lines(state: ImprovState, view: dict[str, Any]) -> list[str]:
    return text.conflict_text(state, state.conflicts[view["conflict"]], view)


VIEWS = RulesetViews[ImprovState](
    state_view=views.state_view,
    state_lines=text.state_lines,
    show_view=views.show,
    show_lines=_show_lines,
    kept_at=views.kept_at,
    describe=text.describe,
    hidden_fields=visibility.hidden_fields,
    hides=visibility.hides,
    # Imported when an audit runs: it brings the rules' checks, which `show` does not need.
    auditor=lazy("tablelog.rulesets.improv.views.audit", "ImprovAuditor"),
    panels=page_panels.panels,
    actions=page_actions.actions,
    reads=(
        Read(
            name="hand",
            path="/hands/{who}",
            summary="Managed decks: the caller's own hand (`who` is the caller, or gm for the GM).",
            run=views.hand,
        ),
    ),
    # A round's face-down cards are turned over.
    awaiting=awaiting.awaiting,
    reveals=lambda event: isinstance(event, (RoundRevealed,)),
)
