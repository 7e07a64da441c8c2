"""Who may issue each Bid & Challenge command through the service.

A player acts only for its own characters: registers its deck, asks for a scene, bids, passes,
challenges, pushes, narrates a round its character won and, with managed dice, rolls its own
bid. The GM runs the campaign (the
universe deck, deaths, ending a scene, and recording the faces rolled at the table, since a
recorded roll carries both sides' faces), acts for its own characters, and may register a deck
for a player, open a scene, pass (or decline) and roll for anyone, so that a silent player
never blocks the table. Names the state does not know are let through: `decide` then refuses
them with its own sentence.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.bid_and_challenge import commands as c
from tablelog.rules.bid_and_challenge import lookup
from tablelog.rules.bid_and_challenge.state import BidAndChallengeState
from tablelog.rules.common import Command
from tablelog.rules.contract import Authority
from tablelog.rules.names import player_name
from tablelog.rules.table import GM

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


def _player_of(state: BidAndChallengeState, name: str) -> str | None:
    try:
        player = lookup.character(state, name).player
    except TablelogError:
        return None
    return GM if player == state.gm else player


def acting(state: BidAndChallengeState, command: Command) -> str | None:
    """Who the command acts for: a player key, GM, or None when the state cannot tell."""
    match command:
        case c.RegisterDeck():
            try:
                key = player_name(command.player)
            except TablelogError:
                return None
            return GM if key in (GM, state.gm) else key
        case c.OpenScene():
            return _player_of(state, command.requested_by)
        case c.Bid() | c.Push():
            return _player_of(state, command.active)
        case c.Pass() | c.Narrate():
            return _player_of(state, command.player)
        case c.Challenge():
            return _player_of(state, command.challenger)
        case c.Roll():
            if state.options.dice == "recorded":
                # The faces of both sides travel in one roll: a player who recorded them would
                # be choosing the other side's dice. The GM records what the table rolled.
                return GM
            try:
                return _player_of(state, lookup.scene(state, command.conflict).current.active)
            except (TablelogError, IndexError):
                return None
    return None


AUTHORITY = Authority[BidAndChallengeState](
    acting=acting,
    gm_only=(c.AddUniverseCard, c.KillCharacter, c.CloseScene),
    gm_also=(c.RegisterDeck, c.OpenScene, c.Pass, c.Roll),
    what=_WHAT,
    gm_acts_for="its own characters",
)
