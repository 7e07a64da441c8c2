"""Who is who in Ace of Cards (the contract's cast, rules/cast.py).

A player acts only for its own characters (their decks, skills, Magic Cards, Mulligan, Trap
Card, free spells, Checks, High or Low, their actions); the GM runs the campaign (conflicts,
HP and MP changes), acts for its NPC allies and for the enemies.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.cast import Cast
from tablelog.rules.common import Command
from tablelog.rules.names import player_name
from tablelog.rules.table import GM
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules import flow
from tablelog.rulesets.ace_of_cards.rules.state import AceState


def owner(state: AceState, name: str) -> str | None:
    try:
        return flow.character(state, name).player
    except TablelogError:
        return None


def _action(state: AceState, command: c.TakeAction) -> str | None:
    """A character's action is its player's; an enemy's (no character) the GM's."""
    try:
        key = player_name(command.actor)
    except TablelogError:
        return None
    return CAST.player_of(state, key) if key in state.characters else GM


def _check(state: AceState, command: c.DeclareDoubleOrNothing | c.RollCheck) -> str | None:
    try:
        found = flow.check(flow.conflict(state, command.conflict), command.check)
    except TablelogError:
        return None
    return CAST.player_of(state, found.character_id)


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

CAST = Cast[AceState](
    gm=lambda state: state.gm,
    owner=owner,
    characters={
        **{
            command: "character"
            for command in (
                c.BuildDeck,
                c.SetSkillLevel,
                c.UseMagicCards,
                c.Mulligan,
                c.TrapCard,
                c.FreeSpell,
                c.CallCheck,
                c.HighOrLowDraw,
                c.HighOrLowDiscard,
            )
        },
        c.TakeAction: _action,
        c.DeclareDoubleOrNothing: _check,
        c.RollCheck: _check,
    },
    players={c.CreateCharacter: "player"},
    event_characters=("character_id", "actor"),
    gm_only=(c.AdjustHP, c.AdjustMP, c.OpenConflict, c.EndConflict),
    gm_also=(c.CreateCharacter, c.BuildDeck, c.SetSkillLevel, c.CallCheck),
    what=_WHAT,
    gm_acts_for="its NPCs and the enemies",
)
