"""The Improv commands' endpoints (see `tablelog.commands.endpoints`)."""

from __future__ import annotations

from tablelog.commands.endpoints import Endpoint
from tablelog.rulesets.improv.rules import commands as c

ENDPOINTS = [
    Endpoint(c.CreateCharacter, "/improv/characters", "Create a protagonist"),
    Endpoint(c.OpenConflict, "/improv/conflicts", "Open a conflict"),
    Endpoint(c.SetStake, "/improv/conflicts/{conflict}/stakes", "Set a side's stake"),
    Endpoint(c.PlayCard, "/improv/conflicts/{conflict}/plays", "Play a card face down"),
    Endpoint(c.OpenCard, "/improv/conflicts/{conflict}/openings", "Open a sealed card"),
    Endpoint(
        c.SetOpeningDeadline,
        "/improv/conflicts/{conflict}/deadline",
        "Set the deadline for the round's openings",
    ),
    Endpoint(
        c.ForfeitOpening,
        "/improv/conflicts/{conflict}/forfeits",
        "Declare a side that missed the deadline forfeit",
    ),
    Endpoint(c.PlaceBonus, "/improv/conflicts/{conflict}/bonuses", "Place tokens or a talent"),
    Endpoint(c.Reveal, "/improv/conflicts/{conflict}/reveals", "Reveal the round"),
    Endpoint(c.Fate, "/improv/conflicts/{conflict}/fate", "Hand of Fate: draw or choose"),
    Endpoint(c.Give, "/improv/conflicts/{conflict}/gifts", "Give a victory card"),
    Endpoint(c.Narrate, "/improv/conflicts/{conflict}/narrations", "Narrate for a side"),
    Endpoint(c.Close, "/improv/conflicts/{conflict}/close", "Close the conflict"),
    Endpoint(c.Abandon, "/improv/conflicts/{conflict}/abandon", "Abandon the conflict (GM)"),
    Endpoint(c.Award, "/improv/awards", "Award a story-token"),
    Endpoint(c.Redraw, "/improv/redraws", "Spend a token to redraw cards"),
    Endpoint(c.Bribe, "/improv/bribes", "Pass a token for narration"),
]
