"""The story of an Improv conflict on the page, in plain words, for one viewer.

What the audit explains (outcomes.py), told as sentences: the stakes, each reveal (the
totals, who beats whom, what each win means, where the tokens went and why), the Hand of
Fate, the close; the narrations as quotes; and the outcome in one sentence, "You won round
1 (14 vs 8)" for the viewer whose side it is. Only what is public is told: a card appears
once its round is revealed, never before, and a face-down play is only counted.
"""

from __future__ import annotations

from tablelog.projections.page import Quote
from tablelog.rulesets.improv.rules.cards import pretty
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState, Moved, Round

# Where a token goes, as a sentence says it ("1 token goes out of play").
_TO = {
    "pool": "to the pool",
    "bank": "to the bank",
    "out_of_play": "out of play",
    "gm": "to the GM",
}

GLOSSARY = [
    (
        "GM",
        "the GM's supply: 3 tokens per player at each session's start, put on cards as "
        "+3 bonuses (within the conflict's limit); a spent GM token goes to the pool",
    ),
    ("pool", "1 token per player at each session's start; players' awards come from it"),
    (
        "bank",
        "a player's token whose card matches its direct opponent's card in colour; the "
        "whole bank goes to the GM when the conflict closes",
    ),
    (
        "out of play",
        "a player's token whose card does not match its opponent's colour (or a "
        "player's redraw): gone for the session",
    ),
    ("on cards", "tokens placed on this round's cards (+3 each), until the reveal moves them"),
    (
        "each player",
        "the tokens that player holds (from awards), to put on any card as +3 "
        "or spend on a redraw or a bribe",
    ),
]


def owned(state: ImprovState, conflict: Conflict, viewer: str) -> set[str]:
    """The sides `viewer` plays: a player's protagonists, the GM's stakes."""
    return {
        key
        for key, side in conflict.sides.items()
        if (side.gm and viewer == GM) or (not side.gm and side.player == viewer)
    }


class _Names:
    def __init__(self, conflict: Conflict, mine: set[str]) -> None:
        self.conflict = conflict
        # "You" only for a viewer with one side: the GM with three stakes gets names.
        self.you = next(iter(mine)) if len(mine) == 1 else None

    def __call__(self, key: str, *, start: bool = False) -> str:
        if key == self.you:
            return "You" if start else "you"
        return self.display(key)

    def display(self, key: str) -> str:
        side = self.conflict.sides.get(key)
        return side.display if side is not None else key

    def whose(self, key: str) -> str:
        return "your" if key == self.you else f"{self.display(key)}'s"

    def beats(self, key: str) -> str:
        return "beat" if key == self.you else "beats"


def _moved(moves: list[Moved], name: _Names) -> list[str]:
    found = []
    for move in moves:
        where = _TO.get(move.to, f"to {name(move.to)}")
        tokens = "1 token goes" if move.count == 1 else f"{move.count} tokens go"
        found.append(f"{tokens} {where} because {move.reason}")
    return found


def _revealed(conflict: Conflict, rnd: Round, name: _Names) -> list[str]:
    cards = ", ".join(
        f"{name.display(side)} {rnd.totals[side]} ({pretty(rnd.plays[side].card)})"
        for side in rnd.ranking
        if side in rnd.plays and rnd.plays[side].card
    )
    told = [f"The GM revealed round {rnd.number}: {cards or 'no cards'}."]
    for winner, loser in rnd.beats:
        beat = f"{name(winner, start=True)} {rnd.totals.get(winner, '?')} {name.beats(winner)} " + (
            f"{name(loser)} {rnd.totals.get(loser, '?')}"
        )
        if rnd.totals.get(winner) == rnd.totals.get(loser):
            beat += " (equal totals: the suit decides)"
        if conflict.kind == "simple":
            stake = conflict.sides[winner].text
            told.append(f"{beat}, so '{stake}' wins.")
        else:
            told.append(f"{beat}: a card to {name.whose(winner)} victory pile.")
    for a, b in rnd.fate.pending:
        told.append(f"{name(a, start=True)} and {name(b)} tie exactly: the Hand of Fate decides.")
    for winner, loser in rnd.fate.results:
        told.append(f"The Hand of Fate: {name(winner)} beats {name(loser)}.")
    told += [f"{line[0].upper()}{line[1:]}." for line in _moved(rnd.moves, name)]
    return told


