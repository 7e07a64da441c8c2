"""What a Night Terrors table can ask for: one typed command per action of
rules/night-terrors.md. Names and cards are given as typed (`decide` matches them
case-insensitively: `alice`, `6d`)."""

from __future__ import annotations

from tablelog.rules.common import Command


class CreateCharacter(Command, frozen=True):
    """A character and its face card (`KS`: the King of Spades); `player` gm for an NPC."""

    player: str
    character: str
    card: str


class OpenConflict(Command, frozen=True):
    """`kind`: talk, physical, melee or guns (or the trump suit itself: D, H, C, S)."""

    aggressor: str
    others: list[str]
    kind: str
    stakes: str = ""
    place: str = ""
    approach: str = ""
    conflict: str | None = None


class Raise(Command, frozen=True):
    conflict: str | None
    character: str
    cards: list[str]
    narration: str = ""


class See(Command, frozen=True):
    conflict: str | None
    character: str
    cards: list[str]
    narration: str = ""


class Push(Command, frozen=True):
    """Answer with the cards one has (0 or more) and pay the difference as a price."""

    conflict: str | None
    character: str
    cards: list[str] = []
    narration: str = ""


class Escalate(Command, frozen=True):
    """`to`: the new trump's conflict type or suit (default: the next one up)."""

    conflict: str | None
    character: str
    to: str | None = None


class Give(Command, frozen=True):
    conflict: str | None
    character: str


class Pay(Command, frozen=True):
    """Pay the character's oldest unpaid fallout or price, split between pools."""

    character: str
    blood: int = 0
    sweat: int = 0
    tears: int = 0


class Draw(Command, frozen=True):
    """Recorded deck: the cards a character drew, as the table dealt them."""

    character: str
    cards: list[str]


class Discard(Command, frozen=True):
    """At a hand reset: a hand above the hand size discards down to it (own choice)."""

    character: str
    cards: list[str]


class Refresh(Command, frozen=True):
    """At a hand reset: discard any cards and draw back up to the hand size."""

    character: str
    cards: list[str]


class Abandon(Command, frozen=True):
    """The GM ends an open conflict that cannot go on (a player gone quiet): nobody wins."""

    conflict: str | None
    reason: str


class Narrate(Command, frozen=True):
    """A winner decides the stakes and narrates the outcome."""

    conflict: str | None
    character: str
    text: str
