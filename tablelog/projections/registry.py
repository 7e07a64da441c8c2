"""Each ruleset's views (`VIEWS`), loaded from the module `tablelog.rulesets` names, and the
reads every ruleset shares through them: an event's words and its payload as a viewer sees it.
"""

from __future__ import annotations

import importlib
from typing import Any

import msgspec

from tablelog import rulesets
from tablelog.events.base import Event
from tablelog.events.core import (
    AccessLinked,
    AccessReissued,
    AccessRevoked,
    CampaignCreated,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
)
from tablelog.events.rng import hidden_fields as rng_hidden
from tablelog.projections.contract import RulesetViews
from tablelog.projections.rng_text import rng_text

_LOADED: dict[str, RulesetViews[Any]] = {}


def views_for(ruleset: str) -> RulesetViews[Any]:
    found = _LOADED.get(ruleset)
    if found is None:
        place = rulesets.place(ruleset)
        if place is None:
            raise LookupError(f"there is no ruleset {ruleset!r}")
        found = importlib.import_module(place.views).VIEWS
        if not isinstance(found, RulesetViews):
            raise TypeError(f"{place.views}.VIEWS is not a RulesetViews")
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


def revoked_text(event: AccessRevoked, seq: int | None = None) -> str:
    """`the GM revoked bob's access [at seq N]: 2 token(s) stopped working`"""
    who = "the GM" if event.by == "gm" else "the operator (on the database)"
    at = "" if seq is None else f" at seq {seq}"
    return f"{who} revoked {event.player}'s access{at}: {event.revoked} token(s) stopped working"


def linked_text(event: AccessLinked) -> str:
    """`the GM linked a Discord account to bob's seat; the one linked before no longer acts`"""
    who = {"gm": "the GM", "operator": "the operator (on the database)"}.get(event.by, event.player)
    said = f"{who} linked a Discord account to {event.player}'s seat"
    if event.replaced:
        said += "; the account linked before no longer acts for it"
    return said


def describe(event: Event, state: Any = None) -> str:
    """One line of words for any event: the core's own, or its ruleset's (given the
    campaign's `state` when the caller has it: `RulesetViews.describe_in`)."""
    match event:
        case CampaignCreated():
            return f"campaign {event.campaign} created ({event.ruleset}, GM {event.gm})"
        case SessionStarted():
            return f"session {event.session} started"
        case SessionEnded():
            return f"session {event.session} ended"
        case SceneStarted():
            title = f": {event.title}" if event.title else ""
            return f"scene {event.scene} started{title}"
        case SceneEnded():
            return f"scene {event.scene} ended"
        case AccessReissued():
            return reissued_text(event)
        case AccessRevoked():
            return revoked_text(event)
        case AccessLinked():
            return linked_text(event)
    told = rng_text(event)
    if told is not None:
        return told
    # A ruleset's events are defined in the events module its Place names.
    module = type(event).__module__
    place = next((p for p in rulesets.places() if p.events == module), None)
    if place is None:
        return event.type_name()
    views = views_for(place.name)
    if state is not None and views.describe_in is not None:
        return views.describe_in(event, state)
    return views.describe(event)


HIDDEN = None  # what a hidden field holds in a filtered payload


def redact(
    views: RulesetViews[Any], event: Event, viewer: str, state: Any
) -> dict[str, Any] | None:
    """The payload as `viewer` may see it given the state now, or None when it may see all of
    it: the ruleset's hidden fields blanked, and the salt with them (with it, the stored hash
    would give the hidden value away)."""
    hidden = rng_hidden(event) if event.beside_table else views.hidden_fields(event, viewer, state)
    if not hidden:
        return None
    payload = msgspec.to_builtins(event)
    assert isinstance(payload, dict)
    for name in (*hidden, "salt"):
        if name in payload:
            payload[name] = HIDDEN
    return payload
