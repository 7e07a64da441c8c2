"""What a user may ask of an Improv table: one typed Struct per intent.

Names arrive as typed (any case); `decide` turns them into keys. Optional fields left None take
the documented defaults (the only open conflict, the card's owner, ...).
"""

from __future__ import annotations

from typing import Literal

from tablelog.rules.common import (
    Clocked,
    Command,
    EndScene,
    EndSession,
    StartScene,
    StartSession,
)

__all__ = ["Command", "EndScene", "EndSession", "StartScene", "StartSession"]


class CreateCharacter(Command, frozen=True):
    player: str
    character: str
    talents: list[str] = []


class OpenConflict(Command, frozen=True):
    conflict: str | None = None
    extended: bool = False
    rounds: int | None = None


class SetStake(Command, frozen=True):
    conflict: str | None
    side: str
    text: str
    opposes: str | None = None
    gm: bool = False


class PlayCard(Command, frozen=True):
    conflict: str | None
    side: str
    card: str | None = None
    from_deck: bool = False
    # With the option sealed_plays: the card's commitment (rules/sealing.py), never the card,
    # and the round the commitment binds (a play landing in another round is refused).
    commitment: str | None = None
    round: int | None = None


class OpenCard(Command, frozen=True):
    """Open a sealed card: the card and the salt its commitment was made with."""

    conflict: str | None
    side: str
    card: str
    salt: str  # 64 hex digits


class SetOpeningDeadline(Clocked, frozen=True):
    """The GM's deadline for the openings of the current round (minutes from `now`, the
    service's clock)."""

    conflict: str | None
    minutes: int


class ForfeitOpening(Clocked, frozen=True):
    """After the deadline (by `now`, the service's clock): a side that has not opened its
    sealed card forfeits the round."""

    conflict: str | None
    side: str


class PlaceBonus(Command, frozen=True):
    conflict: str | None
    on: str
    by: str | None = None
    tokens: int = 0
    talent: str | None = None
    assist: str | None = None


class Reveal(Command, frozen=True):
    conflict: str | None


class Fate(Command, frozen=True):
    conflict: str | None
    side: str
    draw: str | None = None
    choice: Literal["eliminate", "stay"] | None = None


class Give(Command, frozen=True):
    conflict: str | None
    giver: str
    receiver: str
    card: str | None = None
    random: bool = False


class Award(Command, frozen=True):
    giver: str
    receiver: str
    conflict: str | None = None


class Redraw(Command, frozen=True):
    player: str
    cards: list[str]


class Bribe(Command, frozen=True):
    giver: str
    receiver: str
    conflict: str | None = None


class Narrate(Command, frozen=True):
    conflict: str | None
    side: str
    text: str
    final: bool = False


class Close(Command, frozen=True):
    conflict: str | None


class Abandon(Command, frozen=True):
    """The GM ends an open conflict with no outcome (rules/improv.md §2)."""

    conflict: str | None
    reason: str
