"""Who may issue each Improv command through the service.

A player acts only for its own character (its stake, cards, bonuses, Hand of Fate, gifts,
narration, awards and spends); the GM runs the campaign (sessions, scenes, conflicts, reveals,
closes, invitations), acts for its GM stakes and may create characters for players. Names the
state does not know are let through: `decide` then refuses them with its own sentence.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.common import Command
from tablelog.rules.contract import Authority
from tablelog.rules.improv import commands as c
from tablelog.rules.improv import lookup
from tablelog.rules.improv.state import GM, ImprovState

_WHAT: dict[type[Command], str] = {
    c.CreateCharacter: "create another player's character",
    c.SetStake: "set this stake",
    c.PlayCard: "play this side's card",
    c.OpenCard: "open this side's sealed card",
    c.PlaceBonus: "place this bonus",
    c.Fate: "act for this side in the Hand of Fate",
    c.Give: "give this side's victory cards",
    c.Narrate: "narrate for this side",
    c.Award: "award a token for another player",
    c.Redraw: "spend another player's token",
    c.Bribe: "spend another player's token",
}


def _side_owner(state: ImprovState, conflict: str | None, side: str) -> str | None:
    try:
        found = lookup.side(lookup.conflict(state, conflict), side)
    except TablelogError:
        return None
    return lookup.owner(found)


def _character_player(state: ImprovState, name: str) -> str | None:
    try:
        return lookup.character(state, name).player
    except TablelogError:
        return None


def _player(state: ImprovState, name: str) -> str | None:
    try:
        return lookup.player(state, name)
    except TablelogError:
        return None


def acting(state: ImprovState, command: Command) -> str | None:
    """Who the command acts for: a player key, GM, or None when the state cannot tell."""
    match command:
        case c.CreateCharacter():
            return _player(state, command.player) or lookup.key(command.player, "player name")
        case c.SetStake():
            return GM if command.gm else _character_player(state, command.side)
        case c.PlayCard() | c.OpenCard() | c.Fate() | c.Narrate():
            return _side_owner(state, command.conflict, command.side)
        case c.PlaceBonus():
            if command.by is None:
                return _side_owner(state, command.conflict, command.on)
            if lookup.key(command.by, "--by name") in (GM, state.gm):
                return GM
            return _character_player(state, command.by)
        case c.Give():
            return _side_owner(state, command.conflict, command.giver)
        case c.Award() | c.Bribe():
            return _player(state, command.giver)
        case c.Redraw():
            return _player(state, command.player)
    return None


AUTHORITY = Authority[ImprovState](
    acting=acting,
    gm_only=(
        c.OpenConflict,
        c.Reveal,
        c.Close,
        c.Abandon,
        c.SetOpeningDeadline,
        c.ForfeitOpening,
    ),
    gm_also=(c.CreateCharacter,),
    what=_WHAT,
    gm_acts_for="GM stakes",
)
