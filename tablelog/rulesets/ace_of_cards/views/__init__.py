"""Ace of Cards' projections: views for `state` and `show`, words for the log, the audit."""

from __future__ import annotations

from typing import Any

from tablelog.projections.contract import Read, RulesetViews, lazy
from tablelog.rulesets.ace_of_cards.events import MagicCardsUsed, TrapCardRevealed
from tablelog.rulesets.ace_of_cards.rules.state import AceState
from tablelog.rulesets.ace_of_cards.views import (
    awaiting,
    page_actions,
    page_panels,
    text,
    views,
    visibility,
)


def _show_lines(state: AceState, view: dict[str, Any]) -> list[str]:
    return text.conflict_lines(view)


VIEWS = RulesetViews[AceState](
    state_view=views.state_view,
    state_lines=text.state_lines,
    show_view=views.show,
    show_lines=_show_lines,
    describe=text.describe,
    hidden_fields=visibility.hidden_fields,
    hides=visibility.hides,
    # Imported when an audit runs: it brings the rules' checks, which `show` does not need.
    auditor=lazy("tablelog.rulesets.ace_of_cards.views.audit", "AceAuditor"),
    reads=(
        Read(
            name="hand",
            path="/hands/{who}",
            summary="An Ace's hand, deck size and discard pile (its player's to see only).",
            run=views.hand,
        ),
    ),
    panels=page_panels.panels,
    awaiting=awaiting.awaiting,
    actions=page_actions.actions,
    # Magic cards from a hidden hand are played face up; a trap card is turned over.
    reveals=lambda event: isinstance(event, (MagicCardsUsed, TrapCardRevealed)),
)
