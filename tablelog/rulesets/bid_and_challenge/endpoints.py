"""The Bid & Challenge commands' endpoints (see `tablelog.commands.endpoints`)."""

from __future__ import annotations

from tablelog.commands.endpoints import Endpoint
from tablelog.rulesets.bid_and_challenge.rules import commands as c

ENDPOINTS = [
    Endpoint(c.RegisterDeck, "/bid-and-challenge/decks", "Register a character's deck and Flow"),
    Endpoint(c.AddUniverseCard, "/bid-and-challenge/universe", "Add a universe card (GM)"),
    Endpoint(c.KillCharacter, "/bid-and-challenge/deaths", "A character dies for good (GM)"),
    Endpoint(c.OpenScene, "/bid-and-challenge/conflicts", "Start a scene"),
    Endpoint(c.Bid, "/bid-and-challenge/conflicts/{conflict}/bids", "Bid"),
    Endpoint(c.Pass, "/bid-and-challenge/conflicts/{conflict}/passes", "Pass a bid or a challenge"),
    Endpoint(c.Challenge, "/bid-and-challenge/conflicts/{conflict}/challenges", "Challenge"),
    Endpoint(c.Push, "/bid-and-challenge/conflicts/{conflict}/pushes", "Push"),
    Endpoint(c.Roll, "/bid-and-challenge/conflicts/{conflict}/rolls", "Roll (or record) the dice"),
    Endpoint(
        c.Narrate,
        "/bid-and-challenge/conflicts/{conflict}/narrations",
        "The round's winner narrates what happens",
    ),
    Endpoint(c.CloseScene, "/bid-and-challenge/conflicts/{conflict}/end", "End a scene (GM)"),
]
