"""Who may issue each Beer Run command through the service.

A player acts only for its own characters (goals, pools, rolls, allocations, cedes) and may
create its own; the GM runs the campaign (sessions, scenes, conflicts, difficulty pools, GM
changes to dice and Intensity, outcome dice, the end of a conflict), acts for its NPCs and
records the faces of difficulty pools. Names the state does not know are let through: `decide`
then refuses them with its own sentence.
"""

from __future__ import annotations

from tablelog.errors import Forbidden, TablelogError
from tablelog.rules.beer_run import commands as c
from tablelog.rules.beer_run import flow
from tablelog.rules.beer_run.state import BeerRunState
from tablelog.rules.common import (
    Command,
    EndScene,
    EndSession,
    JoinPlayer,
    StartScene,
    StartSession,
)
from tablelog.rules.names import player_name

GM = "gm"
_GM_ONLY = (
    StartSession,
    EndSession,
    StartScene,
    EndScene,
    JoinPlayer,
    c.SetAbility,
    c.AdjustIntensity,
    c.AwardOutcomeDie,
    c.OpenConflict,
    c.SetDifficulty,
    c.EndConflict,
)

_WHAT = {
    c.CreateCharacter: "create a character for another player",
    c.DeclareGoal: "declare this character's goal",
    c.AssemblePool: "buy this character's pool",
    c.Roll: "roll this character's pool",
    c.Allocate: "allocate this character's successes",
    c.Cede: "cede for this character",
}


def _player_of(state: BeerRunState, name: str) -> str | None:
    try:
        player = flow.character(state, name).player
    except TablelogError:
        return None
    return GM if player == state.gm else player


def acting(state: BeerRunState, command: Command) -> str | None:
    """Who the command acts for: a player key, GM, or None when the state cannot tell."""
    match command:
        case c.CreateCharacter():
            try:
                key = player_name(command.player)
            except TablelogError:
                return None
            return GM if key in (GM, state.gm) else key
        case c.DeclareGoal() | c.AssemblePool() | c.Cede():
            return _player_of(state, command.actor)
        case c.Allocate():
            return _player_of(state, command.by)
        case c.Roll():
            if command.actor is None or command.difficulty is not None:
                return GM
            return _player_of(state, command.actor)
    return GM if isinstance(command, _GM_ONLY) else None


def authorize(state: BeerRunState, command: Command, player: str, role: str) -> None:
    """Refuse (Forbidden) a command the caller may not issue."""
    if role == "observer":
        raise Forbidden(f"{player} is an observer and may only read", code="observer")
    who = acting(state, command)
    if role == "gm":
        if who in (GM, None) or isinstance(command, c.CreateCharacter):
            return
        raise Forbidden(
            f"the GM acts for its NPCs and runs the table; only {who} may "
            f"{_WHAT.get(type(command), 'do this')}",
            code="not-yours",
        )
    if isinstance(command, _GM_ONLY) or who == GM:
        raise Forbidden(f"only the GM may do this; {player} is a player", code="gm-only")
    if who is not None and who != player:
        raise Forbidden(
            f"{player} may not {_WHAT.get(type(command), 'do this')}: it belongs to {who}",
            code="not-yours",
        )
