"""The `/tl` command set: made from the CLI's commands, so Discord speaks the CLI's words.

Core subcommands (`hand`, `state`, `waiting`, `show`, `link`) and one subcommand group per
ruleset, whose subcommands are the ruleset's CLI sub-app (its contract's `cli.app`): the
same names, options named as the CLI's (`--from-deck` is `from-deck`, an argument by its
name), its help as descriptions. A ruleset's reads (`show`, `hand` and the like, answered by
the core subcommands from the caller's own view) are left out. Discord's limits are checked
here and by a test over every ruleset: 25 subcommands per group, 25 options, names of at
most 32 characters, descriptions of at most 100, 8,000 characters per command.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from typing import Any

import typer.main

from tablelog import rulesets
from tablelog.cli.rulesets import with_show
from tablelog.commands.endpoints import loading_rulesets

TOP = "tl"
LIMIT_OPTIONS = 25
LIMIT_DESCRIPTION = 100
LIMIT_NAME = 32
LIMIT_COMMAND = 8000

# Discord's option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, NUMBER = 1, 2, 3, 4, 5, 10

# Never asked on Discord: the channel names the campaign, the answer is never JSON, and the
# caller's own seat decides the view.
_LEFT_OUT = frozenset({"campaign", "json", "as_player"})
# How several values go in one Discord option: a repeatable option's values may hold
# commas and spaces themselves (`heroes=alice,cara`, `Fast talker`), an argument's are codes.
OPTION_LIST_NOTE = " (several: separate with ;)"
ARGUMENT_LIST_NOTE = " (several: separate with spaces)"


@dataclass(frozen=True)
class Option:
    """One option of a subcommand and how it goes back into the CLI's words."""

    name: str  # Discord's (the CLI's long option without dashes, or the argument's name)
    description: str
    type: int
    required: bool
    flag: str | None  # the CLI's `--option`; None for an argument
    many: bool  # a repeatable option or an argument of several values
    choices: tuple[str, ...] = ()
    index: int = 0  # its place among the CLI command's parameters (arguments keep order)
    low: float | None = None  # a number's bounds (the CLI's range)
    high: float | None = None

    def json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "type": self.type,
            "name": self.name,
            "description": self.description,
            "required": self.required,
        }
        if self.choices:
            found["choices"] = [{"name": c, "value": c} for c in self.choices]
        elif self.type == STRING:
            found["autocomplete"] = True
        if self.low is not None:
            found["min_value"] = self.low
        if self.high is not None:
            found["max_value"] = self.high
        return found


@dataclass(frozen=True)
class Sub:
    name: str
    description: str
    options: tuple[Option, ...]

    def json(self) -> dict[str, Any]:
        return {
            "type": SUB_COMMAND,
            "name": self.name,
            "description": self.description,
            "options": [o.json() for o in self.options],
        }


_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z-]*)")


def options_named(text: str) -> str:
    """The CLI's `--option` as Discord writes an option: `option:`."""
    return _FLAG.sub(r"\1:", text)


