"""The rules half of the ruleset contract: what a ruleset's `RULESET` supplies.

The projections half (`tablelog.projections.contract.RulesetViews`) says how its state and
events are shown. Core code reads a ruleset only through these two objects and the registry
(`tablelog.rulesets`); it never names one.
"""

from __future__ import annotations

import collections
import importlib
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from tablelog.events.base import Event
from tablelog.events.core import CampaignCreated
from tablelog.rules.cast import TABLE_COMMANDS, Cast
from tablelog.rules.common import (
    Command,
)
from tablelog.rules.table import Table

S = TypeVar("S")

Shuffle = Callable[[list[str]], list[str]]


@dataclass(frozen=True)
class Demo:
    """A whole play of the ruleset that `tablelog demo --ruleset NAME` writes and prints.

    `commands` run in order on a new campaign created with `options`; the events whose types
    are in `shown` are printed as they were written; `conflict` is the one `show` is pointed
    at afterwards."""

    commands: Sequence[Command]
    conflict: str
    shown: frozenset[str]
    name: str
    options: Mapping[str, str] = field(default_factory=dict)
    about: str = ""


@dataclass(frozen=True)
class Ruleset(Generic[S]):
    """A ruleset, as every layer of tablelog uses it.

    **Options.** `options_type` is a msgspec Struct whose fields are the ruleset's named
    options with their defaults (every number and every decision its seed leaves open). They
    are parsed from `--option KEY=VALUE` text and stored, defaults filled in, in the
    campaign's first event (`campaign.created`), so the campaign keeps them for good.

    **State.** `initial(created)` is the state after `campaign.created`; `evolve(state,
    event)` folds one event in (it may change `state` in place and must return it) and trusts
    the log: it never refuses. The state is the ruleset's own type, opaque to core code;
    `state_type` is that type (Structs and dataclasses msgspec encodes), and `version` the
    version of what `evolve` builds: snapshots are keyed by it, so **bump it whenever evolve or
    the state's shape changes**. `table(state)` is the session and scene clock core code reads
    (the audit's session spans, the shared keys of `state --json`).

    **Commands.** `commands` are the command types `decide` takes (the table's own, from
    `TABLE_COMMANDS`, are always among them). `decide(state, command, shuffle)` returns the
    events the command causes, or raises a `RuleViolation` (or `InvalidInput`, `NotFound`)
    with a stable code and one sentence naming the rule, the value and the limit. It is pure:
    every random fact comes through `shuffle` (a die is the top face of its shuffled faces)
    and is stored in the events it returns, so replays never draw again.

    **Cast.** `cast` (rules/cast.py) declares who is who: which commands and events name
    which character, whose characters they are, and what only the GM issues. From it the core
    derives who may issue each command through the service (`authorize`, run inside the
    append, on the state the command is decided on) and whom an event is attributed to when
    the local operator acts (`actor`).

    **Options, again.** `check_options(options)` (optional) refuses (InvalidInput) a new
    campaign's options the ruleset could not play with, beyond what their types say. It is
    never applied to a campaign already in a log.

    **Demo.** `demo()` (optional) gives a whole play for `tablelog demo --ruleset NAME`.

    The projections half, `RulesetViews`, says how the state and events are shown, hidden
    and audited.
    """

    name: str
    options_type: type[msgspec.Struct]
    state_type: type[S]
    initial: Callable[[CampaignCreated], S]
    evolve: Callable[[S, Any], S]
    decide: Callable[[S, Any, Shuffle], list[Event]]
    cast: Cast[S]
    table: Callable[[S], Table]
    commands: tuple[type[Command], ...]
    version: int = 1
    demo: Callable[[], Demo] | None = None
    check_options: Callable[[Any], None] | None = None

    def __post_init__(self) -> None:
        missing = [t.__name__ for t in TABLE_COMMANDS if t not in self.commands]
        if missing:
            raise ValueError(f"ruleset {self.name} must take {', '.join(missing)}")

    @property
    def projection(self) -> str:
        return f"{self.name}:{self.version}"

    def takes(self, command: Command) -> bool:
        return type(command) in self.commands

    def authorize(self, state: S, command: Command, player: str, role: str) -> None:
        self.cast.authorize(state, command, player, role)

    def actor(self, state: S, event: Event) -> str:
        return self.cast.actor(state, event)

    def encode_state(self, state: S) -> bytes:
        return _STATE_ENCODER.encode(state)

    def decode_state(self, data: bytes) -> S:
        """The state a snapshot holds; ValueError when it cannot be read back."""
        try:
            return msgspec.msgpack.decode(data, type=self.state_type, dec_hook=_state_hook)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise ValueError(str(exc)) from None


def commands_of(union: Any) -> tuple[type[Command], ...]:
    """The command types of a union (`A | B | C`), as `Ruleset.commands` lists them."""
    return tuple(typing.get_args(union)) or (union,)


_STATE_ENCODER = msgspec.msgpack.Encoder()


def _state_hook(kind: Any, value: Any) -> Any:
    # msgspec stores a Counter as a map and does not build one back by itself.
    if (typing.get_origin(kind) or kind) is collections.Counter:
        return collections.Counter(value)
    raise NotImplementedError(f"cannot decode {kind}")


def lazy(module: str, name: str) -> Callable[[], Any]:
    """A factory calling `module.name()`, the module imported on the first call: a demo's
    commands, or an audit's checks (which bring the rules' decisions with them), are not
    paid for by every command."""

    def made() -> Any:
        return getattr(importlib.import_module(module), name)()

    return made
