"""Commands every ruleset answers: the table-wide `session` and `scene` commands."""

from __future__ import annotations

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every command a ruleset's `decide` accepts."""


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
