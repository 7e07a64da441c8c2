"""Who opposes whom: the one place that says which side may beat which.

A protagonist opposes exactly one side (its `--opposes`); a GM stake is opposed by the
protagonists that name it and opposes no one itself. Two sides naming one another this way
are *direct opponents*, and only direct opponents are ever compared.

In a round a side beats only a direct opponent that is still in the conflict and has a card in
that round. A side with no such opponent (an unopposed GM stake, a protagonist whose opponent
was eliminated or destroyed) beats nobody: it is no winner, its card is discarded, it keeps no
victory card and so has none to give. The reveal, the Hand of Fate, the token clean-up and the
final victory all ask here; nothing else decides who beats whom.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablelog.rulesets.improv.rules.state import Conflict


def direct_pairs(conflict: Conflict) -> list[tuple[str, str]]:
    """Every pair of direct opponents in the conflict, once: (protagonist, the side it opposes)."""
    pairs: list[tuple[str, str]] = []
    for side in conflict.sides.values():
        if side.gm or side.opposes is None or side.opposes not in conflict.sides:
            continue
        pair = (side.key, side.opposes)
        if pair not in pairs and (pair[1], pair[0]) not in pairs:
            pairs.append(pair)
    return pairs


def round_pairs(conflict: Conflict, cards: Mapping[str, str]) -> list[tuple[str, str]]:
    """The direct opponents a round compares: both still in the conflict, both with a card."""
    return [
        (a, b)
        for a, b in direct_pairs(conflict)
        if a in cards
        and b in cards
        and conflict.sides[a].status == "in"
        and conflict.sides[b].status == "in"
    ]


def _both_in(conflict: Conflict, pair: tuple[str, str]) -> bool:
    return all(conflict.sides[s].status == "in" for s in pair)


def unopposed(conflict: Conflict, key: str) -> bool:
    """No side still in the conflict is a direct opponent of this one (its stake succeeds
    automatically, and it need not play)."""
    if conflict.sides[key].status != "in":
        return False
    return not any(key in pair and _both_in(conflict, pair) for pair in direct_pairs(conflict))


def opponent_of(conflict: Conflict, key: str) -> str | None:
    """A protagonist's direct opponent: the side it opposes, or (between protagonists) the one
    that opposes it."""
    own = conflict.sides[key]
    if own.opposes is not None:
        return own.opposes
    for other in conflict.sides.values():
        if not other.gm and other.opposes == key:
            return other.key
    return None


def winners(beats: Iterable[Iterable[str]]) -> list[str]:
    """The sides that beat somebody, in the order they first did: only they keep a card.
    (A protagonist wins a round by beating its opponent; a GM stake by beating any one
    protagonist opposing it.)"""
    found: list[str] = []
    for winner, *_loser in beats:
        if winner not in found:
            found.append(winner)
    return found
