"""What the web page shows and offers, in words any ruleset can use: panels and actions.

A ruleset's views may supply `panels(state, viewer)` and `actions(state, viewer)` (see
`RulesetViews`); without them the generic ones below give a usable page from what every
ruleset already has: its state view, its show view and its lines of text (panels), and the
fields of each of its commands (actions, built by `tablelog.commands.page`). The page
renders these and nothing else, so it never names a ruleset and never decides what a viewer
may see: every value here comes from the views, which are filtered for `viewer` already.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import msgspec

from tablelog.rules.common import Command, EndScene, EndSession, StartScene, StartSession


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """A card on the table: `face` None is a card back (face down, or not the viewer's)."""

    face: str | None
    label: str = ""  # whose card, or what it is ("kit", "round 2")
    mine: bool = False  # the viewer's own card (shown face up before the reveal)
    total: int | None = None  # after the reveal (or to its owner)
    note: str = ""  # bonuses on it ("+1 token, talent Brawler")
    tone: str = ""  # "red" for a red suit: how the page colours the face


class Grid(msgspec.Struct, frozen=True, kw_only=True):
    """A table of text: a header row and rows of cells (a cell may hold cards)."""

    header: list[str]
    rows: list[list[str | list[Card]]]


class Quote(msgspec.Struct, frozen=True, kw_only=True):
    """Words someone said at the table (a narration), shown as a quote with who said them."""

    who: str  # the character or seat, as the table names it
    text: str  # as typed (a player's text: the page isolates it)
    when: str = ""  # "round 1", "final narration", "after the outcome"


class Panel(msgspec.Struct, frozen=True, kw_only=True):
    """One box of the page. `conflict`, when set, gives it the conflict's audit, replay and
    export controls.

    The story of a conflict, in plain words, for the viewer: `result` is its outcome so far
    in one sentence ("You won round 1 (14 vs 8)" for the winner's player, "Kit won round 1
    (14 vs 8)" for everyone else), `story` what happened, oldest first, as the audit would
    say it (no card or hand the viewer may not see), `quotes` the narrations. A `closed`
    conflict is shown as it ended, folded away under its outcome. `glossary` explains the
    words of the panel (a ledger's holders)."""

    key: str  # stable, unique on the page (an HTML id: letters, digits, dashes)
    title: str
    facts: list[tuple[str, str]] = []  # label, value
    grid: Grid | None = None
    cards: list[Card] = []
    lines: list[str] = []
    waiting: list[str] = []  # who has not acted yet
    conflict: str | None = None
    result: str = ""
    story: list[str] = []
    quotes: list[Quote] = []
    closed: bool = False
    glossary: list[tuple[str, str]] = []


# How the page asks for a field and sends it: text; a number; one of `choices`; a checkbox;
# a list (words separated by spaces: codes and keys, never names with spaces); lines (a text
# box, one item per line, empty lines dropped: names of several words, `Sharp eyes`; with
# `columns`, each line is `a: b: c`, split at its colons into an object of those keys); a
# list of numbers (`8 10`); a map of names to numbers (`health=2, nerve=1`); a map of names
# to words (`JK1=5H`); named groups of words (`red: ann bob; blue: cy`).
FieldKind = Literal[
    "text", "number", "choice", "flag", "list", "lines", "numbers", "map", "pairs", "groups"
]


class Field(msgspec.Struct, frozen=True, kw_only=True):
    """One input of an action's form: a command field the caller fills in."""

    # The command's field; dotted (`power.card.name`) for a field of an object inside the
    # command, which the page builds on whatever the action's `fixed` began (`power.type`).
    name: str
    label: str
    kind: FieldKind = "text"
    choices: list[str] = []  # for `choice` (and suggestions for `text`)
    shown: list[str] = []  # how each choice reads, when not as sent (`QH` shown as `Q♥`)
    required: bool = True
    default: str | int | bool | None = None  # for `lines`: the lines joined by newlines
    # For `lines` sent as objects: the keys of each line's parts, in order (a line
    # `Brawn: 1d6+2` with columns name, value is {"name": "Brawn", "value": "1d6+2"}).
    columns: list[str] = []


class Sealed(msgspec.Struct, frozen=True, kw_only=True):
    """A hidden choice sent sealed (rules/sealing.py): which play of which round it is.

    On a form that `seals`, the page's script never sends the field `choice`: it picks a
    salt, sends the commitment over (campaign, conflict, round, side, choice, salt) as the
    field `commitment`, and keeps choice and salt in the browser. On a form that `opens`,
    it sends the kept choice (as the field `choice`) and `salt` of the play whose commitment
    is `commitment`. The commitment is the client's to compute by design; the rules check it.
    """

    conflict: str
    round: int
    side: str
    choice: str = "card"  # the command's field that holds the hidden choice
    commitment: str | None = None  # on an opening: the commitment it must match
    # A choice made of several list fields (a pool's base and extras): the text committed
    # is `name=v1,v2;name2=v3` over these fields, in this order, each value as typed (split
    # on spaces and commas); the opening sends each list back. `choice` is then unused.
    parts: list[str] = []


class Action(msgspec.Struct, frozen=True, kw_only=True):
    """A form of one command: `fixed` fields are set already (the conflict, the caller's own
    side), `fields` are asked for. `probe`, when given, is the command as it would be sent
    with the first choices: core code keeps the action only if the rules (authority and
    decide, on the state now) would take it."""

    command: type[Command]
    title: str
    fields: list[Field] = []
    fixed: dict[str, Any] = {}
    probe: Command | None = None
    conflict: str | None = None  # the conflict it belongs to (shown in its panel)
    gm: bool = False  # one of the GM's controls
    seals: Sealed | None = None  # its choice is sent as a commitment (see `Sealed`)
    opens: Sealed | None = None  # it sends the opening this browser keeps (see `Sealed`)
    # An irreversible step asks once before it is sent: the question, where `{field}` stands
    # for what the form holds in that field, as shown ("Give {card} to {to}? This cannot be
    # undone."). The page shows with it what the step will do (commands/preview.py).
    confirm: str = ""
    # A costly step shows what it will do (its effect, a price, what is left) as it is filled
    # in, and asks before it is sent, even without a question of its own. "public": it says
    # what the whole table will see of the step (an event any part of which an observer
    # would not see stays unsaid: a card drawn into a hand). "own": it says what the caller
    # will see, the caller's hidden part too; only for a step whose outcome depends on
    # nothing the caller may not see (their own choice and the table as it stands, never a
    # deck's order): the ruleset vouches for that by choosing "own".
    preview: Literal["", "public", "own"] = ""


DEADLINE_MINUTES = 24 * 60  # what the deadline form offers first: a day
NO_COMMITMENT = "0" * 64  # what the probe of a sealed form seals: the rules check its shape


def deadline_actions(
    conflict: str,
    set_deadline: type[Command],
    forfeit: type[Command],
    unopened: list[str],
    deadline_set: bool,
    *,
    who: Field,
    forfeit_title: str,
) -> list[Action]:
    """The GM's answer to an opening that never comes (rules/sealing.py's stated rule): the
    deadline for a round's openings, then, once one is set, the forfeit of a sealed choice
    still closed (offered without a probe: the rules refuse it, in one sentence, before the
    deadline has passed). Both commands take `conflict`; the deadline also `minutes`."""
    if not unopened:
        return []
    fixed = {"conflict": conflict}
    found = [
        Action(
            command=set_deadline,
            title="Set the deadline for the openings",
            fields=[
                Field(
                    name="minutes",
                    label="minutes from now",
                    kind="number",
                    default=DEADLINE_MINUTES,
                )
            ],
            fixed=fixed,
            probe=set_deadline(conflict=conflict, minutes=DEADLINE_MINUTES),
            conflict=conflict,
            gm=True,
        )
    ]
    if deadline_set:
        chosen = msgspec.structs.replace(who, kind="choice", choices=unopened)
        found.append(
            Action(
                command=forfeit,
                title=forfeit_title,
                fields=[chosen],
                fixed=fixed,
                conflict=conflict,
                gm=True,
            )
        )
    return found


def clock_actions(session_open: bool, scene_open: bool) -> list[Action]:
    """The GM's session and scene controls as the table's clock stands (`rules/table.py`,
    which every ruleset's state may hold): start or end the session; within one, start or end
    a scene (optional framing). Each carries its probe."""
    if not session_open:
        start = Action(command=StartSession, title="Start a session", probe=StartSession(), gm=True)
        return [start]
    found = [Action(command=EndSession, title="End the session", probe=EndSession(), gm=True)]
    if scene_open:
        found.append(Action(command=EndScene, title="End the scene", probe=EndScene(), gm=True))
    else:
        found.append(
            Action(
                command=StartScene,
                title="Start a scene",
                fields=[Field(name="title", label="title", required=False)],
                probe=StartScene(),
                gm=True,
            )
        )
    return found


def role_of(viewer: str | None) -> str:
    """The role a viewer key stands for (`Caller.viewer`): gm, observer or player."""
    if viewer is None or viewer == "gm":
        return "gm"
    return "observer" if viewer.startswith("observer:") else "player"


def generic_panels(
    state_view: dict[str, Any],
    state_lines: Sequence[str],
    shows: Sequence[tuple[dict[str, Any], Sequence[str]]],
    viewer: str | None = None,
) -> list[Panel]:
    """The panels of a ruleset that supplies none: each conflict in `shows` (the open ones,
    then the ones closed last) as its `show` text (with its controls) and its outcome as the
    state view gives it (`beats`, `outcome`), then the campaign as `state` prints it."""
    conflicts = state_view.get("conflicts", {})
    panels = []
    for index, (view, lines) in enumerate(shows, start=1):
        key = str(view.get("conflict", index))
        summary = conflicts.get(key) if isinstance(conflicts, dict) else None
        summary = summary if isinstance(summary, dict) else {}
        closed = summary.get("status", "open") != "open"
        panels.append(
            Panel(
                key=f"conflict-{slug(key)}",
                title=f"Conflict {key}" + (f" ({summary['status']})" if closed else ""),
                facts=[(k, str(view[k])) for k in ("kind", "status") if k in view],
                lines=list(lines),
                conflict=key,
                result=beats_result(summary.get("beats", []), [viewer] if viewer else []),
                story=[str(s) for s in summary.get("outcome", []) if isinstance(s, str)],
                closed=closed,
            )
        )
    panels.append(Panel(key="campaign", title="The campaign", lines=list(state_lines)))
    return panels


def closed_conflicts(state_view: dict[str, Any], last: int = 3) -> list[str]:
    """The conflicts of a state view that are over, the `last` of them (the newest last)."""
    conflicts = state_view.get("conflicts", {})
    if not isinstance(conflicts, dict):
        return []
    over = [
        str(key)
        for key, c in conflicts.items()
        if isinstance(c, dict) and c.get("status", "open") != "open"
    ]
    return over[-last:] if last else []


def you(name: str, mine: Iterable[str], *, start: bool = False) -> str:
    """`name`, or "you" ("You" at the start of a sentence) when it is the viewer's own."""
    if name in set(mine):
        return "You" if start else "you"
    return name[:1].upper() + name[1:] if start else name


def beats_result(beats: Sequence[Sequence[str]], mine: Iterable[str]) -> str:
    """A conflict's `beats` in a sentence for the viewer, whose own sides are `mine`: "You
    beat Ann", "Bob beats you", "Bob beats Ann; Cy beats Dee"."""
    own = set(mine)
    said = []
    for pair in beats:
        if len(pair) != 2:
            continue
        winner, loser = str(pair[0]), str(pair[1])
        verb = "beat" if winner in own else "beats"
        said.append(f"{you(winner, own, start=True)} {verb} {you(loser, own)}")
    return "; ".join(said)


def open_conflicts(state_view: dict[str, Any]) -> list[str]:
    """The open conflicts of a state view (every ruleset's has `conflicts` with `status`)."""
    conflicts = state_view.get("conflicts", {})
    if not isinstance(conflicts, dict):
        return []
    return [
        str(key)
        for key, c in conflicts.items()
        if isinstance(c, dict) and c.get("status", "open") == "open"
    ]


def slug(text: str) -> str:
    """`text` as an HTML id's part: letters and digits, the rest dashes."""
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()) or "x"


# The characters that set the direction of the text after them: the marks, embeddings,
# overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9). A player's text is stored
# byte for byte and may hold them; the page isolates each text that does (http/isolation.py),
# so none reorders anything around it (the CLI writes them as escapes: cli/output.py).
DIRECTION_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def directed_texts(*views: Any) -> list[str]:
    """Every text in these views (dicts, lists and strings, as `state --json` gives them; keys
    too) that holds a direction control: the players' own texts that the page must isolate
    wherever a sentence quotes them. Longest first, so a text is found before a part of it."""
    found: set[str] = set()
    stack = list(views)
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if DIRECTION_CONTROLS.search(value):
                found.add(value)
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list | tuple | set | frozenset):
            stack.extend(value)
    return sorted(found, key=lambda text: (-len(text), text))
