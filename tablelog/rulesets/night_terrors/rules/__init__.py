"""Night Terrors (seed 001): raise and see with playing cards, trumps, Blood/Sweat/Tears.

`decide(state, command, shuffle)` checks a command against the campaign's state and returns the
events it causes, or raises a RuleViolation naming the rule, the value and the limit. What the
command's events set in motion (managed draws, payments the rules leave no choice in, a pool
emptied, a conflict over) is decided on the state after them, in the same call (`settle`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import assert_never

from tablelog.events.base import Event
from tablelog.rules.common import EndScene, EndSession, JoinPlayer, StartScene, StartSession
from tablelog.rules.contract import Ruleset, commands_of, lazy
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules import exchange, hands
from tablelog.rulesets.night_terrors.rules.cast import CAST
from tablelog.rulesets.night_terrors.rules.evolve import NightTerrorsEvent, evolve, initial
from tablelog.rulesets.night_terrors.rules.options import NightTerrorsOptions
from tablelog.rulesets.night_terrors.rules.settle import settle
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState

NightTerrorsCommand = (
    JoinPlayer
    | StartSession
    | EndSession
    | StartScene
    | EndScene
    | c.CreateCharacter
    | c.OpenConflict
    | c.Raise
    | c.See
    | c.Push
    | c.Escalate
    | c.Give
    | c.Pay
    | c.Draw
    | c.Discard
    | c.Refresh
    | c.Narrate
    | c.Abandon
)


def _events(state: NightTerrorsState, command: NightTerrorsCommand) -> list[Event]:
    match command:
        case JoinPlayer():
            return hands.join(state, command)
        case StartSession() | EndSession() | StartScene() | EndScene():
            return hands.table_command(state, command)
        case c.CreateCharacter():
            return hands.create_character(state, command)
        case c.Draw():
            return hands.draw(state, command)
        case c.Discard():
            return hands.discard(state, command)
        case c.Refresh():
            return hands.refresh(state, command)
        case c.OpenConflict():
            return exchange.open_conflict(state, command)
        case c.Raise():
            return exchange.make_raise(state, command)
        case c.See() | c.Push():
            return exchange.answer(state, command)
        case c.Escalate():
            return exchange.escalate(state, command)
        case c.Give():
            return exchange.give(state, command)
        case c.Pay():
            return exchange.pay(state, command)
        case c.Narrate():
            return exchange.narrate(state, command)
        case c.Abandon():
            return exchange.abandon(state, command)
        case _:
            assert_never(command)


def decide(
    state: NightTerrorsState,
    command: NightTerrorsCommand,
    shuffle: Callable[[list[str]], list[str]],
) -> list[Event]:
    events = _events(state, command)
    if not events:
        return []
    return settle(copy.deepcopy(state), events, shuffle, evolve)  # type: ignore[arg-type]


RULESET = Ruleset[NightTerrorsState](
    name="night-terrors",
    options_type=NightTerrorsOptions,
    state_type=NightTerrorsState,
    initial=initial,
    evolve=evolve,
    decide=decide,
    cast=CAST,
    table=lambda state: state.table,
    commands=commands_of(NightTerrorsCommand),
    demo=lazy("tablelog.rulesets.night_terrors.rules.demo", "demo"),
    version=2,  # 2: an emptied pool drops the costs its character still owed
)

__all__ = ["RULESET", "NightTerrorsCommand", "NightTerrorsEvent", "NightTerrorsState", "decide"]
