"""The one place that decides what a set is and what it does (rules/ace-of-cards.md, "Set
matching is exact").

`fits` lists every effect the resolved cards match exactly; `why_not` says, in the file's
words, why a named effect does not; `amount_of` and `damage_type_of` are the effect's numbers.
The command, the audit, the views and the exports all call these.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from tablelog.rulesets.ace_of_cards.rules.cards import Resolved, resolved_text

JACKPOT = "jackpot"
MAGIC_FLUSH = "magic-flush"
BLINDING_FLUSH = "blinding-flush"
FULL_STATUS = "full-status"
TRIPLE_SUPPORT = "triple-support"
DOUBLE_TROUBLE = "double-trouble"
MAGIC_PAIR = "magic-pair"

NAMES = {
    JACKPOT: "Jackpot",
    MAGIC_FLUSH: "Magic Flush",
    BLINDING_FLUSH: "Blinding Flush",
    FULL_STATUS: "Full Status",
    TRIPLE_SUPPORT: "Triple Support",
    DOUBLE_TROUBLE: "Double Trouble",
    MAGIC_PAIR: "Magic Pair",
}
SETS = tuple(NAMES)
STATUSES = ("dazed", "shaken", "slow", "weak")
JACKPOT_RECOVERY = 777

REQUIREMENTS = {
    JACKPOT: "exactly 4 cards of one value, no jokers",
    MAGIC_FLUSH: "exactly 4 cards of consecutive values, one suit",
    BLINDING_FLUSH: "exactly 4 cards of consecutive values",
    FULL_STATUS: "exactly 5 cards: 3 of one value + 2 of one value",
    TRIPLE_SUPPORT: "exactly 3 cards of one value",
    DOUBLE_TROUBLE: "exactly 4 cards: 2 of one value + 2 of one value",
    MAGIC_PAIR: "exactly 2 cards of one value",
}


def set_key(text: str) -> str | None:
    """A set's key as typed (`Magic Flush`, `magic-flush`, `magic_flush`), None if unknown."""
    key = "-".join(text.strip().lower().replace("_", " ").replace("-", " ").split())
    return key if key in NAMES else None


def _groups(cards: Sequence[Resolved]) -> list[int]:
    return sorted(Counter(c.value for c in cards).values(), reverse=True)


def _consecutive(cards: Sequence[Resolved]) -> bool:
    values = sorted(c.value for c in cards)
    return all(b == a + 1 for a, b in itertools.pairwise(values))


def _two_groups(cards: Sequence[Resolved], big: int, small: int, allowed: bool) -> bool:
    groups = _groups(cards)
    if groups == [big, small]:
        return True
    return allowed and groups == [big + small]  # one value filling both groups


def matches(name: str, cards: Sequence[Resolved], same_value_groups: str) -> bool:
    allowed = same_value_groups == "allowed"
    n = len(cards)
    if name == JACKPOT:
        return n == 4 and _groups(cards) == [4] and not any(c.joker for c in cards)
    if name == MAGIC_FLUSH:
        return n == 4 and _consecutive(cards) and len({c.suit for c in cards}) == 1
    if name == BLINDING_FLUSH:
        return n == 4 and _consecutive(cards)
    if name == FULL_STATUS:
        return n == 5 and _two_groups(cards, 3, 2, allowed)
    if name == TRIPLE_SUPPORT:
        return n == 3 and _groups(cards) == [3]
    if name == DOUBLE_TROUBLE:
        return n == 4 and _two_groups(cards, 2, 2, allowed)
    if name == MAGIC_PAIR:
        return n == 2 and _groups(cards) == [2]
    raise ValueError(f"no set {name}")


def fits(cards: Sequence[Resolved], same_value_groups: str) -> list[str]:
    """Every effect these resolved cards match exactly, in the file's table order."""
    return [name for name in SETS if matches(name, cards, same_value_groups)]


