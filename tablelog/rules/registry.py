"""Each ruleset's rules (`RULESET`), loaded from the module `tablelog.rulesets` names.

Modules are imported on first use, so a command pays only for the ruleset it touches.
"""

from __future__ import annotations

import importlib
from typing import Any

from tablelog import rulesets
from tablelog.errors import InvalidInput
from tablelog.rules.common import Command
from tablelog.rules.contract import Ruleset, Shuffle

__all__ = ["Ruleset", "Shuffle", "get", "names", "no_shuffle", "owner_of"]


def no_shuffle(cards: list[str]) -> list[str]:
    """A shuffle that keeps the order: for decisions that must not depend on a new shuffle
    (re-deciding a stored event, a join), whose draws are their own events."""
    return list(cards)


def get(name: str) -> Ruleset[Any]:
    """The ruleset called `name`; InvalidInput naming the known ones otherwise."""
    place = rulesets.place(name)
    if place is None:
        raise InvalidInput(
            f"there is no ruleset {name!r}; choose one of {', '.join(rulesets.names())}",
            code="unknown-ruleset",
        )
    # Looked up each time (the module itself is imported once): a test may swap RULESET.
    found = importlib.import_module(place.rules).RULESET
    if not isinstance(found, Ruleset) or found.name != place.name:
        raise TypeError(f"{place.rules}.RULESET is not the Ruleset {place.name!r}")
    return found


def names() -> list[str]:
    """Every ruleset tablelog knows, the primary one first."""
    return rulesets.names()


def owner_of(command: Command) -> str | None:
    """The ruleset whose command this is (loading each in turn: for a refusal's sentence)."""
    for name in rulesets.names():
        if get(name).takes(command):
            return name
    return None
