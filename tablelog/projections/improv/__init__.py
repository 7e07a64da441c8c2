"""Improv's projections: views for `state` and `show`, words for the log, the audit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.projections.account import Account, AuditSteps
from tablelog.projections.improv import text, views, visibility
from tablelog.projections.registry import RulesetViews


def _state_view(state: Any, seq: int, viewer: str | None) -> dict[str, Any]:
    return views.state_view(state, seq, viewer)


def _conflict_lines(state: Any, conflict: str, viewer: str | None) -> list[str]:
    found = state.conflicts.get(conflict)
    if found is None:
        return []
    return text.conflict_text(state, found, views.show_view(state, found, viewer))


def _audit(
    campaign: str, steps: AuditSteps, progress: Callable[[], Any], scope: str | None
) -> Account:
    # Imported when an audit runs: it brings the rules' checks, which `show` does not need.
    from tablelog.projections.improv import audit

    return audit.audit(campaign, steps, progress, scope)


VIEWS = RulesetViews(
    state_view=_state_view,
    conflict_lines=_conflict_lines,
    describe=text.describe,
    audit=_audit,
    redact=visibility.redact,
    hides=visibility.hides,
    state_lines=text.state_lines,
)
