"""The core commands of a committed shuffle (commands/rng_flow.py answers them), taken by
every campaign whatever its ruleset."""

from __future__ import annotations

from tablelog.rules.common import Clocked, Command


class Pledge(Clocked, frozen=True):
    """A player's commitment (hex, rules/rng.py `pledge`) to the 32 bytes it will reveal,
    for a request awaiting pledges. Through the service the player is the caller; `player`
    names them when the local operator relays it."""

    request: str
    commitment: str
    player: str | None = None


class Contribute(Clocked, frozen=True):
    """A player's 32 random bytes (hex) for a request awaiting them: the value pledged, once
    the request's pledges closed (or, in a request committed before pledges, at once)."""

    request: str
    value: str
    player: str | None = None


class CloseRequest(Clocked, frozen=True):
    """The GM closes a request after its deadline: missing pledges count as absent (and the
    pledged reveal); after the reveal deadline, a pledge still unrevealed counts as withheld."""

    request: str


class RevealSeed(Command, frozen=True):
    """The GM reveals a drawn request's server seed before its conflict or session ends."""

    request: str


RNG_COMMANDS = (Pledge, Contribute, CloseRequest, RevealSeed)
