"""What a Bid & Challenge table can ask for: one typed command per action of
rules/bid-and-challenge.md.

Names are given as typed (`decide` matches them case-insensitively); a card's dice value as
`1d6+2`, `2d6`, `1d6-1` or `0d6+2`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from tablelog.rules.common import Command


class CardSpec(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    value: str  # Nd6+M


class PowerSpec(msgspec.Struct, frozen=True, kw_only=True):
    """The one power a bid names (see `Power` in the events): restore and strike name a
    `target` character and its `cards`; detail a `detail` id and its `text`; universe_card a
    new card (`card`)."""

    type: Literal["restore", "strike", "detail", "universe_card"]
    target: str | None = None
    cards: list[str] = []
    detail: str | None = None
    text: str | None = None
    card: CardSpec | None = None


class RegisterDeck(Command, frozen=True):
    """A major character's deck and Flow; `player` plays it (the GM's key for its own)."""

    player: str
    character: str
    flow: int
    cards: list[CardSpec]


class AddUniverseCard(Command, frozen=True):
    """The GM puts a card into the shared universe deck (fate, terrain, weather, ...)."""

    card: CardSpec


class KillCharacter(Command, frozen=True):
    """A character dies for good: only when its player's deck is empty."""

    character: str
    text: str = ""


class OpenScene(Command, frozen=True):
    seating: list[str]  # characters, clockwise
    requested_by: str
    starting: str | None = None  # default: the one who asked for the scene
    premise: str = ""
    conflict: str | None = None  # the scene's id; default s1, s2, ...


class Bid(Command, frozen=True):
    conflict: str | None
    active: str
    description: str
    cards: list[str]
    power: PowerSpec


class Pass(Command, frozen=True):
    """The active player passes the bid, or the player asked declines the challenge."""

    conflict: str | None
    player: str


class Challenge(Command, frozen=True):
    conflict: str | None
    challenger: str
    description: str
    cards: list[str] = []  # from the challenger's own Deck
    universe: list[str] = []  # from the universe deck
    power: PowerSpec | None = None  # only with option challenger_power


class Push(Command, frozen=True):
    conflict: str | None
    active: str
    description: str  # the bid's description, rewritten to answer the challenge
    cards: list[str]


class Roll(Command, frozen=True):
    """Roll every committed card (managed dice) or record the faces rolled at the table
    (recorded dice: the faces of each side's dice, card by card in the order committed)."""

    conflict: str | None
    active_faces: list[int] | None = None
    challenger_faces: list[int] | None = None
    # What the table worked out from recorded faces: refused if the rules reach otherwise.
    expect_winner: str | None = None
    expect_totals: list[int] | None = None  # [active, challenger]


class Narrate(Command, frozen=True):
    """The winner of the scene's latest decided round says what happens (once, optional)."""

    conflict: str | None
    player: str  # the winning character
    text: str


class CloseScene(Command, frozen=True):
    """The GM ends a scene between rounds (it also ends when every player passes in a row)."""

    conflict: str | None
    reason: str = ""
