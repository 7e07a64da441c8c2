"""Acting from Discord: a ruleset's slash command, or a turn notice's button (a form of the
caller's page, asked in a modal). Either way the command is executed exactly as the CLI's
and the page's are (`commands.table.execute`, the caller's seat authorizing), and answered
publicly in the log's words as the whole table sees them, then privately, to the caller
alone, with what only they see (the card they played)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any

from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.database import EventStore
from tablelog.commands.discord_links import caller_of, linked_users
from tablelog.commands.page import Form, page_of
from tablelog.commands.preview import command_for, endpoint_at
from tablelog.commands.reads import LogItem, items_seen
from tablelog.commands.table import execute
from tablelog.commands.waiting import waiting_in
from tablelog.discord import forms as modal_forms
from tablelog.discord.argv import collect
from tablelog.discord.reads import hand_read
from tablelog.discord.reply import MESSAGE, MODAL, Reply, message, refused
from tablelog.discord.tree import CORE_GROUPS, sub_of
from tablelog.errors import Forbidden, TablelogError
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import Folded
from tablelog.projections.post_escape import escape_discord
from tablelog.rules.common import Command
from tablelog.rules.table import GM

# Whether an answer pings the players the table now waits on: yes, unless the service's bot
# posts the turn notices itself (discord/notices.py), which ping each player once.
pings: ContextVar[bool] = ContextVar("pings", default=True)
BUTTONS = 5  # one row of a message's buttons: the steps the table waits on first
CUSTOM = "tl:"  # a button's and a modal's custom_id: `tl:` and the form's id on the page
# The sealing rules' refusals of a play that carries its card: said in Discord's words.
_SEALED_CODES = frozenset({"sealed-play", "commitment-required"})


def unlinked(campaign: str) -> str:
    return (
        f"you act for no seat of campaign {campaign} yet: type `/tl link CODE` with the code "
        "from your page (its Discord box) or from the GM (`tablelog discord code PLAYER`); "
        "until then you may read what an observer may"
    )


def sealed(campaign: str, ruleset: str) -> str:
    return (
        f"campaign {campaign} seals its plays: through Discord the bot would see your card, so "
        f"a sealed play cannot go through Discord; play it from your page or with "
        f"`tablelog {ruleset} ...` on your own machine"
    )


def slash(
    store: EventStore,
    campaign: str,
    caller: Caller,
    group: str,
    name: str,
    given: dict[str, Any],
) -> Reply:
    ruleset = _ruleset(store, campaign)
    if group in CORE_GROUPS:
        ruleset = group  # a session or a scene: the core's, whatever the ruleset
    elif group != ruleset:
        return refused(
            f"campaign {campaign} plays {ruleset}, not {group}: "
            f"its commands are `/tl {ruleset} ...`"
        )
    sub = sub_of(ruleset, name)
    if sub is None:
        return refused(f"/tl {ruleset} has no command {name!r}")
    if caller.role == "observer":
        return refused(unlinked(campaign))
    commands = collect(ruleset, sub, given)
    if not commands:
        return refused(f"/tl {ruleset} {name} changes nothing on the table")
    return acted(store, campaign, caller, commands)


def _sealing_forms(store: EventStore, campaign: str, caller: Caller, command: Command) -> bool:
    """Whether the caller's page would seal this command (so Discord must not carry it)."""
    page = page_of(store, campaign, caller, head=store.head(campaign))
    return any(
        form.seals is not None and endpoint_at(page.ruleset, form.path).command is type(command)
        for form in page.forms
    )


