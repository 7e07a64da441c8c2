"""Who is who in Bid & Challenge (the contract's cast, rules/cast.py).

A player acts only for its own characters: registers its deck, asks for a scene, bids, passes,
challenges, pushes, narrates a round its character won and, with managed dice, rolls its own
bid. The GM runs the campaign (the universe deck, deaths, ending a scene, and recording the
faces rolled at the table, since a recorded roll carries both sides' faces), acts for its own
characters, and may register a deck for a player, open a scene, pass (or decline) and roll
for anyone, so that a silent player never blocks the table.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.cast import Cast
from tablelog.rules.common import Command
from tablelog.rules.table import GM
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import lookup
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState


def owner(state: BidAndChallengeState, name: str) -> str | None:
    try:
        return lookup.character(state, name).player
    except TablelogError:
        return None


def _roll(state: BidAndChallengeState, command: c.Roll) -> str | None:
    if state.options.dice == "recorded":
        # The faces of both sides travel in one roll: a player who recorded them would be
        # choosing the other side's dice. The GM records what the table rolled.
        return GM
    try:
        active = lookup.scene(state, command.conflict).current.active
    except (TablelogError, IndexError):
        return None
    return CAST.player_of(state, active)


_WHAT: dict[type[Command], str] = {
    c.RegisterDeck: "register a deck for another player",
    c.OpenScene: "ask for a scene in this character's name",
    c.Bid: "bid for this character",
    c.Pass: "pass for this character",
    c.Challenge: "challenge with this character",
    c.Push: "push for this character",
    c.Roll: "roll for this scene's active player",
    c.Narrate: "narrate for this character",
}

CAST = Cast[BidAndChallengeState](
    gm=lambda state: state.gm,
    owner=owner,
    characters={
        c.OpenScene: "requested_by",
        c.Bid: "active",
        c.Push: "active",
        c.Pass: "player",
        c.Narrate: "player",
        c.Challenge: "challenger",
        c.Roll: _roll,
    },
    players={c.RegisterDeck: "player"},
    event_characters=("active", "player", "challenger", "by", "character_id", "character"),
    gm_only=(c.AddUniverseCard, c.KillCharacter, c.CloseScene),
    gm_also=(c.RegisterDeck, c.OpenScene, c.Pass, c.Roll),
    what=_WHAT,
    gm_acts_for="its own characters",
)
