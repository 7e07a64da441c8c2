"""Improv (seed 000, chapter 4: Conflict): the primary ruleset.

`decide(state, command, shuffle)` checks a command against the campaign's state and returns the
events it causes, or raises a RuleViolation naming the rule, the value and the limit;
`evolve(state, event)` folds one event into the state.
"""

from __future__ import annotations

from typing import assert_never

from tablelog.events.base import Event
from tablelog.rules.common import JoinPlayer
from tablelog.rules.contract import Ruleset, commands_of, lazy
from tablelog.rules.table import clock_of
from tablelog.rulesets.improv.rules import (
    abandon,
    conflict,
    fate,
    finale,
    people,
    plays,
    reveal,
    sealed,
)
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.cast import CAST
from tablelog.rulesets.improv.rules.decks import Shuffle
from tablelog.rulesets.improv.rules.evolve import ImprovEvent, evolve, initial
from tablelog.rulesets.improv.rules.options import ImprovOptions, check_new
from tablelog.rulesets.improv.rules.state import ImprovState

ImprovCommand = (
    JoinPlayer
    | c.CreateCharacter
    | c.StartSession
    | c.EndSession
    | c.StartScene
    | c.EndScene
    | c.OpenConflict
    | c.SetStake
    | c.PlayCard
    | c.PlaceBonus
    | c.Reveal
    | c.Fate
    | c.Give
    | c.Award
    | c.Redraw
    | c.Bribe
    | c.Narrate
    | c.Close
    | c.Abandon
    | c.OpenCard
    | c.SetOpeningDeadline
    | c.ForfeitOpening
)


def decide(state: ImprovState, command: ImprovCommand, shuffle: Shuffle) -> list[Event]:
    match command:
        case JoinPlayer():
            return people.join(state, command)
        case c.CreateCharacter():
            return people.create_character(state, command, shuffle)
        case c.StartSession():
            return people.start_session(state, command, shuffle)
        case c.EndSession():
            return people.end_session(state, command)
        case c.StartScene():
            return people.start_scene(state, command)
        case c.EndScene():
            return people.end_scene(state, command)
        case c.OpenConflict():
            return conflict.open_conflict(state, command)
        case c.SetStake():
            return conflict.set_stake(state, command)
        case c.PlayCard():
            return plays.play_card(state, command, shuffle)
        case c.OpenCard():
            return sealed.open_card(state, command)
        case c.SetOpeningDeadline():
            return sealed.set_deadline(state, command)
        case c.ForfeitOpening():
            return sealed.forfeit(state, command)
        case c.PlaceBonus():
            return conflict.place_bonus(state, command)
        case c.Reveal():
            return reveal.reveal(state, command, shuffle)
        case c.Fate():
            return fate.fate(state, command)
        case c.Give():
            return finale.give(state, command, shuffle)
        case c.Award():
            return people.award(state, command)
        case c.Redraw():
            return people.redraw(state, command, shuffle)
        case c.Bribe():
            return people.bribe(state, command)
        case c.Narrate():
            return finale.narrate(state, command)
        case c.Close():
            return finale.close(state, command, shuffle)
        case c.Abandon():
            return abandon.abandon(state, command, shuffle)
        case _:
            assert_never(command)


RULESET = Ruleset[ImprovState](
    name="improv",
    options_type=ImprovOptions,
    state_type=ImprovState,
    initial=initial,
    evolve=evolve,
    decide=decide,
    cast=CAST,
    table=clock_of,
    commands=commands_of(ImprovCommand),
    # 2: closed conflicts archived as records (ClosedConflict); the state counts seqs.
    # 3: a round keeps the reveal's ranking; an abandoned conflict keeps its reason.
    # 4: sealed plays (a play's commitment, a round's deadline for the openings).
    # 5: a conflict keeps its narrations and the tokens its reveals and close moved (the page).
    version=5,
    demo=lazy("tablelog.rulesets.improv.rules.demo", "demo"),
    check_options=check_new,
)

__all__ = ["RULESET", "ImprovCommand", "ImprovEvent", "ImprovState", "decide", "evolve"]
