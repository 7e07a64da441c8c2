"""The Night Terrors commands' endpoints (see `tablelog.commands.endpoints`)."""

from __future__ import annotations

from tablelog.commands.endpoints import Endpoint
from tablelog.rulesets.night_terrors.rules import commands as c

_AT = "/night-terrors/conflicts/{conflict}"

ENDPOINTS = [
    Endpoint(c.CreateCharacter, "/night-terrors/characters", "Create a character (a face card)"),
    Endpoint(c.Draw, "/night-terrors/draws", "Record the cards a character drew"),
    Endpoint(c.Discard, "/night-terrors/discards", "Discard down to the hand size at a reset"),
    Endpoint(c.Refresh, "/night-terrors/refreshes", "Refresh a hand at a reset"),
    Endpoint(c.Pay, "/night-terrors/payments", "Pay a fallout or price"),
    Endpoint(c.OpenConflict, "/night-terrors/conflicts", "Open a conflict"),
    Endpoint(c.Raise, f"{_AT}/raises", "Raise with 2 cards (3 with a held reversal card)"),
    Endpoint(c.See, f"{_AT}/sees", "See the raise"),
    Endpoint(c.Push, f"{_AT}/pushes", "Push: answer short and pay the price"),
    Endpoint(c.Escalate, f"{_AT}/escalations", "Escalate: the trump climbs, everyone draws"),
    Endpoint(c.Give, f"{_AT}/gives", "Give: leave the conflict"),
    Endpoint(c.Narrate, f"{_AT}/narrations", "Narrate the outcome (a winner)"),
    Endpoint(c.Abandon, f"{_AT}/abandon", "Abandon the conflict (GM): nobody wins"),
]
