"""Cards and dice: a card's printed value `Nd6+M`, a side's total, and the one function that
decides a round (the command, the audit, the views and the exports all call `decide_round`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from tablelog.errors import InvalidInput
from tablelog.rulesets.bid_and_challenge import events as ev

MAX_DICE = 10  # per card: the 6d6 cost table stops at 1d6+6; this keeps typing errors out
MAX_MOD = 20
FACES = 6
_CARD = re.compile(r"[^\W_][\w.' -]{0,39}")
_VALUE = re.compile(r"^\s*(\d+)\s*d6\s*(?:([+-])\s*(\d+))?\s*$|^\s*\+?(\d+)\s*$", re.IGNORECASE)


def parse_value(text: str, card: str) -> tuple[int, int]:
    """`1d6+2` -> (1, 2); `2d6` -> (2, 0); `+2` or `0d6+2` -> (0, 2)."""
    found = _VALUE.match(text)
    if found is None:
        raise InvalidInput(
            f"card {card}'s value {text!r} is not Nd6+M (e.g. 1d6+2, 2d6, 0d6+2)",
            code="bad-card-value",
        )
    if found.group(4) is not None:
        dice, mod = 0, int(found.group(4))
    else:
        dice = int(found.group(1))
        mod = int(found.group(3) or 0) * (-1 if found.group(2) == "-" else 1)
    if not 0 <= dice <= MAX_DICE or not -MAX_MOD <= mod <= MAX_MOD:
        raise InvalidInput(
            f"card {card}'s value {text!r} is outside 0..{MAX_DICE} d6 and -{MAX_MOD}..+{MAX_MOD}",
            code="bad-card-value",
        )
    return dice, mod


def card_key(text: str) -> str:
    """A card's key: its name in lower case, spaces between words kept single (a card is
    printed "Quick Wits" as often as "QuickWits")."""
    name = " ".join(unicodedata.normalize("NFC", text).casefold().split())
    if not _CARD.fullmatch(name):
        raise InvalidInput(
            f"card name {text.strip()!r} is not allowed; use 1 to 40 letters, digits, spaces, "
            "'.', \"'\" or '-', starting with a letter or digit",
            code="bad-name",
        )
    return name


def make_card(name: str, value: str) -> ev.Card:
    key = card_key(name)
    dice, mod = parse_value(value, name.strip())
    return ev.Card(card_id=key, name=" ".join(name.split()), dice=dice, mod=mod)


def value_text(dice: int, mod: int) -> str:
    """The printed value: 1d6+2, 2d6, 0d6+2, 1d6-1."""
    sign = f"+{mod}" if mod > 0 else (str(mod) if mod < 0 else "")
    return f"{dice}d6{sign}" if dice or not mod else f"0d6{sign}"


def pool_text(cards: Sequence[ev.Card]) -> str:
    """A side's whole value, e.g. 2d6+3."""
    return value_text(sum(c.dice for c in cards), sum(c.mod for c in cards))


def total_of(rolls: Sequence[ev.CardRoll]) -> int:
    """A side's total: the sum of every face plus the sum of every card's mod."""
    return sum(sum(r.faces) + r.mod for r in rolls)


def sum_text(rolls: Sequence[ev.CardRoll]) -> str:
    """`4+2+1+3 = 10`: every face, then the mods together."""
    parts = [str(f) for r in rolls for f in r.faces]
    mod = sum(r.mod for r in rolls)
    if mod or not parts:
        parts.append(str(mod))
    return f"{'+'.join(parts).replace('+-', '-')} = {total_of(rolls)}"


class Decision:
    """Who won a round and the rule that says so, in words."""

    def __init__(self, winner: str, loser: str | None, rule: str) -> None:
        self.winner, self.loser, self.rule = winner, loser, rule


def decide_round(
    active: str, challenger: str | None, active_total: int | None, challenger_total: int | None
) -> Decision:
    """The one place that decides a round: an unchallenged bid succeeds with no roll; else the
    higher total wins and ties go to the active player."""
    if challenger is None or active_total is None or challenger_total is None:
        return Decision(active, None, f"nobody challenged {active}'s bid: it succeeds, no roll")
    if active_total > challenger_total:
        return Decision(
            active, challenger, f"{active} {active_total} beats {challenger} {challenger_total}"
        )
    if active_total == challenger_total:
        return Decision(
            active,
            challenger,
            f"{active} {active_total} ties {challenger} {challenger_total}: "
            "ties go to the active player",
        )
    return Decision(
        challenger, active, f"{challenger} {challenger_total} beats {active} {active_total}"
    )