def acted(store: EventStore, campaign: str, caller: Caller, commands: Sequence[Command]) -> Reply:
    """Execute the commands in order (each as the caller), then say what they appended."""
    public: list[LogItem] = []
    own: list[LogItem] = []
    for command in commands:
        if _sealing_forms(store, campaign, caller, command):
            return refused(sealed(campaign, _ruleset(store, campaign)))
        try:
            seen = _executed(store, campaign, caller, command)
        except Forbidden as exc:
            return refused(exc.message)
        except TablelogError as exc:
            if exc.code in _SEALED_CODES:
                return refused(sealed(campaign, _ruleset(store, campaign)))
            raise
        public += seen[0]
        own += seen[1]
    return _answer(store, campaign, caller, public, own)


def _ruleset(store: EventStore, campaign: str) -> str:
    with state.reading(store, campaign) as folded:
        return folded.ruleset.name


def _executed(
    store: EventStore, campaign: str, caller: Caller, command: Command
) -> tuple[list[LogItem], list[LogItem]]:
    """The command's events as the whole table sees them, and as the caller does."""
    seen: list[tuple[list[LogItem], list[LogItem]]] = []

    def done(folded: Folded, written: list[Envelope]) -> None:
        seen.clear()  # only the last try's answer stands
        seen.append(
            (items_seen(folded, written, "observer:"), items_seen(folded, written, caller.viewer))
        )

    execute(store, campaign, command, caller=caller, on_done=done)
    return seen[0] if seen else ([], [])


def _line(item: LogItem) -> str:
    """An event in the channel, as `tablelog log` words it: its text escaped, so a player's
    words can neither ping, format, link nor start a line of their own."""
    return f"`{item.seq:>5}` {escape_discord(item.text)}"


def _answer(
    store: EventStore, campaign: str, caller: Caller, public: list[LogItem], own: list[LogItem]
) -> Reply:
    lines = [_line(i) for i in public] or ["nothing was appended"]
    notice, buttons, mention = turn_notice(store, campaign)
    content = "\n".join([*lines, *notice])
    response = {
        "type": MESSAGE,
        "data": message(content, ephemeral=False, components=buttons, mention=mention),
    }
    followups = []
    # Something the table may not see (a card played face down, a pool bought): the caller
    # alone is told what they now hold, their own view of it.
    if any(i.line != p.line for i, p in zip(own, public, strict=False)):
        private = [_line(i) for i, p in zip(own, public, strict=False) if i.text != p.text]
        private += hand_read(store, campaign, caller)
        followups.append(message("Only you see:\n" + "\n".join(private), ephemeral=True))
    return Reply(response, followups)


def turn_notice(
    store: EventStore, campaign: str
) -> tuple[list[str], list[dict[str, Any]], list[str]]:
    """Whom the table waits on now (mentioning each linked seat's Discord user), with a
    button for each of the first steps that opens its form."""
    steps = [w for w in waiting_in(store, campaign, notices=False) if not w.optional]
    if not steps:
        return [], [], []
    users = linked_users(store, campaign)
    lines: list[str] = []
    mention: list[str] = []
    buttons: list[dict[str, Any]] = []
    offered: set[str] = set()
    for step in steps:
        seat = GM if step.gm else step.player
        user = users.get(seat)
        seat_words = escape_discord(
            step.player + (f" for {step.character}" if step.character else "")
        )
        who = f"<@{user}> ({seat_words})" if user else seat_words
        if user and pings.get():
            mention.append(user)
        where = f" ({step.conflict})" if step.conflict else ""
        lines.append(f"waiting on {who}: {escape_discord(step.what + where)}")
        if len(buttons) < BUTTONS:
            for form in _step_forms(store, campaign, seat, step.player):
                if form.id not in offered and len(buttons) < BUTTONS:
                    offered.add(form.id)
                    buttons.append(_button(form, step.player))
    rows = [{"type": 1, "components": buttons}] if buttons else []
    return lines, rows, mention


