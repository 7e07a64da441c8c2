"""Web sessions: who is signed in on a browser, and ending any of them.

A session is shown by its id, the first characters of its stored digest: enough to name it,
nothing to sign in with (the secret is never stored, let alone shown). The operator, on the
database, sees and ends every session of a campaign; through the service the GM does too,
and a player or an observer only their own. Ending a session revokes it at once (its page's
next request is refused, its live feed ends), as signing out does; nothing is logged, as
for `revoke`.
"""

from __future__ import annotations

import re

import msgspec

from tablelog.commands.access import Caller
from tablelog.commands.ended import ended_by
from tablelog.commands.session_policy import SessionPolicy
from tablelog.errors import Forbidden, InvalidInput, NotFound
from tablelog.rules.names import player_name
from tablelog.storage import EventStore
from tablelog.storage.access import SessionRow, end_sessions, session_rows

ID_LENGTH = 12
_ID = re.compile(r"[0-9a-f]{6,64}")


class Session(msgspec.Struct, frozen=True, kw_only=True):
    """A web session as listed: never its secret."""

    id: str
    player: str
    role: str
    created_at: int  # microseconds UTC
    last_used_at: int  # as last recorded (the service records a use at most once a minute)
    current: bool = False  # the session of the caller's own browser


class Ended(msgspec.Struct, frozen=True, kw_only=True):
    ended: list[Session]


def _whose(caller: Caller | None, player: str | None) -> str | None:
    """Whose sessions the caller may see: everyone's (None) for the operator and the GM
    (or those of `player`, when given); a player's or observer's own only."""
    wanted = None if player is None else player_name(player, "player name")
    if caller is None or caller.role == "gm":
        return wanted
    if wanted is not None and wanted != caller.player:
        raise Forbidden(
            f"a {caller.role} sees and ends only their own sessions; {caller.player} asked "
            f"for {wanted}'s",
            code="not-your-session",
        )
    return caller.player


def _rows(
    store: EventStore, campaign: str, policy: SessionPolicy | None, player: str | None
) -> list[SessionRow]:
    idle_before, born_before = policy.cutoffs() if policy is not None else (0, 0)
    rows = session_rows(store, campaign, idle_before=idle_before, born_before=born_before)
    return [r for r in rows if player is None or r.player == player]


def _listed(row: SessionRow, caller: Caller | None) -> Session:
    return Session(
        id=row.digest[:ID_LENGTH],
        player=row.player,
        role=row.role,
        created_at=row.created_at,
        last_used_at=row.used_at,
        current=caller is not None and caller.digest == row.digest,
    )


def listed(
    store: EventStore,
    campaign: str,
    *,
    caller: Caller | None = None,
    player: str | None = None,
    policy: SessionPolicy | None = None,
) -> list[Session]:
    """The campaign's live web sessions the caller may see (`player`'s only, when given),
    oldest first. `policy`: the service's, which hides the sessions it has ended for their
    age (a local list shows every session not signed out, revoked or ended)."""
    rows = _rows(store, campaign, policy, _whose(caller, player))
    return [_listed(row, caller) for row in rows]


def checked_id(session_id: str) -> str:
    """A session id as given (hexadecimal, at least 6 characters), in lower case."""
    given = session_id.strip().lower()
    if not _ID.fullmatch(given):
        raise InvalidInput(
            f"a session id is the hexadecimal id `tablelog sessions` lists ({ID_LENGTH} "
            f"characters); got {session_id!r}",
            code="bad-session-id",
        )
    return given


def end(
    store: EventStore,
    campaign: str,
    session_id: str,
    *,
    caller: Caller | None = None,
    policy: SessionPolicy | None = None,
) -> Ended:
    """End the session `session_id` names (its id as listed, or a longer prefix of it)."""
    given = checked_id(session_id)
    every = _rows(store, campaign, policy, None)
    found = [row for row in every if row.digest.startswith(given)]
    if not found:
        raise NotFound(
            f"campaign {campaign} has no live web session {given}; `tablelog sessions` lists them",
            code="no-session",
        )
    if len(found) > 1:
        raise InvalidInput(
            f"{given} names {len(found)} sessions of campaign {campaign}; give the whole id",
            code="ambiguous-session",
        )
    row = found[0]
    mine = _whose(caller, None)
    if mine is not None and row.player != mine:
        assert caller is not None  # the operator sees everyone's
        raise Forbidden(
            f"session {given} is not {caller.player}'s; a {caller.role} ends only their own "
            "sessions",
            code="not-your-session",
        )
    return _end(store, campaign, [row], caller)


def end_all(
    store: EventStore,
    campaign: str,
    *,
    caller: Caller | None = None,
    player: str | None = None,
    policy: SessionPolicy | None = None,
) -> Ended:
    """End every live session the caller may see (`player`'s only, when given)."""
    return _end(store, campaign, _rows(store, campaign, policy, _whose(caller, player)), caller)


def _end(store: EventStore, campaign: str, rows: list[SessionRow], caller: Caller | None) -> Ended:
    with store.transaction(campaign) as tx:
        for player in sorted({row.player for row in rows}):  # each seat's, with why
            why = ended_by(
                None if caller is None else caller.role,
                None if caller is None else caller.player,
                player,
            )
            digests = [row.digest for row in rows if row.player == player]
            end_sessions(tx.connection, campaign, digests, why)
    return Ended(ended=[_listed(row, caller) for row in rows])
