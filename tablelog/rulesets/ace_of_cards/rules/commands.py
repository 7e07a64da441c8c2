"""What an Ace of Cards table can ask for: one typed command per action of
rules/ace-of-cards.md.

Names are given as typed (`decide` matches them case-insensitively); cards as codes (`3C`,
`JK1`, or `JK` for the only joker in hand). Cards drawn and dice rolled are given only when
the campaign records them from the table (options deck_mode / dice = recorded).
"""

from __future__ import annotations

from typing import Literal

from tablelog.rules.common import Command


class CreateCharacter(Command, frozen=True):
    """A character with its maximum HP and MP (an Ace, or an ally); `player` gm: an NPC."""

    player: str
    character: str
    hp: int
    mp: int


class BuildDeck(Command, frozen=True):
    """The Ace of Cards class: its free benefit and the deck, each suit tied to a damage type."""

    character: str
    suit_types: dict[str, str]  # suit (letter or name) -> air, earth, fire or ice
    benefit: Literal["hp", "mp"]
    cards: list[str] | None = None  # a deck as assembled (default: the standard 30)


class SetSkillLevel(Command, frozen=True):
    character: str
    skill: str  # magic-cards, mulligan, trap-card
    sl: int


class AdjustHP(Command, frozen=True):
    character: str
    delta: int
    reason: str = ""


class AdjustMP(Command, frozen=True):
    character: str
    delta: int
    reason: str = ""


class OpenConflict(Command, frozen=True):
    party: list[str]  # characters: the Aces and their allies
    enemies: list[str]
    conflict: str | None = None
    hands: dict[str, list[str]] | None = None  # deck_mode=recorded: each Ace's opening hand


class TakeAction(Command, frozen=True):
    """An action that has resolved (an enemy's, which a Trap Card may answer, or anyone's)."""

    conflict: str | None
    actor: str
    text: str
    visible: bool = True


class UseMagicCards(Command, frozen=True):
    conflict: str | None
    character: str
    mp: int
    cards: list[str]
    jokers: dict[str, str] = {}  # joker code (or JK) -> the card it stands for (5H)
    set: str | None = None  # the effect chosen when the set fits several (or to insist on one)
    targets: list[str] = []  # Double Trouble: up to 2 enemies
    damage_type: str | None = None  # Double Trouble and Magic Pair: one of the suits' types
    statuses: list[str] = []  # Full Status: 2 of dazed, shaken, slow, weak
    drawn: list[str] | None = None  # deck_mode=recorded: the cards drawn after
    anyway: bool = False  # play a set that matches no effect (its MP and cards spent for nothing)


class Mulligan(Command, frozen=True):
    conflict: str | None
    character: str
    cards: list[str]
    drawn: list[str] | None = None


class TrapCard(Command, frozen=True):
    conflict: str | None
    character: str
    suit: str
    action: str | None = None  # default: the latest action
    card: str | None = None  # deck_mode=recorded: the deck's bottom card


class FreeSpell(Command, frozen=True):
    conflict: str | None
    character: str
    spell: str
    mp: int


class CallCheck(Command, frozen=True):
    conflict: str | None
    character: str
    kind: Literal["accuracy", "magic", "clock", "other"]
    dice: list[int]
    dl: int
    modifier: int = 0
    offensive: bool = False
    damage: int | None = None
    target: str | None = None
    double: bool = False
    check: str | None = None  # its id (default k1, k2, ...)
    free_attack: bool = False  # the free attack of the character's Magic Pair just played


class DeclareDoubleOrNothing(Command, frozen=True):
    conflict: str | None
    check: str


class RollCheck(Command, frozen=True):
    conflict: str | None
    check: str
    values: list[int] | None = None  # dice=recorded: the two faces
    opportunity_on_clock: bool = False


class HighOrLowDraw(Command, frozen=True):
    conflict: str | None
    character: str
    card: str | None = None  # deck_mode=recorded: the card drawn


class HighOrLowDiscard(Command, frozen=True):
    conflict: str | None
    character: str
    card: str


class EndConflict(Command, frozen=True):
    conflict: str | None