def step_buttons(
    store: EventStore, campaign: str, seat: str, conflict: str | None = None
) -> list[dict[str, Any]]:
    """A row of buttons for the steps the table waits on `seat` (a player's key or `gm`),
    in `conflict` when one is given (a notice's)."""
    name = seat
    if seat == GM:
        with state.reading(store, campaign) as folded:
            name = str(folded.ruleset.cast.gm(folded.state))
    forms = [
        f
        for f in _step_forms(store, campaign, seat, name)
        if conflict is None or f.conflict in (None, conflict)
    ]
    buttons = [_button(f) for f in forms[:BUTTONS]]
    return [{"type": 1, "components": buttons}] if buttons else []


def _step_forms(store: EventStore, campaign: str, seat: str, name: str) -> list[Form]:
    """The forms of `seat`'s page that its waited steps point at."""
    role = "gm" if seat == GM else "player"
    caller = Caller(campaign=campaign, player=name, role=role, digest="")
    page = page_of(store, campaign, caller, head=store.head(campaign))
    targets = {s.target for s in page.awaiting if s.mine and not s.optional and s.target}
    return [f for f in page.forms if f.id in targets and f.seals is None and f.opens is None]


def _button(form: Form, who: str = "") -> dict[str, Any]:
    """The step's button, named for whom it is when a message holds several seats'."""
    label = f"{form.title} ({who})" if who else form.title
    label = label if len(label) <= 80 else label[:79] + "\u2026"
    return {"type": 2, "style": 1, "label": label, "custom_id": (CUSTOM + form.id)[:100]}


_NUMBERED = re.compile(r"-\d+$")


def _form_of(store: EventStore, campaign: str, caller: Caller, custom_id: str) -> Form | None:
    """The caller's form a button or modal names: that one, or, when the forms of one
    command changed since (a GM's two stakes, one of them played: numbered again, or the
    side left now fixed), the first of the same command and the same fixed values."""
    wanted = custom_id.removeprefix(CUSTOM)
    forms = page_of(store, campaign, caller, head=store.head(campaign)).forms
    exact = next((f for f in forms if f.id == wanted), None)
    if exact is not None:
        return exact
    stem = _NUMBERED.sub("", wanted)
    return next(
        (f for f in forms if _NUMBERED.sub("", f.id) == stem or f.id.startswith(f"{stem}-")),
        None,
    )


def _not_offered(campaign: str, caller: Caller) -> str:
    if caller.role == "observer":
        return unlinked(campaign)
    return (
        "that step is not yours to take now (it was another seat's, or the table has moved "
        "on): `/tl waiting` says whom the table waits on"
    )


def pressed(store: EventStore, campaign: str, user: str, custom_id: str) -> Reply:
    """A turn notice's button: its form in a modal, its fixed values filled (a form that
    asks nothing is sent at once)."""
    caller = caller_of(store, campaign, user)
    form = _form_of(store, campaign, caller, custom_id)
    if form is None:
        return refused(_not_offered(campaign, caller))
    if form.seals is not None or form.opens is not None:
        return refused(sealed(campaign, _ruleset(store, campaign)))
    if not form.fields:
        return _sent(store, campaign, caller, form, dict(form.fixed))
    modal = modal_forms.modal(form, CUSTOM + form.id)
    if modal is None:
        return refused(
            f"{form.title} asks more than a Discord form holds: use its slash command "
            "(`/tl` and your ruleset's name) or your page"
        )
    return Reply({"type": MODAL, "data": modal})


def submitted(
    store: EventStore, campaign: str, user: str, custom_id: str, values: dict[str, str]
) -> Reply:
    """A modal sent back: the form's command with the values typed."""
    caller = caller_of(store, campaign, user)
    form = _form_of(store, campaign, caller, custom_id)
    if form is None:
        return refused(_not_offered(campaign, caller))
    return _sent(store, campaign, caller, form, modal_forms.body(form, values))


def _sent(
    store: EventStore, campaign: str, caller: Caller, form: Form, body: dict[str, Any]
) -> Reply:
    command = command_for(_ruleset(store, campaign), form.path, body)
    return acted(store, campaign, caller, [command])