def story(state: ImprovState, conflict: Conflict, viewer: str) -> list[str]:
    """What happened in the conflict, oldest first, as `viewer` may know it."""
    name = _Names(conflict, owned(state, conflict, viewer))
    kind = (
        f"an extended conflict of {conflict.planned_rounds} rounds"
        if conflict.kind == "extended"
        else "a simple conflict"
    )
    told = [f"The GM opened {kind}."]
    for key, side in conflict.sides.items():
        against = f" (against {name.display(side.opposes)})" if side.opposes else ""
        who = "the GM's stake" if side.gm else f"{side.player}'s stake"
        if key == name.you:
            who = "your stake"
        told.append(f"{name.display(key)} ({who}): '{side.text}'{against}.")
    for rnd in conflict.rounds:
        if rnd.revealed:
            told += _revealed(conflict, rnd, name)
            continue
        down = len(rnd.plays)
        cards = "1 card is" if down == 1 else f"{down} cards are"
        told.append(f"Round {rnd.number}: {cards} down, face down until the GM reveals them.")
    if conflict.status == "closed":
        if conflict.abandoned is not None:
            told.append(f"The GM abandoned the conflict: {conflict.abandoned}. Nobody wins.")
        elif not conflict.beats:
            told.append("The conflict closed: nobody beats anybody.")
        else:
            beats = "; ".join(
                f"{name(w, start=True)} {name.beats(w)} {name(lo)}" for w, lo in conflict.beats
            )
            told.append(f"The conflict closed: {beats}.")
        told += [f"{line[0].upper()}{line[1:]}." for line in _moved(conflict.closing_moves, name)]
    return told


def quotes(conflict: Conflict) -> list[Quote]:
    """The narrations, each with who said it (public: a narration is said to the table)."""
    return [
        Quote(
            who=conflict.sides[n.side].display if n.side in conflict.sides else n.side,
            text=n.text,
            when="final narration" if n.final else (f"after round {n.round}" if n.round else ""),
        )
        for n in conflict.narrations
    ]


def result(state: ImprovState, conflict: Conflict, viewer: str) -> str:
    """The outcome so far in one sentence for `viewer`: the close, else the latest reveal."""
    name = _Names(conflict, owned(state, conflict, viewer))
    if conflict.status == "closed":
        if conflict.abandoned is not None:
            return "Abandoned by the GM: nobody won"
        if not conflict.beats:
            return "Nobody won"
        return "; ".join(_won(conflict, name, w, lo, None) for w, lo in conflict.beats)
    revealed = [r for r in conflict.rounds if r.revealed]
    if not revealed:
        return ""
    rnd = revealed[-1]
    return "; ".join(_won(conflict, name, w, lo, rnd) for w, lo in rnd.beats)


def _won(conflict: Conflict, name: _Names, winner: str, loser: str, rnd: Round | None) -> str:
    if rnd is None:  # the close: the round's totals (simple), or the piles (extended)
        if conflict.kind == "simple" and conflict.rounds:
            rnd = conflict.rounds[-1]
            what = "the conflict"
        else:
            w, lo = conflict.sides[winner].victory, conflict.sides[loser].victory
            numbers = f"{len(w)} card{'s' if len(w) != 1 else ''} vs {len(lo)}"
            return _sentence(name, winner, loser, "the conflict", numbers)
    else:
        what = f"round {rnd.number}"
    numbers = f"{rnd.totals.get(winner, '?')} vs {rnd.totals.get(loser, '?')}"
    if rnd.totals.get(winner) == rnd.totals.get(loser):
        numbers += ", on the suit"
    return _sentence(name, winner, loser, what, numbers)


def _sentence(name: _Names, winner: str, loser: str, what: str, numbers: str) -> str:
    # Two sides: the other is plain ("You won round 1 (14 vs 8)"); more: say which.
    duel = len(name.conflict.sides) == 2
    if name(loser) == "you":
        return f"You lost {what}{'' if duel else ' to ' + name(winner)} ({_swap(numbers)})"
    against = "" if duel else f" against {name(loser)}"
    return f"{name(winner, start=True)} won {what}{against} ({numbers})"


def _swap(numbers: str) -> str:
    numbers, comma, why = numbers.partition(", ")  # "12 vs 12, on the suit"
    first, _, second = numbers.partition(" vs ")
    if " card" in first:
        count = int(second)
        return f"{count} card{'s' if count != 1 else ''} vs {first.split()[0]}"
    return f"{second} vs {first}{comma}{why}"
