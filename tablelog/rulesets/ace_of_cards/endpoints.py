"""The Ace of Cards commands' endpoints (see `tablelog.commands.endpoints`)."""

from __future__ import annotations

from tablelog.commands.endpoints import Endpoint
from tablelog.rulesets.ace_of_cards.rules import commands as c

_CONFLICT = "/ace-of-cards/conflicts/{conflict}"

ENDPOINTS = [
    Endpoint(c.CreateCharacter, "/ace-of-cards/characters", "Create a character (HP, MP)"),
    Endpoint(c.BuildDeck, "/ace-of-cards/decks", "Take the class: free benefit and deck"),
    Endpoint(c.SetSkillLevel, "/ace-of-cards/skills", "Set a skill's level (SL)"),
    Endpoint(c.AdjustHP, "/ace-of-cards/hp", "Change a character's HP (GM)"),
    Endpoint(c.AdjustMP, "/ace-of-cards/mp", "Change a character's MP (GM)"),
    Endpoint(c.OpenConflict, "/ace-of-cards/conflicts", "Start a conflict: shuffle, draw 5"),
    Endpoint(c.TakeAction, f"{_CONFLICT}/actions", "Record a resolved action"),
    Endpoint(c.UseMagicCards, f"{_CONFLICT}/magic-cards", "Magic Cards: resolve a set"),
    Endpoint(c.Mulligan, f"{_CONFLICT}/mulligans", "Mulligan at the end of a turn"),
    Endpoint(c.TrapCard, f"{_CONFLICT}/traps", "Trap Card after an enemy's action"),
    Endpoint(c.FreeSpell, f"{_CONFLICT}/free-spells", "The free spell of a Trap Card hit"),
    Endpoint(c.CallCheck, f"{_CONFLICT}/checks", "Call a Check"),
    Endpoint(
        c.DeclareDoubleOrNothing,
        f"{_CONFLICT}/checks/{{check}}/double-or-nothing",
        "Declare Double or Nothing",
    ),
    Endpoint(c.RollCheck, f"{_CONFLICT}/checks/{{check}}/rolls", "Roll (or record) a Check"),
    Endpoint(c.HighOrLowDraw, f"{_CONFLICT}/high-or-low/draws", "High or Low: draw 1"),
    Endpoint(c.HighOrLowDiscard, f"{_CONFLICT}/high-or-low/discards", "High or Low: discard 1"),
    Endpoint(c.EndConflict, f"{_CONFLICT}/end", "End the conflict: the cards put away"),
]
