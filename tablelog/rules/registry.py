"""The rulesets tablelog knows, by name. The only place that names them.

Each ruleset module exposes `RULESET`, a `Ruleset`; modules are imported on first use so a
command pays only for the ruleset it touches.
"""

from __future__ import annotations

import collections
import importlib
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from tablelog.errors import InvalidInput
from tablelog.events.base import Event
from tablelog.events.core import CampaignCreated

_MODULES: dict[str, str] = {
    "improv": "tablelog.rules.improv",
    "beer-run": "tablelog.rules.beer_run",
}


Shuffle = Callable[[list[str]], list[str]]


def no_shuffle(cards: list[str]) -> list[str]:
    """A shuffle that keeps the order: for decisions that must not depend on a new shuffle
    (re-deciding a stored event, a join), whose draws are their own events."""
    return list(cards)


@dataclass(frozen=True)
class Ruleset:
    """What a ruleset supplies. State is the ruleset's own type, opaque to core code."""

    name: str
    options_type: type[msgspec.Struct]
    initial: Callable[[CampaignCreated], Any]
    evolve: Callable[[Any, Event], Any]
    decide: Callable[[Any, Any, Shuffle], list[Event]]
    actor: Callable[[Any, Event], str]
    # Through the service: refuse (Forbidden) a command the caller (player key, role) may not
    # issue. Role is gm, player or observer.
    authorize: Callable[[Any, Any, str, str], None]
    # The state's type (dataclasses and Structs msgspec can encode) and the version of what
    # `evolve` builds: snapshots of another version are not used. Bump it whenever evolve or
    # the state's shape changes.
    state_type: type
    version: int = 1
    # A new campaign's options, beyond their types: refuse (InvalidInput) what the ruleset
    # could not play with. Not applied to a campaign already in a log.
    check_options: Callable[[Any], None] | None = None

    @property
    def projection(self) -> str:
        return f"{self.name}:{self.version}"

    def encode_state(self, state: Any) -> bytes:
        return _STATE_ENCODER.encode(state)

    def decode_state(self, data: bytes) -> Any:
        """The state a snapshot holds; ValueError when it cannot be read back."""
        try:
            return msgspec.msgpack.decode(data, type=self.state_type, dec_hook=_state_hook)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise ValueError(str(exc)) from None


_STATE_ENCODER = msgspec.msgpack.Encoder()


def _state_hook(kind: Any, value: Any) -> Any:
    # States count talent uses in a Counter, which msgspec stores as a map.
    if (typing.get_origin(kind) or kind) is collections.Counter:
        return collections.Counter(value)
    raise NotImplementedError(f"cannot decode {kind}")


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


def ruleset_of(command: object) -> str | None:
    """The ruleset a command belongs to (by the package that defines it), or None for the
    commands every ruleset answers (`tablelog.rules.common`)."""
    parts = type(command).__module__.split(".")
    if len(parts) > 3 and parts[:2] == ["tablelog", "rules"]:
        module = parts[2]
        return next((n for n, m in _MODULES.items() if m == f"tablelog.rules.{module}"), module)
    return None


def names() -> list[str]:
    """Every ruleset tablelog knows."""
    return list(_MODULES)
