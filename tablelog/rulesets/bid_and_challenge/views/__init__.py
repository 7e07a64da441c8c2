"""Bid & Challenge's projections: views for `state` and `show`, words for the log, the audit.

Nothing is hidden in this ruleset (cards go into Play face up, rolls are public): every viewer
sees the same thing, so `hidden_fields` and `hides` have nothing to say. The web page's panels
and actions are in `page_panels` and `page_actions`.
"""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.projections.contract import RulesetViews, lazy
from tablelog.rulesets.bid_and_challenge.events import DiceRolled
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState
from tablelog.rulesets.bid_and_challenge.views import (
    awaiting,
    page_actions,
    page_panels,
    text,
    views,
)


def _hidden_fields(event: Event, viewer: str, state: BidAndChallengeState) -> tuple[str, ...]:
    return ()


def _hides(state: BidAndChallengeState, viewer: str) -> str | None:
    return None


VIEWS = RulesetViews[BidAndChallengeState](
    state_view=views.state_view,
    state_lines=text.state_lines,
    show_view=views.show,
    show_lines=text.show_lines,
    describe=text.describe,
    hidden_fields=_hidden_fields,
    hides=_hides,
    # Imported when an audit runs: it brings the rules' resolution, which `show` does not need.
    kept_at=views.kept_at,
    auditor=lazy("tablelog.rulesets.bid_and_challenge.views.audit", "BidAndChallengeAuditor"),
    panels=page_panels.panels,
    awaiting=awaiting.awaiting,
    actions=page_actions.actions,
    # Nothing is hidden here but what the dice will say.
    reveals=lambda event: isinstance(event, (DiceRolled,)),
)
