"""Which HTTP endpoint carries each command: the address of the application API over the
network, shared by the service (`tablelog.http`) and the CLI's client of it.

Each command type has one resource-oriented endpoint: a POST to a path under
`/campaigns/{campaign}`, whose `{placeholders}` are filled from the command's fields of the
same name; the other fields form the JSON body (a typed msgspec Struct derived from the
command, unknown fields refused). Core commands are listed here; each ruleset lists its own as
`ENDPOINTS` in the commands module its `Place` names. No litestar import here: the client
needs none.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tablelog import rulesets
from tablelog.rules.common import Clocked, Command, EndScene, EndSession, StartScene, StartSession
from tablelog.rules.rng_commands import CloseRequest, Contribute, Pledge, RevealSeed

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# In a path, the command's default (the only open conflict): no id can be "~".
DEFAULT = "~"


_CLOCK_FIELDS = ("now",)  # a Clocked command's: the service's clock, never in a body


@dataclass(frozen=True)
class Endpoint:
    command: type[Command]
    path: str  # below /campaigns/{campaign}, e.g. "/improv/conflicts/{conflict}/plays"
    summary: str
    # The ruleset whose table lists it (set when the table is loaded; "" for the core's):
    # two rulesets' commands may share a name, and their bodies must not share a schema name.
    ruleset: str = ""
    path_fields: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "path_fields", tuple(_PLACEHOLDER.findall(self.path)))

    @functools.cached_property
    def body(self) -> type[msgspec.Struct]:
        """The JSON body's type (built when first asked for: the client never needs it)."""
        return _body_type(self.command, self.path_fields, self.ruleset)

    def url(self, campaign: str, command: Command) -> str:
        """The path for `command` (its path fields must be set)."""
        values = {"campaign": campaign}
        for name in self.path_fields:
            value = getattr(command, name)
            values[name] = DEFAULT if value is None else str(value)
        return "/campaigns/{campaign}".format_map(_Quoted(values)) + self.path.format_map(
            _Quoted(values)
        )

    def body_of(self, command: Command) -> dict[str, Any]:
        data = msgspec.to_builtins(command)
        assert isinstance(data, dict)
        clock = _CLOCK_FIELDS if isinstance(command, Clocked) else ()
        return {k: v for k, v in data.items() if k not in self.path_fields and k not in clock}

    def command_of(self, body: msgspec.Struct, path: dict[str, str]) -> Command:
        data = msgspec.to_builtins(body)
        assert isinstance(data, dict)
        given = {k: (None if v == DEFAULT else v) for k, v in path.items()}
        return msgspec.convert({**data, **given}, self.command)


class _Quoted(dict[str, str]):
    def __getitem__(self, key: str) -> str:
        from urllib.parse import quote

        return quote(super().__getitem__(key), safe="")


def _body_type(
    command: type[Command], path_fields: tuple[str, ...], ruleset: str
) -> type[msgspec.Struct]:
    fields: list[Any] = []
    for info in msgspec.structs.fields(command):
        if info.name in path_fields or (
            issubclass(command, Clocked) and info.name in _CLOCK_FIELDS
        ):
            continue  # `now` is the service's clock (Clocked), never the caller's
        if info.required:
            fields.append((info.name, info.type))
        else:
            default = (
                info.default
                if info.default is not msgspec.NODEFAULT
                else msgspec.field(default_factory=info.default_factory)
            )
            fields.append((info.name, info.type, default))
    prefix = ruleset.title().replace("-", "")  # beer-run: BeerRunOpenConflictBody
    return msgspec.defstruct(
        f"{prefix}{command.__name__}Body", fields, kw_only=True, forbid_unknown_fields=True
    )


CORE = [
    Endpoint(StartSession, "/sessions", "Start a session"),
    Endpoint(EndSession, "/sessions/current/end", "End the running session"),
    Endpoint(StartScene, "/scenes", "Start a scene"),
    Endpoint(EndScene, "/scenes/current/end", "End the running scene"),
]
# Committed shuffles (rng_flow.py): core too, but answered only in a campaign that commits
# its shuffles; tests/e2e/test_service_committed_rng.py is their matrix of who may.
RNG = [
    Endpoint(Pledge, "/rng/pledges", "Pledge a contribution to a committed shuffle"),
    Endpoint(Contribute, "/rng/contributions", "Contribute (reveal the value pledged)"),
    Endpoint(CloseRequest, "/rng/close", "Close a committed shuffle after its deadline"),
    Endpoint(RevealSeed, "/rng/reveal", "Reveal a committed shuffle's server seed"),
]


@functools.cache
def ruleset_endpoints(ruleset: str) -> list[Endpoint]:
    """The endpoints of `ruleset`'s own commands (its Place's commands module's table)."""
    place = rulesets.place(ruleset)
    if place is None:
        raise LookupError(f"there is no ruleset {ruleset!r}")
    table: list[Endpoint] = importlib.import_module(place.commands).ENDPOINTS
    return [dataclasses.replace(e, ruleset=place.name) for e in table]


def all_endpoints() -> list[Endpoint]:
    return CORE + RNG + [e for name in loading_rulesets() for e in ruleset_endpoints(name)]


@functools.cache
def loading_rulesets() -> list[str]:
    """The rulesets whose endpoints and views load: one that does not (`tablelog rulesets`
    says why) is left out of the service and the client, and the others work all the same."""
    return [name for name in rulesets.names() if _loads(name)]


def _loads(name: str) -> bool:
    from tablelog.projections.registry import views_for

    try:
        ruleset_endpoints(name)
        views_for(name)
    except Exception:  # a third party's package: left out, reported by `tablelog rulesets`
        return False
    return True


def endpoint_for(command: Command) -> Endpoint:
    for endpoint in all_endpoints():
        if type(command) is endpoint.command:
            return endpoint
    raise LookupError(f"no endpoint carries {type(command).__name__}")


class CommandCall(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A command by name with its fields (every field, path ones included): what-if bodies."""

    command: str
    fields: dict[str, Any] = {}


def call_of(command: Command) -> CommandCall:
    data = msgspec.to_builtins(command)
    assert isinstance(data, dict)
    return CommandCall(command=type(command).__name__, fields=data)


def command_of_call(call: CommandCall, ruleset: str) -> Command:
    """The typed command a call names, among the core's and `ruleset`'s (two rulesets may
    both have, say, an OpenConflict); ValueError with a readable reason otherwise."""
    kinds = {e.command.__name__: e.command for e in CORE + ruleset_endpoints(ruleset)}
    kind = kinds.get(call.command)
    if kind is None:
        raise ValueError(f"there is no command {call.command!r}; commands: {', '.join(kinds)}")
    try:
        return msgspec.convert(call.fields, kind)
    except msgspec.ValidationError as exc:
        raise ValueError(f"{call.command}: {exc}") from None
