"""The web page's model: a campaign as one caller sees it, and the forms it may send now.

The page is a client of the same commands and the same views as the HTTP API: panels come
from the ruleset's views (filtered for the caller), and each form posts one command to the
endpoint that carries it, where the rules decide and authorize as for any client. Here the
offered actions are only tried against the rules (authority and `decide`, on the state now,
nothing appended) so that a button is shown only when pressing it could work.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.endpoints import CORE, DEFAULT, Endpoint, ruleset_endpoints
from tablelog.commands.page_awaits import Step, Waiting, form_id, steps_for, waiting_on
from tablelog.commands.reads import LogItem, items_seen
from tablelog.errors import TablelogError
from tablelog.projections.fold import Folded
from tablelog.projections.page import (
    Action,
    Field,
    FieldKind,
    Panel,
    Sealed,
    closed_conflicts,
    directed_texts,
    generic_panels,
    open_conflicts,
    role_of,
    slug,
)
from tablelog.projections.registry import views_for
from tablelog.projections.views import state_view
from tablelog.rules.common import Command, EndScene, EndSession
from tablelog.rules.registry import no_shuffle
from tablelog.storage import CampaignHead, EventStore


class Form(msgspec.Struct, frozen=True, kw_only=True):
    """An action as the page renders it: where it posts, what it asks, what it fixes."""

    key: str  # unique on the page
    title: str
    path: str  # the endpoint's path below /campaigns/{campaign}, `{conflict}` filled in
    fields: list[Field]
    fixed: dict[str, Any]
    conflict: str | None
    gm: bool
    seals: Sealed | None = None
    opens: Sealed | None = None
    confirm: str = ""  # asked once before it is sent (`Action.confirm`)
    preview: Literal["", "public", "own"] = ""  # what it will do, shown first (`Action`)

    @property
    def id(self) -> str:
        """Its id on the page: a step's banner links to it."""
        return form_id(self.key)


class Said(msgspec.Struct, frozen=True, kw_only=True):
    """One of the latest events, in the words `tablelog log` gives it (as the viewer may see
    it): what the page's live region says happened."""

    seq: int
    text: str


