"""Whom an Improv table waits on (the contract's `awaiting`), and the page's "Not acted yet".

Both come from `steps`: each step is an `Await` (public: who must act and what, never a
card) and, for the steps that hold a round up for a side (its card, its opening, its Hand of
Fate choice), the short label the page's waiting line has always shown. The page's line is
those labels, so it cannot name anyone the table does not wait on.

The table takes the steps in this order: stakes, a card from every side still in, the
openings of sealed cards, the GM's reveal, the Hand of Fate (tie-breakers, then the losers'
choices), the next round, and at the end the optional victory-card gifts and the GM's close.
"""

from __future__ import annotations

from typing import NamedTuple

from tablelog.projections.await_step import Await
from tablelog.rulesets.improv.rules import lookup
from tablelog.rulesets.improv.rules.fate import _needs_draw as needs_draw
from tablelog.rulesets.improv.rules.finale import rounds_done
from tablelog.rulesets.improv.rules.sealed import unopened
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState, Round, Side


class Step(NamedTuple):
    """One awaited step; `label` its words on the page's waiting line (None: not there)."""

    awaits: Await
    label: str | None = None


def awaiting(state: ImprovState) -> list[Await]:
    return [step.awaits for step in steps(state)]


def waiting_line(state: ImprovState, conflict: Conflict) -> list[str]:
    """The page's "Not acted yet" for one conflict: the labelled steps of `steps`."""
    return [s.label for s in conflict_steps(state, conflict) if s.label is not None]


def steps(state: ImprovState) -> list[Step]:
    return [step for conflict in state.open_conflicts() for step in conflict_steps(state, conflict)]


def conflict_steps(state: ImprovState, conflict: Conflict) -> list[Step]:
    if conflict.status != "open":
        return []
    if not conflict.sides:
        return [_gm(conflict, "set the stakes")]
    joining = [] if conflict.stakes_closed else _stakes_open(state, conflict)
    return [*_round_steps(state, conflict), *joining]


def _round_steps(state: ImprovState, conflict: Conflict) -> list[Step]:
    rnd = conflict.current
    if rnd is not None and rnd.revealed:
        if rnd.fate.pending or rnd.fate.choices_due:
            return _fate(state, conflict, rnd)
        if rounds_done(conflict):
            return [*_gifts(conflict), _gm(conflict, "close the conflict")]
        rnd = None  # between rounds: the next one begins with its first card
    playing = rnd if rnd is not None else Round(number=len(conflict.rounds) + 1)
    to_play = conflict.still_to_play(playing)
    if to_play:
        words = "play a card face down"
        if conflict.kind == "extended":
            words += f" for round {playing.number}"
        return [_side(conflict, s, words, _label(s)) for s in to_play]
    if not conflict.stakes_closed:  # only unopposed GM stakes so far: a protagonist's is due
        return [] if _unstaked(state, conflict) else [_gm(conflict, "set the stakes")]
    sealed = [conflict.sides[key] for key in unopened(playing)]
    if sealed:
        return [
            _side(conflict, s, f"open {s.display}'s sealed card", _label(s, ": opening"))
            for s in sealed
        ]
    return [_gm(conflict, "reveal the round" if conflict.kind == "simple" else _reveal(playing))]


def _unstaked(state: ImprovState, conflict: Conflict) -> list[str]:
    """The characters of this session's players with no side yet: they may still join."""
    return [
        key
        for key, character in state.characters.items()
        if character.player in state.session_players and key not in conflict.sides
    ]


def _stakes_open(state: ImprovState, conflict: Conflict) -> list[Step]:
    """Before the first card: each character not in yet may set a stake (a bystander need
    not: it is an option while it lasts)."""
    return [
        Step(
            Await(
                player=state.characters[key].player,
                what="set a stake",
                character=state.characters[key].display,
                conflict=conflict.key,
                optional=True,
            )
        )
        for key in _unstaked(state, conflict)
    ]


def _fate(state: ImprovState, conflict: Conflict, rnd: Round) -> list[Step]:
    """The Hand of Fate: tie-breakers first (recorded decks; managed ones draw at the
    reveal), then each extended loser's choice."""
    found = [
        _side(conflict, conflict.sides[key], "draw a tie-breaker for the Hand of Fate")
        for key in needs_draw(state, rnd, rnd.fate.draws)
    ]
    for key in dict.fromkeys(rnd.fate.choices_due):
        side = conflict.sides[key]
        words = (
            "record the second Hand of Fate loss (destroyed)"
            if side.fate_losses >= 2
            else "choose after the Hand of Fate: eliminated or stay in"
        )
        found.append(_side(conflict, side, words, f"{key} (Hand of Fate choice)"))
    return found


def _gifts(conflict: Conflict) -> list[Step]:
    """Extended conflicts: each side that may still give a victory card before its final
    narration (a destroyed one may give them all, or a random card when it has none)."""
    if conflict.kind != "extended":
        return []
    found = []
    for side in conflict.sides.values():
        if side.final_narration or side.status == "eliminated":
            continue
        if side.status == "destroyed":
            found.append(_side(conflict, side, "give its victory cards", optional=True))
        elif not side.gifts_given and any(p.own for p in side.victory):
            found.append(_side(conflict, side, "give a victory card", optional=True))
    return found


def _reveal(rnd: Round) -> str:
    return f"reveal round {rnd.number}"


def _side(
    conflict: Conflict, side: Side, what: str, label: str | None = None, *, optional: bool = False
) -> Step:
    return Step(
        Await(
            player=lookup.owner(side),
            what=what,
            character=side.display,
            conflict=conflict.key,
            optional=optional,
        ),
        label,
    )


def _gm(conflict: Conflict, what: str) -> Step:
    return Step(Await(player=GM, what=what, conflict=conflict.key))


def _label(side: Side, note: str = "") -> str:
    """A side on the page's waiting line: `Kit (bob)`, `riso (GM)`, then what is due."""
    return f"{side.display} ({'GM' if side.gm else side.player}){note}"
