"""What a command would do, said before it is sent: the page's guard and preview.

The page asks before an irreversible or costly step (an `Action`'s `confirm` or `preview`),
and shows what the step will do: the command is decided here exactly as the service would
decide it now (authority, then `decide` on the state as it stands), and nothing is appended.
The events it would cause are said in the log's words. Unless the ruleset vouches for the
step (`Action.preview` "own": its outcome depends on nothing hidden from the caller), only
what the whole table will see is said ahead: an event any part of which is hidden from an
observer (a card drawn into a hand, a face-down play) is not said (`hidden`), because before
the step is taken even its own player must not learn from it what the deck holds. A step
whose outcome is drawn at random is not decided here at all (`chance`). And only a form the
caller's page offers as one that asks first (`Action.confirm` or `preview`) is previewed: the
ruleset chooses which steps say what they will do, and no client can ask the service to
decide anything else ahead of time.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import unquote

import msgspec

from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.endpoints import CORE, Endpoint, ruleset_endpoints
from tablelog.commands.page import forms
from tablelog.errors import InvalidInput, TablelogError
from tablelog.events.base import Event
from tablelog.projections.fold import Folded
from tablelog.projections.registry import describe, redact, views_for
from tablelog.projections.views import state_view
from tablelog.rules.common import Clocked, Command


class Preview(msgspec.Struct, frozen=True, kw_only=True):
    """What sending the form now would do: `refused` (the rules' sentence) or `will` (the
    events in words) and `then` (what changes on the table as the preview speaks: `8 -> 6`
    of an Intensity, the tokens left); `hidden`: more happens that the caller sees only once
    it is done; `chance`: what it draws is drawn when it is sent."""

    refused: str | None = None
    will: list[str] = []
    then: list[str] = []
    hidden: bool = False
    chance: bool = False


# Whom a preview speaks as: an observer, who sees what the whole table will see.
_TABLE = "observer:"


class _Chance(Exception):
    """The command wants a shuffle or a roll: a preview never draws one."""


def _no_chance(cards: list[str]) -> list[str]:
    raise _Chance


def _pattern(endpoint: Endpoint) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", endpoint.path)
    text = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{part}>[^/]+)"
        for index, part in enumerate(parts)
    )
    return re.compile(f"^{text}$")


def _endpoint_of(endpoints: Sequence[Endpoint], path: str) -> tuple[Endpoint, dict[str, str]]:
    for endpoint in endpoints:
        found = _pattern(endpoint).match(path)
        if found is not None:
            return endpoint, {k: unquote(v) for k, v in found.groupdict().items()}
    raise InvalidInput(f"no command of this campaign is sent to {path!r}", code="bad-path")


def endpoint_at(ruleset: str, path: str) -> Endpoint:
    """The endpoint a page's form posts to (`path` below the campaign)."""
    return _endpoint_of([*CORE, *ruleset_endpoints(ruleset)], path)[0]


def command_for(ruleset: str, path: str, body: dict[str, Any]) -> Command:
    """The command a page's form would send to `path` (below the campaign) with `body`."""
    endpoint, fields = _endpoint_of([*CORE, *ruleset_endpoints(ruleset)], path)
    try:
        data = msgspec.convert(body, endpoint.body)
        command = endpoint.command_of(data, fields)
    except msgspec.ValidationError as exc:
        raise InvalidInput(f"the form does not make a command: {exc}", code="bad-body") from None
    if isinstance(command, Clocked):  # decided at the service's clock, as when sent
        command = msgspec.structs.replace(command, now=time.time_ns() // 1000)
    return command


def preview(store: Any, campaign: str, caller: Caller, path: str, body: dict[str, Any]) -> Preview:
    """What the form would do if sent now by `caller` (nothing is appended)."""
    with state.reading(store, campaign, head=caller.head) as folded:
        guarded = {f.path: f.preview for f in forms(folded, caller) if f.confirm or f.preview}
        if path not in guarded:
            return Preview(
                refused="no-preview: this step is sent as it is; the page offers no preview of it"
            )
        # Whom it speaks as: the table, unless the ruleset vouched that the step's outcome
        # depends on nothing hidden from the caller (`Action.preview` "own").
        speaks_as = caller.viewer if guarded[path] == "own" else _TABLE
        try:
            command = command_for(folded.ruleset.name, path, body)
            folded.ruleset.authorize(folded.state, command, caller.player, caller.role)
            events = folded.ruleset.decide(folded.state, command, _no_chance)
        except _Chance:
            return Preview(chance=True)
        except TablelogError as exc:
            return Preview(refused=str(exc))  # `code: sentence`, as a sent step's refusal
        views = views_for(folded.ruleset.name)
        will: list[str] = []
        hidden = False
        for event in events:
            if redact(views, event, speaks_as, folded.state) is not None:
                hidden = True  # the caller would not see it whole: not said ahead
                continue
            will.append(describe(event, folded.state))
        return Preview(will=will, then=_changes(folded, events, speaks_as), hidden=hidden)


CHANGES = 8  # the most a preview lists: a step changes a few things


def _changes(folded: Folded, events: Sequence[Event], viewer: str) -> list[str]:
    """What the table would show otherwise once the events are in, as `viewer` sees the
    state (`state --json`'s view, filtered for it): each value that changes, by its place."""
    after = copy.deepcopy(folded.state)
    for event in events:
        after = folded.ruleset.evolve(after, event)
    before_view = state_view(folded, viewer)
    after_view = state_view(Folded(folded.campaign, folded.ruleset, after, folded.seq), viewer)
    found = [
        f"{' / '.join(path)}: {_shown(old)} → {_shown(new)}"
        for path, old, new in _diff((), before_view, after_view)
        # A conflict's own changes are in the events' words already.
        if path[-1:] != ("seq",) and "conflicts" not in path
    ]
    return found[:CHANGES]


def _diff(path: tuple[str, ...], old: Any, new: Any) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key in new:
                yield from _diff((*path, str(key)), old[key], new[key])
        return
    if old != new and _counted(old) and _counted(new):
        yield path, old, new


def _counted(value: Any) -> bool:
    """A count (tokens, Intensity, HP, MP, a pool): what a costly step spends and leaves.
    Anything else a step changes is in the events' words already."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    return str(value)
