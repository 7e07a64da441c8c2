"""Who may issue each Night Terrors command through the service.

A player acts only for its own characters: raises, answers, escalations, gives, payments,
discards, refreshes, recorded draws, opening a conflict as its aggressor and narrating an
outcome. The GM runs the campaign and acts for its NPCs; it may also create a character for
a player, open a conflict for any aggressor and record any draw (it deals the cards). Names
the state does not know are let through: `decide` then refuses them with its own sentence.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.common import Command
from tablelog.rules.contract import Authority
from tablelog.rules.names import player_name
from tablelog.rules.night_terrors import commands as c
from tablelog.rules.night_terrors import flow
from tablelog.rules.night_terrors.state import NightTerrorsState
from tablelog.rules.table import GM

_WHAT: dict[type[Command], str] = {
    c.CreateCharacter: "create a character for another player",
    c.OpenConflict: "open a conflict for this aggressor",
    c.Raise: "raise for this character",
    c.See: "answer for this character",
    c.Push: "push for this character",
    c.Escalate: "escalate for this character",
    c.Give: "give for this character",
    c.Pay: "pay this character's cost",
    c.Draw: "record this character's draw",
    c.Discard: "discard from this character's hand",
    c.Refresh: "refresh this character's hand",
    c.Narrate: "narrate for this character",
}


def player_of(state: NightTerrorsState, name: str) -> str | None:
    """The player key (GM for an NPC) of a character, None when the name is unknown."""
    try:
        player = flow.character(state, name).player
    except TablelogError:
        return None
    return GM if player == state.gm else player


def acting(state: NightTerrorsState, command: Command) -> str | None:
    match command:
        case c.CreateCharacter():
            try:
                key = player_name(command.player)
            except TablelogError:
                return None
            return GM if key in (GM, state.gm) else key
        case c.OpenConflict():
            return player_of(state, command.aggressor)
        case (
            c.Raise()
            | c.See()
            | c.Push()
            | c.Escalate()
            | c.Give()
            | c.Pay()
            | c.Draw()
            | c.Discard()
            | c.Refresh()
            | c.Narrate()
        ):
            return player_of(state, command.character)
    return None


AUTHORITY = Authority[NightTerrorsState](
    acting=acting,
    gm_also=(c.CreateCharacter, c.OpenConflict, c.Draw),
    what=_WHAT,
    gm_acts_for="its NPCs",
)