def short(text: str | None, fallback: str, limit: int = LIMIT_DESCRIPTION) -> str:
    """A help text's first paragraph within Discord's limit, cut at a word, its `--option`s
    written as Discord's."""
    words = " ".join((text or "").split("\n\n")[0].replace("`", "").split()) or fallback
    words = options_named(words)
    if len(words) <= limit:
        return words[:-1] if words.endswith(".") and not words.endswith("..") else words
    cut = words[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:(")
    return cut + "\u2026"


def first_sentence(text: str | None, fallback: str) -> str:
    """A command's help up to its first full stop (not an abbreviation's: `e.g.`)."""
    words = " ".join((text or "").split("\n\n")[0].replace("`", "").split())
    found = re.split(r"(?<![eig]\.[eg])(?<=\.)\s+(?=[A-Z(])", words, maxsplit=1)[0]
    return short(found, fallback)


CORE: tuple[Sub, ...] = (
    Sub("hand", "What only you see: your hand, pool or deck (shown to you alone)", ()),
    Sub("state", "The table as you may see it, and whom it waits on (shown to you alone)", ()),
    Sub("waiting", "Whom the table waits on, and what for (shown to you alone)", ()),
    Sub(
        "show",
        "A conflict round by round, as you may see it (shown to you alone)",
        (Option("conflict", "The conflict's id, as state lists it", STRING, True, None, False),),
    ),
    Sub(
        "link",
        "Link your Discord account to your seat with the code from your page or the GM",
        (Option("code", "The one-time code, e.g. ABCD-EFGH", STRING, True, None, False),),
    ),
)


# Typer carries its own click: its parameters are read by their documented attributes.
def _type(param: Any) -> int:
    if getattr(param, "is_flag", False):
        return BOOLEAN
    if param.multiple or param.nargs == -1:
        return STRING  # several values typed in one option (`values:6 5 2`)
    kind = str(param.type.name)
    if kind in ("int", "integer", "int range", "integer range"):
        return INTEGER
    return NUMBER if kind in ("float", "float range") else STRING


def _option(param: Any, index: int) -> Option:
    many = bool(param.multiple or param.nargs == -1)
    if param.param_type_name == "option":
        longs = [o for o in param.opts if o.startswith("--")] or param.opts
        name, flag = longs[0].lstrip("-"), longs[0]
        help_text = param.help
    else:
        name, flag = (param.name or "").replace("_", "-"), None
        help_text = getattr(param, "help", None)
    note = (OPTION_LIST_NOTE if flag else ARGUMENT_LIST_NOTE) if many else ""
    description = short(help_text, name.replace("-", " "), LIMIT_DESCRIPTION - len(note)) + note
    choices: tuple[str, ...] = ()
    if str(param.type.name) == "choice":
        choices = tuple(str(c) for c in param.type.choices)
    kind = _type(param)
    bounded = kind in (INTEGER, NUMBER)
    return Option(
        name=name.lower(),
        description=description,
        type=kind,
        low=getattr(param.type, "min", None) if bounded else None,
        high=getattr(param.type, "max", None) if bounded else None,
        required=bool(param.required),
        flag=flag,
        many=many,
        choices=choices,
        index=index,
    )


# The core's own groups of commands that change a campaign, as the CLI names them: every
# campaign has sessions and scenes, whatever its ruleset.
CORE_GROUPS = ("session", "scene")


@functools.cache
def cli_group(name: str) -> Any:
    """A CLI sub-app as the command line runs it: a core group's, or a ruleset's (with
    `show` added)."""
    if name in CORE_GROUPS:
        from tablelog.cli import table

        holder = typer.Typer()
        table.register(holder)
        return typer.main.get_command(holder).commands[name]  # type: ignore[attr-defined]
    place = rulesets.place(name)
    if place is None:
        raise LookupError(f"there is no ruleset {name!r}")
    app = importlib.import_module(place.cli).app
    return typer.main.get_command(with_show(app, name))


def sub_of(group: str, name: str) -> Sub | None:
    return next((s for s in ruleset_subs(group) if s.name == name), None)


@functools.cache
def ruleset_subs(group: str) -> tuple[Sub, ...]:
    """A ruleset's (or a core group's) CLI commands as Discord subcommands, its reads left
    out."""
    from tablelog.projections.registry import views_for

    group_cli = cli_group(group)
    reads = (
        {"show", *(r.name for r in views_for(group).reads)} if group not in CORE_GROUPS else set()
    )
    found: list[Sub] = []
    for name, command in group_cli.commands.items():
        if name in reads or command.hidden:
            continue
        options = [
            _option(p, index) for index, p in enumerate(command.params) if p.name not in _LEFT_OUT
        ]
        # Discord asks the required options first.
        options.sort(key=lambda o: not o.required)
        found.append(Sub(name, first_sentence(command.help, name), tuple(options)))
    return tuple(found)


def ruleset_help(ruleset: str) -> str:
    place = rulesets.place(ruleset)
    app = importlib.import_module(place.cli).app if place else None
    info = getattr(app, "info", None)
    return first_sentence(getattr(info, "help", None), f"The {ruleset} table")


def command_set(only: list[str] | None = None) -> list[dict[str, Any]]:
    """The application's commands as `PUT /applications/{id}/commands` takes them: one `/tl`
    holding the core subcommands and a group per ruleset (every loading one, or `only`)."""
    names = only if only is not None else loading_rulesets()
    options: list[dict[str, Any]] = [s.json() for s in CORE]
    for core in CORE_GROUPS:
        options.append(
            {
                "type": SUB_COMMAND_GROUP,
                "name": core,
                "description": f"The campaign's {core}s: start and end one (the GM's)",
                "options": [s.json() for s in ruleset_subs(core)],
            }
        )
    for name in names:
        options.append(
            {
                "type": SUB_COMMAND_GROUP,
                "name": name,
                "description": ruleset_help(name),
                "options": [s.json() for s in ruleset_subs(name)],
            }
        )
    return [
        {
            "name": TOP,
            "type": 1,
            "description": "tablelog: play this channel's campaign",
            "options": options,
            "dm_permission": False,
        }
    ]


def size(command: dict[str, Any]) -> int:
    """The characters Discord counts toward a command's 8,000: every name, description and
    choice, at every level."""
    total = len(command.get("name", "")) + len(command.get("description", ""))
    for choice in command.get("choices", []):
        total += len(str(choice["name"])) + len(str(choice["value"]))
    return total + sum(size(o) for o in command.get("options", []))


def problems(commands: list[dict[str, Any]]) -> list[str]:
    """Where the command set breaks one of Discord's limits (empty: it registers)."""
    found: list[str] = []

    def walk(node: dict[str, Any], where: str) -> None:
        name = str(node.get("name", ""))
        if not re.fullmatch(r"[-_a-z0-9]{1,32}", name):
            found.append(
                f"{where}: the name {name!r} is not 1-32 lower-case letters, digits, - or _"
            )
        description = str(node.get("description", ""))
        if not 1 <= len(description) <= LIMIT_DESCRIPTION:
            found.append(f"{where}: its description has {len(description)} characters (1-100)")
        children = node.get("options", [])
        if len(children) > LIMIT_OPTIONS:
            found.append(f"{where}: {len(children)} options (at most 25)")
        if len(node.get("choices", [])) > LIMIT_OPTIONS:
            found.append(f"{where}: more than 25 choices")
        for child in children:
            walk(child, f"{where} {child.get('name')}")

    for command in commands:
        walk(command, f"/{command.get('name')}")
        if size(command) > LIMIT_COMMAND:
            found.append(f"/{command.get('name')}: {size(command)} characters (at most 8000)")
    return found


_CLI_COMMAND = re.compile(r"`tablelog ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?([^`]*)`")


def in_discords_words(sentence: str) -> str:
    """A rule's sentence with each `tablelog ...` command that Discord also has written as
    its slash command (`tablelog session start` is `/tl session start`); the others stay."""

    def slash(found: re.Match[str]) -> str:
        first, second, rest = found.group(1), found.group(2), found.group(3)
        if first in {s.name for s in CORE}:
            return f"`/tl {first}`"
        known = first in CORE_GROUPS or first in loading_rulesets()
        if second and known and sub_of(first, second) is not None:
            more = " ..." if rest.strip() else ""
            return f"`/tl {first} {second}{more}`"
        return found.group(0)

    return options_named(_CLI_COMMAND.sub(slash, sentence))
