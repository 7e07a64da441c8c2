"""Whom a Beer Run table waits on (the contract's `awaiting`), and the page's "Not acted yet".

Both come from `steps`, phase by phase of the round (rules/flow.py): goals, the helping pools
(bought and rolled first), the pools (sealed ones then opened), the rolls, the pips of the
effects (the upper hand first); at a round's end the GM ends the conflict, while anyone still
in may declare a goal for a new round or cede. Each step is an `Await` (public: what a pool
holds is not said) and the label the page's waiting line gives it (None: not on that line,
which names those a round cannot go on without). A character's player acts for it; the GM
for its NPCs.
"""

from __future__ import annotations

from typing import NamedTuple

from tablelog.projections.await_step import Await
from tablelog.rules.table import GM
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.sealed import unopened
from tablelog.rulesets.beer_run.rules.state import (
    DIFFICULTY,
    BeerRunState,
    Compared,
    Conflict,
    Round,
)


class Step(NamedTuple):
    """One awaited step; `label` its words on the page's waiting line (None: not there)."""

    awaits: Await
    label: str | None = None


def awaiting(state: BeerRunState) -> list[Await]:
    return [s.awaits for c in state.open_conflicts() for s in conflict_steps(state, c)]


def waiting_line(state: BeerRunState, conflict: Conflict) -> list[str]:
    """The page's "Not acted yet" for one conflict: the labelled steps."""
    return [s.label for s in conflict_steps(state, conflict) if s.label is not None]


def conflict_steps(state: BeerRunState, conflict: Conflict) -> list[Step]:
    if conflict.status != "open" or not conflict.rounds:
        return []
    rnd = conflict.current
    now = flow.phase(state, conflict)
    active = flow.active(state, conflict)
    if now == "goals":
        return [_by(state, conflict, m, "declare a goal") for m in active if m not in rnd.goals]
    if now == "helping":
        return _helping(state, conflict, rnd)
    if now == "pools":
        to_buy = [a for a in rnd.goals if a not in rnd.pools and a not in rnd.sealed]
        if to_buy:
            return [_by(state, conflict, a, "buy a pool") for a in to_buy]
        return [
            _by(state, conflict, a, f"open {_name(state, a)}'s sealed pool") for a in unopened(rnd)
        ]
    if now == "rolling":
        return [_by(state, conflict, a, "roll the pool") for a in rnd.pools if a not in rnd.rolls]
    if now == "effects":
        return [
            _by(
                state,
                conflict,
                who,
                _pips(state, compared, who),
                label=f"{_name(state, who)} (pips)",
            )
            for compared, who in flow.owed(state, rnd)
        ]
    # The round is over: the GM ends the conflict, unless someone goes on with a new goal.
    going_on = "declare a goal for a new round, or cede"
    ending = Step(Await(player=GM, what="end the conflict", conflict=conflict.key))
    return [ending, *(_by(state, conflict, m, going_on, label=None, optional=True) for m in active)]


def _helping(state: BeerRunState, conflict: Conflict, rnd: Round) -> list[Step]:
    """Helping pools are bought and rolled before the others, each against the GM's
    difficulty pool (the option's default one, unless the GM sets it first)."""
    found = []
    for actor in flow.helpers(rnd):
        if flow.comparison(rnd, actor, DIFFICULTY) is not None:
            continue
        if actor not in rnd.difficulty and actor not in rnd.rolls:
            set_it = f"set the difficulty pool against {_name(state, actor)}"
            found.append(Step(Await(player=GM, what=set_it, conflict=conflict.key, optional=True)))
        if actor in rnd.pools and state.options.dice == "recorded":
            # Faces from the table: the roll records the difficulty pool's too, the GM's.
            what = f"record the faces of {_name(state, actor)}'s helping pool and its difficulty"
            found.append(Step(Await(player=GM, what=what, conflict=conflict.key)))
            continue
        doing = "buy a helping pool" if actor not in rnd.pools else "roll the helping pool"
        found.append(_by(state, conflict, actor, doing, label=None))
    return found


def _by(
    state: BeerRunState,
    conflict: Conflict,
    key: str,
    what: str,
    *,
    label: str | None = "",
    optional: bool = False,
) -> Step:
    """`key`'s step; its page label the character's name unless given (None: none)."""
    character = state.characters[key]
    seat = GM if character.player in (GM, state.gm) else character.player
    awaits = Await(
        player=seat,
        what=what,
        character=character.display,
        conflict=conflict.key,
        optional=optional,
    )
    return Step(awaits, character.display if label == "" else label)


def _pips(state: BeerRunState, compared: Compared, who: str) -> str:
    """The pips `who` owes (its kept successes: the rolls are public), on whose dice."""
    count = flow.required_pips(state, compared, who)
    opponent = _name(state, compared.opponent(who))
    return f"spend {count} pip{'' if count == 1 else 's'} on {opponent}'s dice"


def _name(state: BeerRunState, key: str) -> str:
    return state.characters[key].display
