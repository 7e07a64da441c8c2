"""Who may issue each Ace of Cards command through the service.

A player acts only for its own characters (their decks, skills, Magic Cards, Mulligan, Trap
Card, free spells, Checks, High or Low, their actions); the GM runs the campaign (conflicts,
HP and MP changes), acts for its NPC allies and for the enemies. Names the state does not
know are let through: `decide` then refuses them with its own sentence.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.ace_of_cards import commands as c
from tablelog.rules.ace_of_cards import flow
from tablelog.rules.ace_of_cards.state import AceState
from tablelog.rules.common import Command
from tablelog.rules.contract import Authority
from tablelog.rules.names import player_name
from tablelog.rules.table import GM

_WHAT: dict[type[Command], str] = {
    c.CreateCharacter: "create a character for another player",
    c.BuildDeck: "build this character's deck",
    c.SetSkillLevel: "set this character's skills",
    c.TakeAction: "act for this character",
    c.UseMagicCards: "play this Ace's cards",
    c.Mulligan: "take this Ace's Mulligan",
    c.TrapCard: "spring this Ace's Trap Card",
    c.FreeSpell: "cast this Ace's spell",
    c.CallCheck: "call this character's Check",
    c.DeclareDoubleOrNothing: "declare for this character's Check",
    c.RollCheck: "roll this character's Check",
    c.HighOrLowDraw: "draw for this Ace",
    c.HighOrLowDiscard: "discard for this Ace",
}


def _player_of(state: AceState, name: str) -> str | None:
    try:
        player = flow.character(state, name).player
    except TablelogError:
        return None
    return GM if player == state.gm else player


def _check_owner(state: AceState, conflict: str | None, check: str) -> str | None:
    try:
        found = flow.check(flow.conflict(state, conflict), check)
    except TablelogError:
        return None
    return _player_of(state, found.character_id)


def acting(state: AceState, command: Command) -> str | None:
    """Who the command acts for: a player key, GM, or None when the state cannot tell."""
    match command:
        case c.CreateCharacter():
            try:
                key = player_name(command.player)
            except TablelogError:
                return None
            return GM if key in (GM, state.gm) else key
        case c.TakeAction():
            try:
                key = player_name(command.actor)
            except TablelogError:
                return None
            return _player_of(state, key) if key in state.characters else GM
        case c.DeclareDoubleOrNothing() | c.RollCheck():
            return _check_owner(state, command.conflict, command.check)
        case (
            c.BuildDeck()
            | c.SetSkillLevel()
            | c.UseMagicCards()
            | c.Mulligan()
            | c.TrapCard()
            | c.FreeSpell()
            | c.CallCheck()
            | c.HighOrLowDraw()
            | c.HighOrLowDiscard()
        ):
            return _player_of(state, command.character)
    return None


AUTHORITY = Authority[AceState](
    acting=acting,
    gm_only=(c.AdjustHP, c.AdjustMP, c.OpenConflict, c.EndConflict),
    gm_also=(c.CreateCharacter, c.BuildDeck, c.SetSkillLevel, c.CallCheck),
    what=_WHAT,
    gm_acts_for="its NPCs and the enemies",
)
