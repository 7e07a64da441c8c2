"""Autocomplete (type 4 interactions): what the caller could type into an option now, from
the caller's own view alone: the forms their page offers (the conflicts they act in, their
sides, the cards in their hand, their talents), never another seat's hidden cards.

Which command field an option fills is found by asking the CLI itself: the slash command is
parsed with a marker in the focused option, and the field of the parsed command that holds
the marker is the one whose choices the caller's forms list."""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.database import EventStore
from tablelog.commands.page import Form, page_of
from tablelog.commands.preview import endpoint_at
from tablelog.discord.argv import collect
from tablelog.discord.tree import INTEGER, NUMBER, Option, Sub, sub_of
from tablelog.errors import TablelogError
from tablelog.projections.views import state_view
from tablelog.rules.common import Command

MAX_CHOICES = 25
_MARK = "zqxmarkqz"


def _conflicts(store: EventStore, campaign: str, caller: Caller) -> list[tuple[str, str]]:
    with state.reading(store, campaign) as folded:
        view = state_view(folded, caller.viewer)
    conflicts = view.get("conflicts") or {}
    keys = conflicts if isinstance(conflicts, dict) else {}
    # The open ones first: what a command is most likely about.
    ordered = sorted(keys, key=lambda k: (keys[k].get("status") != "open", str(k)))
    return [(str(k), f"{k} ({keys[k].get('status', '')})") for k in ordered]


def _placeholder(option: Option) -> Any:
    if option.type in (INTEGER, NUMBER):
        return 1
    return "x"


def _field_of(ruleset: str, sub: Sub, given: dict[str, Any], focused: str) -> tuple[Command, str]:
    """(the command as parsed so far, the command field) the focused option fills, as the
    CLI parses it; LookupError when the CLI does not tell."""
    option = next((o for o in sub.options if o.name == focused), None)
    if option is None or option.type != 3:
        raise LookupError(focused)
    trial = {o.name: _placeholder(o) for o in sub.options if o.required}
    trial.update({k: v for k, v in given.items() if k != focused})
    trial[focused] = _MARK
    try:
        commands = collect(ruleset, sub, trial)
    except TablelogError:
        raise LookupError(focused) from None
    for command in commands:
        for name, value in msgspec.structs.asdict(command).items():
            if value == _MARK or (isinstance(value, list) and _MARK in value):
                return command, name
    raise LookupError(focused)


def _from_forms(forms: list[Form], field: str, conflict: str | None) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for form in forms:
        if conflict is not None and form.conflict not in (None, conflict):
            continue
        fixed = form.fixed.get(field)
        if isinstance(fixed, str):
            found.setdefault(fixed, fixed)
        for f in form.fields:
            if f.name != field:
                continue
            shown = f.shown if len(f.shown) == len(f.choices) else f.choices
            for value, words in zip(f.choices, shown, strict=True):
                found.setdefault(value, words if words == value else f"{value} ({words})")
    return list(found.items())


def choices(
    store: EventStore,
    campaign: str,
    caller: Caller,
    group: str | None,
    name: str,
    given: dict[str, Any],
    focused: str,
    typed: str,
) -> list[dict[str, str]]:
    """Discord's autocomplete choices for the focused option (at most 25)."""
    found: list[tuple[str, str]] = []
    if group is None:
        if name == "show" and focused == "conflict":
            found = _conflicts(store, campaign, caller)
    else:
        found = _ruleset_choices(store, campaign, caller, group, name, given, focused)
    needle = typed.strip().casefold()
    kept = [(v, s) for v, s in found if needle in v.casefold() or needle in s.casefold()]
    return [{"name": s[:100], "value": v[:100]} for v, s in kept[:MAX_CHOICES]]


def _ruleset_choices(
    store: EventStore,
    campaign: str,
    caller: Caller,
    group: str,
    name: str,
    given: dict[str, Any],
    focused: str,
) -> list[tuple[str, str]]:
    page = page_of(store, campaign, caller, head=store.head(campaign))
    sub = sub_of(page.ruleset, name) if group == page.ruleset else None
    if sub is None:
        return []
    try:
        command, field = _field_of(page.ruleset, sub, given, focused)
    except LookupError:
        return []
    forms = [f for f in page.forms if endpoint_at(page.ruleset, f.path).command is type(command)]
    path_fields = endpoint_at(page.ruleset, forms[0].path).path_fields if forms else ()
    if field in path_fields:
        # The conflict a command is about: those the caller's forms act in.
        return [(c, c) for c in dict.fromkeys(f.conflict for f in forms if f.conflict)]
    # Narrowed to the conflict already given (a path field the caller typed).
    typed = set(map(str, given.values()))
    conflict = next(
        (str(getattr(command, p)) for p in path_fields if str(getattr(command, p)) in typed),
        None,
    )
    return _from_forms(forms, field, conflict)
