"""Who the table waits on: the contract's `awaiting`, read the same way for every ruleset.

A ruleset's views may supply `awaiting(state)`: each step the table waits on now, as an
`Await` (who, for which character, what to do, in which conflict, and whether it is only
an option still open). Who must act is public at the table (the page's "not acted yet" line
says it to everyone), so an `Await` says nothing hidden: no card, no hand, no sealed choice.

A ruleset without it gets `generic_awaiting`, worked out from what its contract holds already:
each command a player issues for themselves (the cast's `players`) and each GM command of an
open conflict, tried against the rules (authority and `decide`, nothing appended) with the
values of the ruleset's demo, per open conflict and player. That finds "play a card in d1"
for a simple ruleset; a ruleset whose steps need more than its demo's values says them itself.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import msgspec

from tablelog.errors import TablelogError
from tablelog.projections.await_step import Await
from tablelog.projections.fold import Folded
from tablelog.projections.page import open_conflicts
from tablelog.projections.registry import views_for
from tablelog.projections.views import state_view
from tablelog.rules import registry
from tablelog.rules.common import Command
from tablelog.rules.registry import no_shuffle
from tablelog.rules.table import GM


def awaiting(folded: Folded) -> list[Await]:
    """The steps the table waits on now, for any ruleset, each once, in the ruleset's order."""
    views = views_for(folded.ruleset.name)
    found = views.awaiting(folded.state) if views.awaiting is not None else generic_awaiting(folded)
    return list({a.key(): a for a in found}.values())


def generic_awaiting(folded: Folded) -> list[Await]:
    """Awaits from the contract alone: the cast's commands, tried with the demo's values."""
    rules = folded.ruleset
    examples = _examples(rules.name)
    if not examples:
        return []
    whole = state_view(folded, None)
    conflicts = open_conflicts(whole)
    players = _players(folded, whole)
    cast = rules.cast
    found: list[Await] = []
    for kind, example in examples.items():
        required = {f.name for f in msgspec.structs.fields(kind) if f.required}
        if "conflict" not in required:
            continue  # a step of the table's own (open a conflict): nobody is waited on for it
        words = cast.what.get(kind) or _words(kind.__name__)
        named = cast.players.get(kind)
        if named is None and not cast.gm_issues(kind):
            continue  # whose step it is, the contract does not say
        seats: Iterable[str | None] = players if named is not None else [None]
        for conflict in conflicts:
            for seat in seats:
                changes: dict[str, Any] = {"conflict": conflict}
                if named is not None:
                    changes[named] = seat
                probe = msgspec.structs.replace(example, **changes)
                if not _takes(folded, probe, seat or GM):
                    continue
                found.append(Await(player=seat or GM, what=words, conflict=conflict))
    return found


@functools.cache
def _examples(ruleset: str) -> dict[type[Command], Command]:
    """The first command of each type in the ruleset's demo (built once per process: the
    steps are worked out after every command)."""
    demo = registry.get(ruleset).demo
    examples: dict[type[Command], Command] = {}
    for command in demo().commands if demo is not None else ():
        examples.setdefault(type(command), command)
    return examples


def _players(folded: Folded, whole: dict[str, Any]) -> list[str]:
    """The seats a generic probe tries: the state view's players (a list or a map)."""
    named = whole.get("players", [])
    names = list(named) if isinstance(named, dict | list) else []
    owner = folded.ruleset.cast.owner
    return [str(n) for n in names if owner(folded.state, str(n)) is not None]


def _takes(folded: Folded, probe: Command, seat: str) -> bool:
    rules = folded.ruleset
    caller, role = (rules.cast.gm(folded.state), "gm") if seat == GM else (seat, "player")
    try:
        rules.authorize(folded.state, probe, caller, role)
        rules.decide(folded.state, probe, no_shuffle)
    except TablelogError:
        return False
    return True


def _words(name: str) -> str:
    """A command's class name as words: `RevealRound` is "reveal round"."""
    return "".join(f" {ch.lower()}" if ch.isupper() else ch for ch in name).strip()
