"""Fabula Ultima's "Ace of Cards" (seed 004): a 30-card deck, exact sets, Mind Points.

`decide(state, command, shuffle)` checks a command against the campaign's state and returns
the events it causes, or raises a RuleViolation naming the rule, the value and the limit.
Every shuffle, draw and die comes through `shuffle` (or is recorded from the table) and is
stored in the events, so a replay never draws again.
"""

from __future__ import annotations

from typing import assert_never

from tablelog.events.base import Event
from tablelog.rules.common import EndScene, EndSession, JoinPlayer, StartScene, StartSession
from tablelog.rules.contract import Ruleset, commands_of, lazy
from tablelog.rules.table import decide_table
from tablelog.rulesets.ace_of_cards.rules import checkflow, conflict, people, play
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.cast import CAST
from tablelog.rulesets.ace_of_cards.rules.deck import Shuffle
from tablelog.rulesets.ace_of_cards.rules.evolve import AceEvent, evolve, initial
from tablelog.rulesets.ace_of_cards.rules.options import AceOfCardsOptions
from tablelog.rulesets.ace_of_cards.rules.state import AceState

AceCommand = (
    JoinPlayer
    | StartSession
    | EndSession
    | StartScene
    | EndScene
    | c.CreateCharacter
    | c.BuildDeck
    | c.SetSkillLevel
    | c.AdjustHP
    | c.AdjustMP
    | c.OpenConflict
    | c.TakeAction
    | c.UseMagicCards
    | c.Mulligan
    | c.TrapCard
    | c.FreeSpell
    | c.CallCheck
    | c.DeclareDoubleOrNothing
    | c.RollCheck
    | c.HighOrLowDraw
    | c.HighOrLowDiscard
    | c.EndConflict
)


def decide(state: AceState, command: AceCommand, shuffle: Shuffle) -> list[Event]:
    match command:
        case JoinPlayer():
            return people.join(state, command)
        case StartSession() | EndSession() | StartScene() | EndScene():
            return decide_table(state.table, command)
        case c.CreateCharacter():
            return people.create_character(state, command)
        case c.BuildDeck():
            return people.build_deck(state, command)
        case c.SetSkillLevel():
            return people.set_skill(state, command)
        case c.AdjustHP() | c.AdjustMP():
            return people.adjust(state, command)
        case c.OpenConflict():
            return conflict.open_conflict(state, command, shuffle)
        case c.TakeAction():
            return conflict.take_action(state, command)
        case c.UseMagicCards():
            return play.use_magic_cards(state, command, shuffle)
        case c.Mulligan():
            return play.mulligan(state, command, shuffle)
        case c.TrapCard():
            return play.trap_card(state, command)
        case c.FreeSpell():
            return play.free_spell(state, command)
        case c.CallCheck():
            return checkflow.call_check(state, command)
        case c.DeclareDoubleOrNothing():
            return checkflow.declare_double(state, command)
        case c.RollCheck():
            return checkflow.roll_check(state, command, shuffle)
        case c.HighOrLowDraw():
            return play.high_or_low_draw(state, command, shuffle)
        case c.HighOrLowDiscard():
            return play.high_or_low_discard(state, command)
        case c.EndConflict():
            return conflict.end_conflict(state, command)
        case _:
            assert_never(command)


RULESET = Ruleset[AceState](
    name="ace-of-cards",
    options_type=AceOfCardsOptions,
    state_type=AceState,
    initial=initial,
    evolve=evolve,
    decide=decide,
    cast=CAST,
    table=lambda state: state.table,
    commands=commands_of(AceCommand),
    demo=lazy("tablelog.rulesets.ace_of_cards.rules.demo", "demo"),
    # 2: a conflict keeps its reactions and the order things happened in; 3: the class_skills
    # option, a Magic Pair's free attack pending and tied to its Check
    version=3,
)

__all__ = ["RULESET", "AceCommand", "AceEvent", "AceState", "decide", "evolve"]
