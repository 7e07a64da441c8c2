"""Running a ruleset command against a campaign, and reading its state.

`execute` is the append algorithm of the design: inside one write transaction (the campaign's
lock held) it folds the log, lets the ruleset decide, and appends what it decided (with the
commands queued beside it: group_commit.py). A refusal raises before anything is written.
Managed decks shuffle with `secrets`; the order is stored.
"""

from __future__ import annotations

import copy
import secrets
import time
from typing import Any

import msgspec

from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.awaits import awaiting_json
from tablelog.commands.group_commit import (
    OnBegin,
    OnCommit,
    OnDone,
    OnSettled,
    Order,
    Submit,
    place,
    place_soon,
)
from tablelog.commands.log import MAX_SEQ
from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import Folded
from tablelog.projections.views import state_view
from tablelog.rules.common import Clocked, Command
from tablelog.rules.names import player_name
from tablelog.rules.table import GM
from tablelog.storage import CampaignHead, EventStore
from tablelog.storage.access import seat_roles

_RANDOM = secrets.SystemRandom()


def secure_shuffle(cards: list[str]) -> list[str]:
    shuffled = list(cards)
    _RANDOM.shuffle(shuffled)
    return shuffled


SALT_BYTES = 16


def salted(event: Event) -> Event:
    """The event with random salt when it has fields some callers may not see (Event.hidden)."""
    if not event.hidden or getattr(event, "salt", None) != "":
        return event
    return msgspec.structs.replace(event, salt=secrets.token_hex(SALT_BYTES))


def execute(
    store: EventStore,
    campaign: str,
    command: Command,
    *,
    ruleset: str | None = None,
    actor: str | None = None,
    expected_seq: int | None = None,
    shuffle: Any = secure_shuffle,
    caller: Caller | None = None,
    on_begin: OnBegin | None = None,
    on_commit: OnCommit | None = None,
    on_done: OnDone | None = None,
) -> list[Envelope]:
    """Decide `command` on the campaign's current state and append the events it causes.

    Inside one write transaction (the campaign's lock held), shared with any commands that
    queued for the campaign meanwhile (group_commit.py). `caller` (through the service) must
    be allowed to issue the command; its events are then attributed to it. `on_begin` runs
    first, with the lock held: it may raise to stop before anything is decided (the
    service's retried request whose first try has just committed). `on_commit` runs inside
    the same transaction after the append, so what it writes (the service's remembered
    response) exists exactly when the events do. `on_done` gets the state the events moved
    on, before any later command moves it (the service's response, built without reading
    the state again); what it builds counts only once this returns, and it may be called
    again should the command be tried once more on its own.
    """
    order = _order(command, ruleset, actor, expected_seq, shuffle, caller, on_begin, on_commit)
    order.on_done = on_done
    return place(store, campaign, order, salted)


def execute_soon(
    store: EventStore,
    campaign: str,
    command: Command,
    *,
    caller: Caller,
    expected_seq: int | None,
    on_done: OnDone,
    on_settled: OnSettled,
    submit: Submit,
) -> None:
    """`execute` for a caller that must not block (the service's event loop): the command
    is queued and this returns; `on_settled` gets its order, settled, in the writing thread
    (`order.outcome()`: its events, or what refused it), which `submit` starts if need be
    (group_commit.place_soon)."""
    order = _order(command, None, None, expected_seq, secure_shuffle, caller, None, None)
    order.on_done, order.on_settled = on_done, on_settled
    place_soon(store, campaign, order, salted, submit)


def _order(
    command: Command,
    ruleset: str | None,
    actor: str | None,
    expected_seq: int | None,
    shuffle: Any,
    caller: Caller | None,
    on_begin: OnBegin | None,
    on_commit: OnCommit | None,
) -> Order:
    if isinstance(command, Clocked):
        command = msgspec.structs.replace(command, now=time.time_ns() // 1000)
    return Order(
        command=command,
        ruleset=ruleset,
        actor=actor,
        expected_seq=expected_seq,
        shuffle=shuffle,
        caller=caller,
        on_begin=on_begin,
        on_commit=on_commit,
        on_done=None,
        committable=shuffle is secure_shuffle,
    )


def campaign_state(store: EventStore, campaign: str, *, at: int | None = None) -> Folded:
    """The campaign's state now, or as of seq `at`: a private copy the caller may keep (a
    read that only looks, inside `state.reading`, spares the copy)."""
    if at is not None and not 1 <= at <= MAX_SEQ:
        raise RuleViolation(f"--at must be a seq from 1 to {MAX_SEQ}; got {at}", code="bad-seq")
    if at is not None:
        return state.state_at(store, campaign, at)
    with state.reading(store, campaign) as folded:
        return copy.deepcopy(folded)


def viewer_named(store: EventStore, campaign: str, name: str) -> str:
    """The viewer `--as NAME` asks for on a local database: the GM's seat (`gm` or the GM's
    name), a player of the campaign, or an observer (who sees what is public). Any other
    name is refused: it would show an outsider's view under a name nobody holds."""
    key = player_name(name, "--as name")
    with state.reading(store, campaign) as folded:
        gm = str(getattr(folded.state, "gm", GM))
        # Every ruleset's state keeps its players by key (a dict or a list of keys).
        players = [str(p) for p in getattr(folded.state, "players", ()) if p not in (gm, GM)]
    if key in (GM, gm):
        return GM
    if key in players:
        return key
    seats = seat_roles(store, campaign)
    if key in seats:
        return key if "player" in seats[key] else f"observer:{key}"
    observers = [p for p, roles in seats.items() if roles == {"observer"}]
    who = f"a player ({', '.join(players) or 'none yet'})"
    if observers:
        who += f", an observer ({', '.join(sorted(observers))})"
    raise InvalidInput(
        f"{name.strip()} is no player or observer of campaign {campaign}; --as names {who} "
        f"or the GM ({gm})",
        code="unknown-viewer",
    )


def state_view_of(
    store: EventStore,
    campaign: str,
    viewer: str | None,
    *,
    at: int | None = None,
    head: CampaignHead | None = None,
) -> dict[str, Any]:
    """`state --json` as `viewer` sees it (None: everything), now or as of seq `at`; `head`
    (see `state.reading`) spares a read. The view may be shared with other callers (the
    service's): read it, do not change it."""
    if at is not None:
        return state_view(campaign_state(store, campaign, at=at), viewer)

    def now(folded: Folded, seen: str | None) -> dict[str, Any]:
        steps = state.tracked(store, folded).steps.values()
        return {**state_view(folded, seen), "awaiting": awaiting_json(folded, steps)}

    view: dict[str, Any] = state.kept_view(store, campaign, viewer, head, now)
    return view
