"""Beer Run's arithmetic: pool costs, the high-to-low comparison, and pips off a die.

Pure functions of numbers, shared by the rules (which decide) and the audit (which recomputes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tablelog.errors import InvalidInput

# `pips=steps`: one pip moves a die one rung down this ladder (sizes between rungs drop to the
# next rung below); below d1 is zero.
LADDER = (12, 10, 8, 6, 4, 2, 1)
_DIE = re.compile(r"[dD]?(\d{1,4})")
PAD = 1  # "counted as if they had rolled a d1 with a result of 1"


def parse_die(text: str, *, max_size: int, allow_zero: bool = False) -> int:
    """`d8`, `D8` or `8` -> 8; InvalidInput naming the accepted sizes otherwise."""
    match = _DIE.fullmatch(text.strip())
    size = int(match.group(1)) if match else -1
    low = 0 if allow_zero else 1
    if not low <= size <= max_size:
        raise InvalidInput(
            f"{text!r} is not a die; use dN with N from {low} to {max_size} (e.g. d8)",
            code="bad-die",
        )
    return size


def extras_cost(extras: int) -> int:
    """n extra dice cost 1 + 2 + ... + n Intensity (triangular numbers: 1, 3, 6, 10, 15)."""
    return extras * (extras + 1) // 2


def round_cost(extras: int) -> int:
    """The base pool's 1 Intensity plus the extras."""
    return 1 + extras_cost(extras)


def cost_sum(extras: int) -> str:
    """`1+2+3 = 6` for 3 extras, as the refusal and the audit write it."""
    if extras == 0:
        return "0"
    return "+".join(str(i) for i in range(1, extras + 1)) + f" = {extras_cost(extras)}"


def price(cost: int) -> str:
    """A round's price as the audit writes it: `1 + 1+2+3 = 7` (base pool, then extras)."""
    extras = 0
    while round_cost(extras) < cost:
        extras += 1
    if extras == 0 or round_cost(extras) != cost:
        return str(cost)
    return "1 + " + "+".join(str(i) for i in range(1, extras + 1)) + f" = {cost}"


@dataclass(frozen=True)
class Comparison:
    a_values: list[int]
    b_values: list[int]
    winners: list[str]  # "a", "b" or "tie", position by position
    upper_hand: str | None  # "a", "b" or None (no decisive pair)
    raw_a: int
    raw_b: int
    kept_a: int
    kept_b: int


def compare(a: list[int], b: list[int]) -> Comparison:
    """Sort both high to low, pad the shorter with d1 = 1, compare position by position.

    A tie discards the pair; the higher die scores one success. The first decisive pair gives
    its side the upper hand, which keeps every success; the other side keeps its 1st, 3rd,
    5th ... (ceil(k/2) of k). No decisive pair: no upper hand, no successes.
    """
    width = max(len(a), len(b))
    a_sorted = sorted(a, reverse=True) + [PAD] * (width - len(a))
    b_sorted = sorted(b, reverse=True) + [PAD] * (width - len(b))
    winners = [
        "a" if x > y else "b" if y > x else "tie" for x, y in zip(a_sorted, b_sorted, strict=True)
    ]
    upper = next((w for w in winners if w != "tie"), None)
    raw_a, raw_b = winners.count("a"), winners.count("b")
    kept_a = raw_a if upper == "a" else (raw_a + 1) // 2
    kept_b = raw_b if upper == "b" else (raw_b + 1) // 2
    return Comparison(a_sorted, b_sorted, winners, upper, raw_a, raw_b, kept_a, kept_b)


def reduce(size: int, pips: int, mode: str) -> int:
    """A die after `pips` pips: one face each (`faces`), or one rung each (`steps`)."""
    if mode == "faces":
        return max(size - pips, 0)
    for _ in range(pips):
        if size == 0:  # overkill: the excess is lost
            break
        size = next((rung for rung in LADDER if rung < size), 0)
    return size


def capacity(size: int, mode: str) -> int:
    """How many pips a die can take before it is zero."""
    if mode == "faces":
        return size
    steps = 0
    while size > 0:
        size = reduce(size, 1, mode)
        steps += 1
    return steps
