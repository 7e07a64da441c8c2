"""Beer Run's projections: views for `state` and `show`, words for the log, the audit."""

from __future__ import annotations

from typing import Any

from tablelog.projections.contract import RulesetViews, lazy
from tablelog.rulesets.beer_run.events import PoolOpened, PoolRolled
from tablelog.rulesets.beer_run.rules.state import BeerRunState
from tablelog.rulesets.beer_run.views import awaiting, page, page_panels, text, views, visibility


def _show_lines(state: BeerRunState, view: dict[str, Any]) -> list[str]:
    return text.conflict_lines(view)


VIEWS = RulesetViews[BeerRunState](
    state_view=views.state_view,
    state_lines=text.state_lines,
    show_view=views.show,
    show_lines=_show_lines,
    describe=text.describe,
    hidden_fields=visibility.hidden_fields,
    hides=visibility.hides,
    # Imported when an audit runs: it brings the rules' checks, which `show` does not need.
    auditor=lazy("tablelog.rulesets.beer_run.views.audit", "BeerRunAuditor"),
    panels=page_panels.panels,
    actions=page.actions,
    awaiting=awaiting.awaiting,
    # A sealed pool is opened; an assembled pool, hidden until then, is rolled.
    reveals=lambda event: isinstance(event, (PoolOpened, PoolRolled)),
)
