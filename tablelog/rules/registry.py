"""The rulesets tablelog knows, by name. The only place that names them.

Each ruleset module exposes `RULESET`, a `Ruleset`; modules are imported on first use so a
command pays only for the ruleset it touches.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import msgspec

from tablelog.errors import InvalidInput

_MODULES: dict[str, str] = {
    "improv": "tablelog.rules.improv",
}


@dataclass(frozen=True)
class Ruleset:
    name: str
    options_type: type[msgspec.Struct]


def get(name: str) -> Ruleset:
    key = name.strip().lower()
    module_name = _MODULES.get(key)
    if module_name is None:
        raise InvalidInput(
            f"there is no ruleset {name!r}; choose one of {', '.join(_MODULES)}",
            code="unknown-ruleset",
        )
    ruleset = importlib.import_module(module_name).RULESET
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{module_name}.RULESET is not a Ruleset")
    return ruleset
