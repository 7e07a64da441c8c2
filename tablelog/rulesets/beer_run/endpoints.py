"""The Beer Run commands' endpoints (see `tablelog.commands.endpoints`)."""

from __future__ import annotations

from tablelog.commands.endpoints import Endpoint
from tablelog.rulesets.beer_run.rules import commands as c

ENDPOINTS = [
    Endpoint(c.CreateCharacter, "/beer-run/characters", "Create a character and its dice"),
    Endpoint(c.SetAbility, "/beer-run/abilities", "Set an ability die (GM: heal or change)"),
    Endpoint(c.AdjustIntensity, "/beer-run/intensity", "Adjust a character's Intensity"),
    Endpoint(c.AwardOutcomeDie, "/beer-run/outcome-dice", "Award an outcome die"),
    Endpoint(c.OpenConflict, "/beer-run/conflicts", "Open a conflict"),
    Endpoint(c.DeclareGoal, "/beer-run/conflicts/{conflict}/goals", "State a goal"),
    Endpoint(c.SetDifficulty, "/beer-run/conflicts/{conflict}/difficulty", "Set a difficulty pool"),
    Endpoint(c.AssemblePool, "/beer-run/conflicts/{conflict}/pools", "Buy a pool"),
    Endpoint(c.OpenPool, "/beer-run/conflicts/{conflict}/openings", "Open a sealed pool"),
    Endpoint(
        c.SetPoolDeadline,
        "/beer-run/conflicts/{conflict}/deadline",
        "Set the deadline for the round's openings",
    ),
    Endpoint(
        c.ForfeitPool,
        "/beer-run/conflicts/{conflict}/forfeits",
        "Declare a sealed pool that missed the deadline forfeit",
    ),
    Endpoint(c.Roll, "/beer-run/conflicts/{conflict}/rolls", "Roll (or record) a pool"),
    Endpoint(c.Allocate, "/beer-run/conflicts/{conflict}/allocations", "Allocate pips"),
    Endpoint(c.Cede, "/beer-run/conflicts/{conflict}/cedes", "Cede the conflict"),
    Endpoint(c.EndConflict, "/beer-run/conflicts/{conflict}/end", "End the conflict"),
]
