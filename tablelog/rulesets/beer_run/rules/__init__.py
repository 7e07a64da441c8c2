"""Beer Run (seed 002): dice pools bought with Intensity, the upper hand, pips off ability dice.

`decide(state, command, shuffle)` checks a command against the campaign's state and returns the
events it causes, or raises a RuleViolation naming the rule, the value and the limit. What a
command's events set in motion (a comparison once the last pool is rolled, the end of a
conflict once a side is left alone) is decided on the state after them, in the same call.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, assert_never

from tablelog.events.base import Event
from tablelog.rules.common import EndScene, EndSession, JoinPlayer, StartScene, StartSession
from tablelog.rules.contract import Ruleset, commands_of, lazy
from tablelog.rules.table import clock_of
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import conflict, effects, flow, people, rolls, sealed
from tablelog.rulesets.beer_run.rules.cast import CAST
from tablelog.rulesets.beer_run.rules.evolve import BeerRunEvent, evolve, initial
from tablelog.rulesets.beer_run.rules.options import BeerRunOptions, check_new
from tablelog.rulesets.beer_run.rules.rolls import Shuffle
from tablelog.rulesets.beer_run.rules.state import BeerRunState

BeerRunCommand = (
    JoinPlayer
    | StartSession
    | EndSession
    | StartScene
    | EndScene
    | c.CreateCharacter
    | c.SetAbility
    | c.AdjustIntensity
    | c.AwardOutcomeDie
    | c.OpenConflict
    | c.DeclareGoal
    | c.SetDifficulty
    | c.AssemblePool
    | c.OpenPool
    | c.SetPoolDeadline
    | c.ForfeitPool
    | c.Roll
    | c.Allocate
    | c.Cede
    | c.EndConflict
)


def decide(state: BeerRunState, command: BeerRunCommand, shuffle: Shuffle) -> list[Event]:
    match command:
        case JoinPlayer():
            return people.join(state, command)
        case StartSession():
            return people.start_session(state, command)
        case EndSession():
            return people.end_session(state, command)
        case StartScene():
            return people.start_scene(state, command)
        case EndScene():
            return people.end_scene(state, command)
        case c.CreateCharacter():
            return people.create_character(state, command)
        case c.SetAbility():
            return people.set_ability(state, command)
        case c.AdjustIntensity():
            return people.adjust_intensity(state, command)
        case c.AwardOutcomeDie():
            return people.award_outcome(state, command)
        case c.OpenConflict():
            return conflict.open_conflict(state, command)
        case c.DeclareGoal():
            return conflict.declare_goal(state, command)
        case c.SetDifficulty():
            return conflict.set_difficulty(state, command)
        case c.AssemblePool():
            return sealed.buy(state, command)
        case c.OpenPool():
            events = sealed.open_pool(state, command)
            return _then(state, events, command.conflict, rolls.resolve, effects.settle)
        case c.SetPoolDeadline():
            return sealed.set_deadline(state, command)
        case c.ForfeitPool():
            events = sealed.forfeit(state, command)
            return _then(state, events, command.conflict, rolls.resolve, effects.settle)
        case c.Roll():
            events = rolls.roll(state, command, shuffle)
            return _then(state, events, command.conflict, rolls.resolve, effects.settle)
        case c.Allocate():
            events = effects.allocate(state, command)
            return _then(state, events, command.conflict, effects.settle)
        case c.Cede():
            events = effects.cede(state, command)
            return _then(state, events, command.conflict, effects.settle)
        case c.EndConflict():
            return effects.end_conflict(state, command)
        case _:
            assert_never(command)


Follow = Callable[[BeerRunState, Any], list[Event]]


def _then(
    state: BeerRunState, events: list[Event], conflict_key: str | None, *follows: Follow
) -> list[Event]:
    """`events`, then what each follow-up decides on the state after everything before it."""
    after = copy.deepcopy(state)
    key = flow.conflict(state, conflict_key).key
    done = list(events)
    for event in events:
        evolve(after, event)  # type: ignore[arg-type]
    for follow in follows:
        more = follow(after, after.conflicts[key])
        for event in more:
            evolve(after, event)  # type: ignore[arg-type]
        done.extend(more)
    return done


RULESET = Ruleset[BeerRunState](
    name="beer-run",
    options_type=BeerRunOptions,
    state_type=BeerRunState,
    initial=initial,
    evolve=evolve,
    decide=decide,
    cast=CAST,
    table=clock_of,
    commands=commands_of(BeerRunCommand),
    demo=lazy("tablelog.rulesets.beer_run.rules.demo", "demo"),
    check_options=check_new,
    # 2: a goal remembers that it was won (Goal.won), so a side's goals are won once each.
    # 3: a round keeps its sealed pools, forfeits and deadline (option sealed_plays).
    version=3,
)

__all__ = ["RULESET", "BeerRunCommand", "BeerRunEvent", "BeerRunState", "decide", "evolve"]
