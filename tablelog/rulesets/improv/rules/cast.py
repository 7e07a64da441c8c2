"""Who is who in Improv (the contract's cast, rules/cast.py).

A player acts only for its own character (its stake, cards, bonuses, Hand of Fate, gifts,
narration, awards and spends); the GM runs the campaign (sessions, scenes, conflicts, reveals,
closes, invitations), acts for its GM stakes and may create characters for players. A
command acts for a side of a conflict, which is Improv's own: the functions below find whose.
"""

from __future__ import annotations

from typing import Any

from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.rules.cast import Cast
from tablelog.rules.common import Command
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules import lookup
from tablelog.rulesets.improv.rules.state import GM, ImprovState

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


def _stake(state: ImprovState, command: c.SetStake) -> str | None:
    return GM if command.gm else _character_player(state, command.side)


def _side(state: ImprovState, command: c.PlayCard | c.OpenCard | c.Fate | c.Narrate) -> str | None:
    return _side_owner(state, command.conflict, command.side)


def _bonus(state: ImprovState, command: c.PlaceBonus) -> str | None:
    if command.by is None:
        return _side_owner(state, command.conflict, command.on)
    if lookup.key(command.by, "--by name") in (GM, state.gm):
        return GM
    return _character_player(state, command.by)


def _giver(state: ImprovState, command: c.Give) -> str | None:
    return _side_owner(state, command.conflict, command.giver)


def _token_giver(state: ImprovState, command: c.Award | c.Bribe) -> str | None:
    return _player(state, command.giver)


def _spender(state: ImprovState, command: c.Redraw) -> str | None:
    return _player(state, command.player)


def attributes(state: ImprovState, event: Event) -> str:
    """Who an event is attributed to when the local operator acts: a side's player, or the GM."""
    player: Any = getattr(event, "player", None)
    if isinstance(player, str) and player != GM:
        return player
    side_key: Any = getattr(event, "side", None) or getattr(event, "giver", None)
    conflict_key: Any = getattr(event, "conflict", None)
    if isinstance(side_key, str) and isinstance(conflict_key, str):
        found = state.conflicts.get(conflict_key)
        side = found.sides.get(side_key) if found else None
        if side is not None and side.player is not None:
            return side.player
    if isinstance(side_key, str) and side_key in state.players and side_key != state.gm:
        return side_key
    return state.gm


CAST = Cast[ImprovState](
    gm=lambda state: state.gm,
    owner=_character_player,
    characters={
        c.SetStake: _stake,
        c.PlayCard: _side,
        c.OpenCard: _side,
        c.Fate: _side,
        c.Narrate: _side,
        c.PlaceBonus: _bonus,
        c.Give: _giver,
        c.Award: _token_giver,
        c.Bribe: _token_giver,
        c.Redraw: _spender,
    },
    players={c.CreateCharacter: "player"},
    attributes=attributes,
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
