"""Each ruleset's projections, found by convention: `tablelog.projections.<ruleset>` exposes
`VIEWS`, a `RulesetViews`. Core commands (log, replay, audit, exports) go through here and never
name a ruleset; an event's ruleset is the module that defines its type.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tablelog.events.base import Event
from tablelog.events.core import AccessReissued, CampaignCreated
from tablelog.projections.account import Account, AuditSteps


@dataclass(frozen=True)
class RulesetViews:
    """What a ruleset's projections supply; `state` is the ruleset's own state type."""

    state_view: Callable[[Any, int, str | None], dict[str, Any]]
    conflict_lines: Callable[[Any, str, str | None], list[str]]
    describe: Callable[[Event], str]
    # The account of a walk over the whole log; with a conflict key (`scope`), of that
    # conflict and the campaign-wide events only (the others are folded, not explained).
    audit: Callable[[str, AuditSteps, Callable[[], Any], str | None], Account]
    # The payload as a viewer (a player key, or `gm`) may see it given the state now, or None
    # when nothing in it is hidden from that viewer.
    redact: Callable[[Event, str, Any], dict[str, Any] | None]
    # Why a state hides something from a viewer, or None when it hides nothing.
    hides: Callable[[Any, str], str | None]
    # `state` as lines of text, from the view `state_view` gave (local or from the service).
    state_lines: Callable[[dict[str, Any]], list[str]]


_LOADED: dict[str, RulesetViews] = {}


def views_for(ruleset: str) -> RulesetViews:
    found = _LOADED.get(ruleset)
    if found is None:
        module = importlib.import_module(f"tablelog.projections.{ruleset.replace('-', '_')}")
        found = module.VIEWS
        if not isinstance(found, RulesetViews):
            raise TypeError(f"{module.__name__}.VIEWS is not a RulesetViews")
        _LOADED[ruleset] = found
    return found


def reissued_text(event: AccessReissued, seq: int | None = None) -> str:
    """`the GM re-issued bob's access [at seq N]: 1 earlier token(s) of theirs stopped working`"""
    who = "the GM" if event.by == "gm" else "the operator (on the database)"
    role = "" if event.role == "player" else f" ({event.role})"
    at = "" if seq is None else f" at seq {seq}"
    earlier = (
        "no earlier token of theirs was live"
        if event.revoked == 0
        else f"{event.revoked} earlier token(s) of theirs stopped working"
    )
    return f"{who} re-issued {event.player}'s access{role}{at}: {earlier}"


def describe(event: Event) -> str:
    """One line of words for any event."""
    if isinstance(event, CampaignCreated):
        return f"campaign {event.campaign} created ({event.ruleset}, GM {event.gm})"
    if isinstance(event, AccessReissued):
        return reissued_text(event)
    # A ruleset's events live in `tablelog.events.<module>`, its views in
    # `tablelog.projections.<module>`, whatever the prefix of its event types.
    module = type(event).__module__.rsplit(".", 1)[-1]
    try:
        views = views_for(module.replace("_", "-"))
    except ModuleNotFoundError:
        return event.type_name()
    return views.describe(event)
