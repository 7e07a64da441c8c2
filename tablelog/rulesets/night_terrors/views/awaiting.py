"""Whom a Night Terrors table waits on (the contract's `awaiting`), and the page's "Not
acted yet".

Both come from `steps`: each step is an `Await` (public: who acts and what, never a card in
a hand) and the short label the page's waiting line shows for it, or None where the line
names that character already. The order is the table's: cards still to draw or discard and
costs to pay first (an exchange waits for them), then the answers owed to the raise in seat
order, then, with nothing owed, the next raiser. A character's player acts for it; the GM for
its NPCs.
"""

from __future__ import annotations

from typing import NamedTuple

from tablelog.projections.await_step import Await
from tablelog.rules.table import GM as GM_SEAT
from tablelog.rulesets.night_terrors.rules import flow
from tablelog.rulesets.night_terrors.rules.cards import n_cards as _cards
from tablelog.rulesets.night_terrors.rules.state import Character, Conflict, NightTerrorsState


class Step(NamedTuple):
    """One awaited step; `label` its words on the page's waiting line (None: not there)."""

    awaits: Await
    label: str | None = None


def awaiting(state: NightTerrorsState) -> list[Await]:
    return [step.awaits for step in steps(state)]


def waiting_line(state: NightTerrorsState, conflict: Conflict) -> list[str]:
    """The page's "Not acted yet" for one conflict: the labelled steps in it."""
    return [s.label for s in conflict_steps(state, conflict) if s.label is not None]


def steps(state: NightTerrorsState) -> list[Step]:
    found = [step for c in state.open_conflicts() for step in conflict_steps(state, c)]
    # Debts of characters in no open conflict (a hand reset between scenes).
    for character in state.characters.values():
        if flow.conflict_of(state, character.key) is None:
            found += _debts(state, character, None)
    return found


def conflict_steps(state: NightTerrorsState, conflict: Conflict) -> list[Step]:
    if conflict.status != "open":
        return []
    found = [s for key in conflict.still_in for s in _debts(state, state.characters[key], conflict)]
    exchange = conflict.current
    if exchange is not None and exchange.owing:
        raised = exchange.raised
        words = f"answer {_name(state, raised.raiser)}'s raise of {raised.value}"
        found += [
            _step(state, state.characters[key], words, conflict, f"(answer {raised.value})")
            for key in exchange.owing
        ]
    elif not found:
        raiser = flow.next_raiser(state, conflict)
        if raiser is not None:
            found.append(
                _step(state, state.characters[raiser], "raise with 2 cards", conflict, "(raise)")
            )
    return found


def _debts(state: NightTerrorsState, who: Character, conflict: Conflict | None) -> list[Step]:
    """What `who` still owes the table, one step each; the first carries the page's label
    (the character with all its debts, as the page has always said them)."""
    owed = state.draws.get(who.key)
    discard = state.discards.get(who.key, 0)
    costs = state.costs.get(who.key, [])
    words = [f"draw {_cards(owed.count)}"] if owed else []
    if discard:
        words.append(f"discard {_cards(discard)} down to the hand size")
    words += [f"pay a {c.cause.replace('_', ' ')} of {c.amount}" for c in costs]
    label = None
    if owed or costs:  # the page's line names those who hold an exchange up
        said = [f"draws {_cards(owed.count)}"] if owed else []
        if discard:
            said.append(f"discards {_cards(discard)}")
        said += [f"owes {c.amount} ({c.cause.replace('_', ' ')})" for c in costs]
        label = f"({', '.join(said)})"
    return [
        _step(state, who, what, conflict, label if i == 0 else None) for i, what in enumerate(words)
    ]


def _step(
    state: NightTerrorsState, who: Character, what: str, conflict: Conflict | None, note: str | None
) -> Step:
    seat = GM_SEAT if who.player == state.gm else who.player
    awaits = Await(
        player=seat, what=what, character=who.display, conflict=conflict.key if conflict else None
    )
    return Step(awaits, None if note is None else f"{who.display} {note}")


def _name(state: NightTerrorsState, key: str) -> str:
    return flow.shown(state, key)
