"""The core commands of a committed shuffle (commands/rng_flow.py answers them), taken by
every campaign whatever its ruleset."""

from __future__ import annotations

from tablelog.rules.common import Clocked, Command


class Contribute(Clocked, frozen=True):
    """A player's 32 random bytes (hex) for a request awaiting them. Through the service the
    player is the caller; `player` names them when the local operator relays it."""

    request: str
    value: str
    player: str | None = None


class CloseRequest(Clocked, frozen=True):
    """The GM closes a request after its deadline: missing contributions count as absent."""

    request: str


class RevealSeed(Command, frozen=True):
    """The GM reveals a drawn request's server seed before its conflict or session ends."""

    request: str


RNG_COMMANDS = (Contribute, CloseRequest, RevealSeed)
