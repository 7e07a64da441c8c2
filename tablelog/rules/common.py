"""Commands every ruleset answers: the table-wide `session` and `scene` commands."""

from __future__ import annotations

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every command a ruleset's `decide` accepts."""


class Clocked(Command, frozen=True, kw_only=True):
    """A command whose rule depends on the time (a deadline): `now`, in microseconds UTC, is
    set by `commands.table.execute` from the clock of whoever appends (the service), whatever
    the caller sent, and is no part of an HTTP body. Rules stay pure: they read `now`, never
    the clock."""

    now: int = 0


class StartSession(Command, frozen=True):
    pass


class EndSession(Command, frozen=True):
    pass


class StartScene(Command, frozen=True):
    title: str | None = None


class EndScene(Command, frozen=True):
    pass


class JoinPlayer(Command, frozen=True):
    """A player joins the campaign (an invitation to the service); nothing if already there."""

    player: str
