"""The cards and the numbers they make: the one place that values a raise, judges an answer
and checks a payment. The command, the audit, replay and the views all call these.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablelog.errors import InvalidInput
from tablelog.rulesets.night_terrors.rules.options import NightTerrorsOptions

SUITS = ("D", "H", "C", "S")  # in the order a conflict escalates
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACES = ("J", "Q", "K")
DECK = tuple(f"{rank}{suit}" for suit in ("C", "D", "H", "S") for rank in RANKS)
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
RANK_NAMES = {"K": "King", "Q": "Queen", "J": "Jack"}
TYPES = {"talk": "D", "physical": "H", "melee": "C", "guns": "S"}
TYPE_OF = {suit: kind for kind, suit in TYPES.items()}
# The pools a cost may be paid from under each trump.
PAID_IN: dict[str, tuple[str, ...]] = {
    "D": ("tears",),
    "H": ("tears", "sweat"),
    "C": ("sweat", "blood"),
    "S": ("blood",),
}
# The pool each rank may trade up to half of.
TRADES = {"K": "sweat", "Q": "tears", "J": "blood"}
POOLS = ("blood", "sweat", "tears")


def card(text: str) -> str:
    """The canonical code of a card (`6d` -> `6D`, `t` is not a rank); InvalidInput otherwise."""
    code = text.strip().upper()
    if code in DECK:
        return code
    raise InvalidInput(
        f"{text!r} is not a card; write rank and suit, e.g. 6D, 10H, KS (A,2-10,J,Q,K and C,D,H,S)",
        code="bad-card",
    )


def rank(code: str) -> str:
    return code[:-1]


def suit(code: str) -> str:
    return code[-1]


def is_face(code: str) -> bool:
    return rank(code) in FACES


def single(code: str, options: NightTerrorsOptions) -> int:
    """A card rated alone: pips, the Ace its option, a face its option (10)."""
    r = rank(code)
    if r in FACES:
        return options.face_value
    return options.ace_value if r == "A" else int(r)


def value(cards: list[str], options: NightTerrorsOptions) -> int:
    """Cards played together: faces double the number cards once; faces alone are 10 each."""
    numbers = sum(single(c, options) for c in cards if not is_face(c))
    faces = sum(1 for c in cards if is_face(c))
    if faces == 0:
        return numbers
    return 2 * numbers if numbers > 0 else options.face_value * faces


def trump_value(cards: list[str], trump: str, options: NightTerrorsOptions) -> int | None:
    """What an answer without a trump costs: the largest single trump value in the raise. A
    number trump counts its pips; a trump face passes its status to its partners (their single
    values: 6 + KS gives 6, QC + JS gives 10). None when the raise holds no trump."""
    found: list[int] = []
    for code in cards:
        if suit(code) != trump:
            continue
        if not is_face(code):
            found.append(single(code, options))
            continue
        partners = [single(c, options) for c in cards if c != code]
        found.append(max(partners) if partners else options.face_value)
    return max(found) if found else None


def middle(cards: list[str], options: NightTerrorsOptions) -> int:
    """The fallout of a see with 3+ cards: the highest middle card (see option `middle`)."""
    rated = [single(c, options) for c in cards]
    if options.middle == "positional":
        return max(rated[1:-1])
    return sorted(rated)[-2]


@dataclass(frozen=True)
class Judged:
    """An answer's outcome as the rules decide it."""

    total: int
    outcome: str  # reversal | see | heavy_see | push | short (a see that does not meet)
    fallout: int
    trump_fallout: int
    price: int

    @property
    def cost(self) -> int:
        return self.fallout + self.trump_fallout + self.price


def judge(
    cards: list[str],
    raise_value: int,
    raise_trump: int | None,
    trump_at_raise: str,
    push: bool,
    options: NightTerrorsOptions,
) -> Judged:
    """Judge an answer to a raise: a see (1 card: reversal, 2: see, 3+: heavy see with the
    middle card's fallout), or a push paying the difference; trump duty on top."""
    total = value(cards, options) if cards else 0
    holds_trump = any(suit(c) == trump_at_raise for c in cards)
    duty = 0 if raise_trump is None or holds_trump else raise_trump
    if push:
        trump_cost = duty if options.push_trump_fallout else 0
        return Judged(total, "push", 0, trump_cost, max(raise_value - total, 0))
    if total < raise_value:
        return Judged(total, "short", 0, duty, raise_value - total)
    if len(cards) == 1:
        return Judged(total, "reversal", 0, duty, 0)
    if len(cards) == 2:
        return Judged(total, "see", 0, duty, 0)
    return Judged(total, "heavy_see", middle(cards, options), duty, 0)


def best_cards(hand: list[str], options: NightTerrorsOptions) -> list[str]:
    """The cards of `hand` that make the most: every number card (with one face to double
    them, when the hand holds one), or every face alone. (The web page offers a see with
    them as its probe.)"""
    numbers = [c for c in hand if not is_face(c)]
    faces = [c for c in hand if is_face(c)]
    total = sum(single(c, options) for c in numbers)
    if not faces:
        return numbers
    if total and 2 * total >= options.face_value * len(faces):
        return [*numbers, faces[0]]
    return faces


def best(hand: list[str], options: NightTerrorsOptions) -> int:
    """The most any cards of `hand` make (see `best_cards`)."""
    chosen = best_cards(hand, options)
    return value(chosen, options) if chosen else 0


def can_meet(hand: list[str], raise_value: int, options: NightTerrorsOptions) -> bool:
    """Whether some cards of `hand` meet the raise."""
    return best(hand, options) >= raise_value


def draw_count(character_suit: str, trump: str, options: NightTerrorsOptions) -> int:
    """Cards drawn for a conflict or an escalation: one more when the trump is one's suit."""
    return options.conflict_draw + (1 if character_suit == trump else 0)


def n_cards(count: int) -> str:
    """`1 card`, `4 cards`: counts in sentences."""
    return f"{count} card" if count == 1 else f"{count} cards"


def deciders(winners: list[str]) -> str:
    """Who decides the stakes, as a sentence's subject and verb: `alice decides`."""
    if not winners:
        return "nobody decides"
    return f"{', '.join(winners)} {'decides' if len(winners) == 1 else 'decide'}"
