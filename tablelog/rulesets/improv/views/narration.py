"""Narration rights in words: who may narrate over whom after a reveal (rules/improv.md §5).

Every side of a round is ranked by total (ties by suit): a higher side holds narration rights
over every lower side, opposed or not (the seed's director scene: Susan's King narrates for the
director and over Bob's Kit). Shown by `improv show` and the audit for multi-way rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import msgspec

from tablelog.rulesets.improv.rules.cards import Outcome, compare
from tablelog.rulesets.improv.rules.options import ImprovOptions


class Rights(msgspec.Struct, frozen=True, kw_only=True):
    side: str
    total: int
    over: list[str]  # the sides ranked below it (an exact tie holds no rights either way)


def rights(
    ranking: Sequence[str],
    totals: Mapping[str, int],
    cards: Mapping[str, str],
    options: ImprovOptions,
) -> list[Rights]:
    """The reveal's ranking (highest first) with the sides each one holds rights over."""
    found: list[Rights] = []
    for index, side in enumerate(ranking):
        below = [
            other
            for other in ranking[index + 1 :]
            if not _tied(side, other, totals, cards, options)
        ]
        found.append(Rights(side=side, total=totals[side], over=below))
    return found


def _tied(
    a: str, b: str, totals: Mapping[str, int], cards: Mapping[str, str], options: ImprovOptions
) -> bool:
    outcome = compare(
        (totals[a], cards[a]),
        (totals[b], cards[b]),
        suit_order=options.suit_order,
        lethal_fate=options.lethal_fate,
    )
    return outcome is Outcome.EXACT_TIE


def multi_way(ranking: Sequence[str]) -> bool:
    return len(ranking) > 2


def sentence(found: Sequence[Rights], name: Callable[[str], str] = str) -> str:
    """`narration rights follow the ranking: Diana 13 > Kit 9 > Director 5 (each side holds
    them over every side below it)`; `=` marks an exact tie, which gives none either way."""
    chain = ""
    tie = False
    for index, entry in enumerate(found):
        if index:
            tied = entry.side not in found[index - 1].over
            tie = tie or tied
            chain += " = " if tied else " > "
        chain += f"{name(entry.side)} {entry.total}"
    ties = "; exact ties hold none over each other" if tie else ""
    return (
        f"narration rights follow the ranking: {chain} (each side holds them over every side "
        f"below it{ties})"
    )