class Page(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    ruleset: str
    seq: int
    at: int | None  # a replay's seq (nothing may be done then), None for now
    player: str
    role: str
    panels: list[Panel]
    forms: list[Form]
    # The players' texts on this page that hold a direction control (`directed_texts`): the
    # page isolates each one wherever a sentence quotes it.
    texts: list[str] = []
    # Whom the table waits on now (page_awaits.py): every step, each marked when it is the
    # viewer's own; the seats waited on; how many of the viewer's steps are not mere options.
    awaiting: list[Step] = []
    waiting: list[Waiting] = []
    moves: int = 0
    said: list[Said] = []  # the latest events, oldest first (none in a replay)


def page_of(
    store: EventStore,
    campaign: str,
    caller: Caller,
    *,
    at: int | None = None,
    head: CampaignHead | None = None,
) -> Page:
    """The page for `caller`: now (shared with its other requests until the campaign moves),
    or as of seq `at` (a replay: panels only)."""
    if at is not None:
        past = state.state_at(store, campaign, at)
        replayed = _build(past, caller, at=at)
        return msgspec.structs.replace(
            replayed,
            texts=directed_texts(replayed.texts, campaign_texts(store, past, caller.viewer)),
        )
    page: Page = state.kept_view(
        store,
        campaign,
        f"page:{caller.role}:{caller.player}",
        head,
        lambda folded, _key: _build_now(store, folded, caller),
    )
    return page


def _build_now(store: EventStore, folded: Folded, caller: Caller) -> Page:
    """The page now: the table, whom it waits on, and what just happened (inside `reading`)."""
    # First: the first ask in a process folds the campaign afresh (state.tracked).
    steps = state.tracked(store, folded).steps.values()
    page = _build(folded, caller, at=None)
    viewer = caller.viewer
    shown = steps_for(steps, viewer, page.forms, page.panels)
    latest = said(store, folded, viewer)
    return msgspec.structs.replace(
        page,
        awaiting=shown,
        waiting=waiting_on(shown),
        moves=sum(1 for s in shown if s.mine and not s.optional),
        said=[Said(seq=i.seq, text=i.text) for i in latest],
        # The events' words may quote a player's text the table no longer shows.
        texts=directed_texts(
            [msgspec.json.decode(i.line) for i in latest],
            page.texts,
            campaign_texts(store, folded, viewer),
        ),
    )


SAID = 8  # the events the live region may announce at once (a move writes a few at most)


def said(store: EventStore, folded: Folded, viewer: str) -> list[LogItem]:
    """The latest events of the state `folded`, as `viewer` may see them."""
    first = max(0, folded.seq - SAID)
    latest = store.read(folded.campaign, after_seq=first, upto_seq=folded.seq)
    return items_seen(folded, latest, viewer)


def _build(folded: Folded, caller: Caller, *, at: int | None) -> Page:
    viewer = caller.viewer
    shown = panels(folded, viewer)
    offered = [] if at is not None else forms(folded, caller)
    return Page(
        campaign=folded.campaign,
        ruleset=folded.ruleset.name,
        seq=folded.seq,
        at=at,
        player=caller.player,
        role=caller.role,
        panels=shown,
        forms=offered,
        texts=texts(folded, viewer, shown),
    )


def texts(folded: Folded, viewer: str, shown: Sequence[Panel]) -> list[str]:
    """The players' texts holding a direction control that the viewer may see here: from
    the state view and the show view of each conflict on the page (both filtered for the
    viewer already), for any ruleset, whatever sentences its panels make of them."""
    views = views_for(folded.ruleset.name)
    # The narrations and the story's sentences too: a ruleset's state may keep words its
    # views do not list (a narration).
    found: list[Any] = [[q.text for p in shown for q in p.quotes]]
    for key in dict.fromkeys(p.conflict for p in shown if p.conflict is not None):
        try:
            found.append(views.show_view(folded.state, key, viewer))
        except TablelogError:  # a conflict `show` will not give: its panel is isolated whole
            continue
    return directed_texts(*found)


# A direction control in a stored payload (canonical JSON, UTF-8, never escaped): U+061C,
# U+200E-F, U+202A-E, U+2066-9.
_CONTROL_BYTES = re.compile(rb"\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def campaign_texts(store: EventStore, folded: Folded, viewer: str) -> list[str]:
    """The campaign's texts holding a direction control: the state view's (filtered for the
    viewer) the first time a page asks in this process, then, as the campaign moves, those
    of each new event's payload. A text here serves only to find where a value quotes it
    (http/isolation.py): one the viewer may not see isolates nothing it is shown, so the
    set may hold more than this viewer's. Walking the whole state view on every append
    would cost a page 100 times its budget on a campaign of 100,000 events."""
    entry = state.entry_for(store, folded.campaign)
    kept = entry.directed
    if kept is not None and kept[0] >= folded.seq:
        return sorted(kept[1], key=lambda text: (-len(text), text))
    if kept is None:
        found = set(directed_texts(state_view(folded, viewer)))
    else:
        found = set(kept[1])
        for envelope in store.read(folded.campaign, after_seq=kept[0], upto_seq=folded.seq):
            if _CONTROL_BYTES.search(envelope.payload):
                found.update(directed_texts(msgspec.json.decode(envelope.payload)))
    entry.directed = (folded.seq, frozenset(found))
    return sorted(found, key=lambda text: (-len(text), text))


def panels(folded: Folded, viewer: str) -> list[Panel]:
    views = views_for(folded.ruleset.name)
    if views.panels is not None:
        return views.panels(folded.state, viewer)
    whole = state_view(folded, viewer)
    shows: list[tuple[dict[str, Any], list[str]]] = []
    # The open conflicts, then the ones closed last: each shown as it ended.
    for key in [*open_conflicts(whole), *closed_conflicts(whole)]:
        try:
            view = views.show_view(folded.state, key, viewer)
            shows.append((view, views.show_lines(folded.state, view)))
        except TablelogError as exc:  # a conflict its `show` will not give: say so, go on
            shows.append(({"conflict": key}, [str(exc)]))
    *conflicts, campaign = generic_panels(whole, views.state_lines(whole), shows, viewer)
    return [*conflicts, *own_reads(folded, viewer, whole), campaign]


def own_reads(folded: Folded, viewer: str, whole: dict[str, Any]) -> list[Panel]:
    """The ruleset's own reads (a managed hand) of what the viewer may read: tried for the
    viewer itself and for each character of the state view; each read refuses what is not
    the viewer's (its own check, as through the API), and a refusal shows nothing."""
    if role_of(viewer) == "observer":
        return []
    views = views_for(folded.ruleset.name)
    characters = whole.get("characters")
    names = [viewer, *(characters if isinstance(characters, dict) else [])]
    found = []
    for read in views.reads:
        for name in dict.fromkeys(names):
            try:
                data = read.run(folded.state, name, viewer)
            except TablelogError:
                continue
            found.append(
                Panel(
                    key=f"read-{slug(read.name)}-{slug(name)}",
                    title=f"{read.name.capitalize()} of {name}",
                    facts=[(key, _words(value)) for key, value in data.items()],
                )
            )
    return found


def _words(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "—"
    return str(value)


def forms(folded: Folded, caller: Caller) -> list[Form]:
    """The forms `caller` may send now: the ruleset's actions (or the generic ones), each
    kept only if the rules would take its probe."""
    if caller.role == "observer":
        return []
    views = views_for(folded.ruleset.name)
    endpoints = {e.command: e for e in CORE + ruleset_endpoints(folded.ruleset.name)}
    offered = (
        views.actions(folded.state, caller.viewer)
        if views.actions is not None
        else generic_actions(folded, caller.viewer, list(endpoints.values()))
    )
    found: list[Form] = []
    keys: set[str] = set()
    for action in offered:
        endpoint = endpoints.get(action.command)
        if endpoint is None or not _may(folded, caller, action):
            continue
        form = _form(endpoint, action)
        key, number = form.key, 1
        while key in keys:  # two forms of one command (tokens, or a talent, on a card)
            number += 1
            key = f"{form.key}-{number}"
        keys.add(key)
        found.append(msgspec.structs.replace(form, key=key))
    return found


def _may(folded: Folded, caller: Caller, action: Action) -> bool:
    if action.probe is None:
        return True
    try:
        folded.ruleset.authorize(folded.state, action.probe, caller.player, caller.role)
        folded.ruleset.decide(folded.state, action.probe, no_shuffle)
    except TablelogError:
        return False
    return True


def _form(endpoint: Endpoint, action: Action) -> Form:
    path = endpoint.path
    for name in endpoint.path_fields:
        given = action.fixed.get(name)
        path = path.replace("{" + name + "}", DEFAULT if given is None else str(given))
    # Stable across renders (the page keeps what was typed in a form when the table moves).
    words = [action.command.__name__, *(str(v) for v in action.fixed.values())]
    return Form(
        key="-".join("".join(ch if ch.isalnum() else "_" for ch in w) for w in words),
        title=action.title,
        path=path,
        fields=[f for f in action.fields if f.name not in endpoint.path_fields],
        fixed={k: v for k, v in action.fixed.items() if k not in endpoint.path_fields},
        conflict=action.conflict,
        gm=action.gm,
        seals=action.seals,
        opens=action.opens,
        confirm=action.confirm or _CORE_QUESTIONS.get(action.command, ""),
        preview=action.preview,
    )


# The core's own steps that cannot be taken back, asked once whatever the ruleset: a ruleset
# asks its own (`Action.confirm`).
_CORE_QUESTIONS: dict[type[Command], str] = {
    EndSession: "End the session? Nobody plays in it after this; it cannot be undone.",
    EndScene: "End the scene? It cannot be undone.",
}


def generic_actions(folded: Folded, viewer: str, endpoints: Sequence[Endpoint]) -> list[Action]:
    """A form per command the viewer's role may issue, its fields asked as text, numbers,
    flags or choices; a command of one conflict is offered once per open conflict."""
    role = role_of(viewer)
    cast = folded.ruleset.cast
    conflicts = open_conflicts(state_view(folded, viewer))
    actions = []
    for endpoint in endpoints:
        command = endpoint.command
        if command not in folded.ruleset.commands:
            continue
        gm = cast.gm_issues(command)
        if gm and role != "gm":
            continue
        fields = [_field(info, viewer, role) for info in msgspec.structs.fields(command)]
        by_conflict = any(f.name == "conflict" and f.required for f in fields)
        if not by_conflict:
            actions.append(Action(command=command, title=endpoint.summary, fields=fields, gm=gm))
            continue
        asked = [f for f in fields if f.name != "conflict"]
        actions += [
            Action(
                command=command,
                title=endpoint.summary,
                fields=asked,
                fixed={"conflict": key},
                conflict=key,
                gm=gm,
            )
            for key in conflicts
        ]
    return actions


def _field(info: msgspec.structs.FieldInfo, viewer: str, role: str) -> Field:
    kind, choices = _kind(info.type)
    columns = _columns(info.type) if kind == "lines" else []
    default: Any = None
    if info.default is not msgspec.NODEFAULT and isinstance(info.default, str | int | bool):
        default = info.default
    if info.name == "player" and role == "player":
        default = viewer  # a player acts for itself
    return Field(
        name=info.name,
        label=info.name.replace("_", " "),
        kind=kind,
        choices=choices,
        required=info.required,
        default=default,
        columns=columns,
    )


def _columns(kind: Any) -> list[str]:
    """The keys of each line of a list of objects (`list[CardSpec]`: name, value), else none."""
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if typing.get_origin(kind) in (typing.Union, types.UnionType) and len(args) == 1:
        return _columns(args[0])
    if typing.get_origin(kind) is list and len(args) == 1 and _is_struct(args[0]):
        return [f.name for f in msgspec.structs.fields(args[0])]
    return []


def _is_struct(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, msgspec.Struct)


def _kind(kind: Any) -> tuple[FieldKind, list[str]]:
    """How a field of type `kind` is asked: the Optional's inner type decides."""
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _kind(args[0])
    if origin is Literal:
        return "choice", [str(a) for a in typing.get_args(kind)]
    if kind is bool:
        return "flag", []
    if kind is int:
        return "number", []
    if origin in (list, tuple):
        # Numbers go as numbers: the command's decoder takes no "8" for an int. Words go one
        # per line: a name of several words (a talent, `Sharp eyes`) stays one; so do
        # objects (`name: value` per line, `_columns`).
        return ("numbers" if args == [int] else "lines"), []
    return "text", []