def listed(cards: Sequence[Resolved]) -> str:
    return " ".join(resolved_text(c) for c in cards)


def why_not(name: str, cards: Sequence[Resolved], same_value_groups: str) -> tuple[str, str]:
    """Why `cards` are not the set `name`: a stable code and one sentence naming the rule and
    the cards."""
    n, shown = len(cards), listed(cards)
    title = NAMES[name]
    if name == JACKPOT and n == 4 and _groups(cards) == [4]:
        return "joker-in-jackpot", "Jackpot cannot include a joker"
    if name in (MAGIC_FLUSH, BLINDING_FLUSH) and n == 4 and not _consecutive(cards):
        return "not-consecutive", f"{shown} are not consecutive (values 1-7, no wrap-around)"
    if name == MAGIC_FLUSH and n == 4:
        return "set-mismatch", f"{shown} are not one suit"
    if name in (FULL_STATUS, DOUBLE_TROUBLE) and same_value_groups == "strict":
        return "set-mismatch", (
            f"{title} needs {REQUIREMENTS[name]}, the two values different under option "
            f"same_value_groups=strict; {shown} do not fit"
        )
    return "set-mismatch", f"{title} needs {REQUIREMENTS[name]}; {shown} ({n} cards) do not fit"


def total(cards: Sequence[Resolved]) -> int:
    return sum(c.value for c in cards)


def highest(cards: Sequence[Resolved]) -> int:
    return max(c.value for c in cards)


def amount_of(name: str, cards: Sequence[Resolved]) -> int | None:
    """The effect's number: damage, or HP and MP regained (None: Full Status, Magic Pair)."""
    if name == JACKPOT:
        return JACKPOT_RECOVERY
    if name == MAGIC_FLUSH:
        return 25 + total(cards)
    if name == BLINDING_FLUSH:
        return 15 + total(cards)
    if name == TRIPLE_SUPPORT:
        return total(cards) * 3
    if name == DOUBLE_TROUBLE:
        return 10 + highest(cards)
    return None


def formula(name: str, cards: Sequence[Resolved]) -> str:
    """How `amount_of` was reached, for the audit and the posts."""
    values = " + ".join(str(c.value) for c in cards)
    if name == JACKPOT:
        return "777 HP and 777 MP, capped at each maximum"
    if name == MAGIC_FLUSH:
        return f"25 + ({values}) = {25 + total(cards)}"
    if name == BLINDING_FLUSH:
        return f"15 + ({values}) = {15 + total(cards)}"
    if name == TRIPLE_SUPPORT:
        return f"({values}) x 3 = {total(cards) * 3} HP and MP, capped at each maximum"
    if name == DOUBLE_TROUBLE:
        return f"10 + highest {highest(cards)} = {10 + highest(cards)}"
    if name == FULL_STATUS:
        parity = "even" if highest(cards) % 2 == 0 else "odd"
        return f"highest value {highest(cards)} is {parity}"
    return "a free attack with an equipped weapon"


def fixed_type(name: str, cards: Sequence[Resolved], suit_types: dict[str, str]) -> str | None:
    """The damage type the rules fix: Magic Flush's suit, Blinding Flush's light or dark."""
    if name == MAGIC_FLUSH:
        return suit_types[cards[0].suit]
    if name == BLINDING_FLUSH:
        return "light" if highest(cards) % 2 == 0 else "dark"
    return None


def type_choices(name: str, cards: Sequence[Resolved], suit_types: dict[str, str]) -> list[str]:
    """The types an Ace chooses among (Double Trouble, Magic Pair): the resolved suits'."""
    if name not in (DOUBLE_TROUBLE, MAGIC_PAIR):
        return []
    return sorted({suit_types[c.suit] for c in cards})


def cures(cards: Sequence[Resolved]) -> bool:
    """Full Status: an even highest value cures the party; odd afflicts the enemies."""
    return highest(cards) % 2 == 0
