"""Improv's cards: codes, values, colours and the ranking of two cards on the table.

Canonical codes are `2C`..`10S`, `JC` `QD` `KH` `AS` and `JK` for a Joker. Input also accepts
lower case, `T` for 10, suit symbols (`A♥`) and `joker`. Values: 2-10, J=11, Q=12, K=13, A=14,
Joker = option `joker_value`. Suits rank by option `suit_order` (default ♣ < ♦ < ♥ < ♠); a Joker
has no suit and beats every suit on equal totals.
"""

from __future__ import annotations

from enum import Enum

from tablelog.errors import InvalidInput

JOKER = "JK"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
_RANK_VALUES = {rank: value for value, rank in enumerate(RANKS, start=2)}
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED = frozenset("DH")


def parse_card(text: str) -> str:
    """The canonical code of a card as a user may type it; InvalidInput otherwise."""
    raw = text.strip()
    for symbol, letter in _SYMBOLS.items():
        raw = raw.replace(symbol, letter)
    raw = raw.upper()
    if raw in ("JK", "JOKER"):
        return JOKER
    rank, suit = raw[:-1], raw[-1:]
    if rank == "T":
        rank = "10"
    if rank in _RANK_VALUES and suit in SUITS:
        return rank + suit
    raise InvalidInput(
        f"{text!r} is not a card; use codes like 7C, 10H (or TH), QD, AS, A♥ and JK for a Joker",
        code="bad-card",
    )


def full_deck() -> list[str]:
    """One 54-card deck: 52 cards and two Jokers, in a fixed order (shuffles are stored)."""
    return [rank + suit for suit in SUITS for rank in RANKS] + [JOKER, JOKER]


def rank_of(card: str) -> str:
    return card if card == JOKER else card[:-1]


def suit_of(card: str) -> str | None:
    return None if card == JOKER else card[-1]


def value(card: str, joker_value: int) -> int:
    return joker_value if card == JOKER else _RANK_VALUES[card[:-1]]


def is_red(card: str) -> bool:
    return suit_of(card) in RED


def colours_match(a: str, b: str) -> bool:
    """Red with red, black with black; a Joker matches either colour."""
    if JOKER in (a, b):
        return True
    return is_red(a) == is_red(b)


def pretty(card: str) -> str:
    """`AH` -> `A♥`; a Joker is `Joker`."""
    suit = suit_of(card)
    return "Joker" if suit is None else rank_of(card) + SUIT_SYMBOLS[suit]


class Outcome(Enum):
    FIRST = "first"
    SECOND = "second"
    EXACT_TIE = "exact-tie"


def compare(
    first: tuple[int, str],
    second: tuple[int, str],
    *,
    suit_order: str,
    lethal_fate: bool = False,
) -> Outcome:
    """Which of two (total, card) wins: higher total, then suit; an exact tie is a Hand of Fate.

    An exact tie is an equal total with the same suit, or two Jokers; with `lethal_fate` any
    equal total is one.
    """
    (total_a, card_a), (total_b, card_b) = first, second
    if total_a != total_b:
        return Outcome.FIRST if total_a > total_b else Outcome.SECOND
    if lethal_fate:
        return Outcome.EXACT_TIE
    suit_a, suit_b = suit_of(card_a), suit_of(card_b)
    if suit_a == suit_b:
        return Outcome.EXACT_TIE
    if suit_a is None:
        return Outcome.FIRST
    if suit_b is None:
        return Outcome.SECOND
    return Outcome.FIRST if suit_order.index(suit_a) > suit_order.index(suit_b) else Outcome.SECOND


def card_key(card: str, *, joker_value: int, suit_order: str) -> tuple[int, int]:
    """Sort key for unmodified cards: value, then suit (a Joker above every suit)."""
    suit = suit_of(card)
    return value(card, joker_value), (len(suit_order) if suit is None else suit_order.index(suit))
