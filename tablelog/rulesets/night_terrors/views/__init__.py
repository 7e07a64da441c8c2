"""Night Terrors' projections: views for `state` and `show`, words for the log, the audit."""

from __future__ import annotations

from typing import Any

from tablelog.projections.contract import Read, RulesetViews, lazy
from tablelog.rulesets.night_terrors.events import RaiseAnswered, RaiseMade
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState
from tablelog.rulesets.night_terrors.views import (
    awaiting,
    page_actions,
    page_panels,
    text,
    views,
    visibility,
)


def _show_lines(state: NightTerrorsState, view: dict[str, Any]) -> list[str]:
    return text.show_lines(view, text.spellings(state))


VIEWS = RulesetViews[NightTerrorsState](
    state_view=views.state_view,
    state_lines=text.state_lines,
    show_view=views.show,
    show_lines=_show_lines,
    describe=text.describe,
    describe_in=text.describe_in,
    hidden_fields=visibility.hidden_fields,
    hides=visibility.hides,
    kept_at=views.kept_at,
    reads=(
        Read(
            name="hand",
            path="/hands/{character}",
            summary="A character's hand (its player's alone, the GM's for an NPC).",
            run=views.hand,
        ),
    ),
    panels=page_panels.panels,
    awaiting=awaiting.awaiting,
    actions=page_actions.actions,
    # Imported when an audit runs: it brings the rules' checks, which `show` does not need.
    auditor=lazy("tablelog.rulesets.night_terrors.views.audit", "NightTerrorsAuditor"),
    # Cards from a hidden hand are laid on the table.
    reveals=lambda event: isinstance(event, (RaiseMade, RaiseAnswered)),
)
