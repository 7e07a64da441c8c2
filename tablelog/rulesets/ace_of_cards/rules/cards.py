"""Cards of an Ace's deck: codes, the 30 cards a deck must hold, and a card as resolved.

A card is a value 1-7 and a suit letter (`3C`: the 3 of clubs) or one of the two jokers
(`JK1`, `JK2`). The suits are a poker deck's (the seed's simplest approach), each tied to a
different damage type when the deck is built.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

import msgspec

from tablelog.errors import InvalidInput, RuleViolation

SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
DAMAGE_TYPES = ("air", "earth", "fire", "ice")
JOKERS = ("JK1", "JK2")
VALUES = range(1, 8)
STANDARD_DECK = [f"{v}{s}" for s in SUITS for v in VALUES] + list(JOKERS)
DECK_SIZE = 30
HAND_SIZE = 5

_CARD = re.compile(r"([1-7])([CDHS])|JK[12]?")
_SUIT_NAMES = {name: letter for letter, name in SUITS.items()}


class Resolved(msgspec.Struct, frozen=True):
    """A card as a set resolves it: a joker has the suit and value its owner chose."""

    card: str
    value: int
    suit: str
    joker: bool = False


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def value_of(card: str) -> int:
    return int(card[0])


def suit_of(card: str) -> str:
    return card[-1]


def card_code(text: str) -> str:
    """The canonical code of a card as typed (`3c`, `JK1`; `joker` or `JK`: any joker)."""
    code = text.strip().upper()
    if code == "JOKER":
        code = "JK"
    if not _CARD.fullmatch(code):
        raise InvalidInput(
            f"{text.strip()!r} is not a card; write a value 1-7 and a suit letter C, D, H or S "
            "(3C, 5H) or a joker (JK1, JK2)",
            code="bad-card",
        )
    return code


def suit_letter(text: str) -> str:
    """A suit as typed: its letter (`H`) or its name (`hearts`)."""
    name = text.strip().lower()
    letter = _SUIT_NAMES.get(name) or (name.upper() if name.upper() in SUITS else None)
    if letter is None:
        raise InvalidInput(
            f"{text.strip()!r} is not one of the deck's suits: clubs (C), diamonds (D), "
            "hearts (H), spades (S)",
            code="bad-suit",
        )
    return letter


def check_deck(cards: Iterable[str]) -> list[str]:
    """The 30 cards of a deck, or the rule it breaks and the first card wrong."""
    given = list(cards)
    counted = Counter(given)
    rule = "deck must be 30 cards: 2 jokers + values 1-7 in each of 4 suits"
    for card, count in counted.items():
        if card == "JK":
            raise InvalidInput(f"{rule}; name the jokers JK1 and JK2", code="bad-deck")
        if count > 1:
            raise RuleViolation(f"{rule}; {card} given {count} times", code="bad-deck")
    for card in STANDARD_DECK:
        if card not in counted:
            raise RuleViolation(f"{rule}; {card} missing", code="bad-deck")
    if len(given) != DECK_SIZE:
        raise RuleViolation(f"{rule}; {len(given)} given", code="bad-deck")
    return given


def in_order(cards: Iterable[str]) -> list[str]:
    """Cards sorted as the standard deck lists them (a recorded deck's unknown order)."""
    rank = {card: i for i, card in enumerate(STANDARD_DECK)}
    return sorted(cards, key=lambda card: rank.get(card, len(rank)))


def shown(card: str) -> str:
    return "Joker" if card == "JK" else card


def resolved_text(r: Resolved) -> str:
    return f"{r.card}(as {r.value}{r.suit})" if r.joker else r.card
