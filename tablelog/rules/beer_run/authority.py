"""Who may issue each Beer Run command through the service.

A player acts only for its own characters (goals, pools, rolls, allocations, cedes) and may
create its own; the GM runs the campaign (sessions, scenes, conflicts, difficulty pools, GM
changes to dice and Intensity, outcome dice, the end of a conflict), acts for its NPCs and
records the faces of difficulty pools. Names the state does not know are let through: `decide`
then refuses them with its own sentence.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.beer_run import commands as c
from tablelog.rules.beer_run import flow
from tablelog.rules.beer_run.state import BeerRunState
from tablelog.rules.common import Command
from tablelog.rules.contract import Authority
from tablelog.rules.names import player_name
from tablelog.rules.table import GM

_WHAT: dict[type[Command], str] = {
    c.CreateCharacter: "create a character for another player",
    c.DeclareGoal: "declare this character's goal",
    c.AssemblePool: "buy this character's pool",
    c.OpenPool: "open this character's sealed pool",
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
        case c.DeclareGoal() | c.AssemblePool() | c.OpenPool() | c.Cede():
            return _player_of(state, command.actor)
        case c.Allocate():
            return _player_of(state, command.by)
        case c.Roll():
            if command.actor is None or command.difficulty is not None:
                return GM
            return _player_of(state, command.actor)
    return None


AUTHORITY = Authority[BeerRunState](
    acting=acting,
    gm_only=(
        c.SetAbility,
        c.AdjustIntensity,
        c.AwardOutcomeDie,
        c.OpenConflict,
        c.SetDifficulty,
        c.EndConflict,
        c.SetPoolDeadline,
        c.ForfeitPool,
    ),
    gm_also=(c.CreateCharacter,),
    what=_WHAT,
    gm_acts_for="its NPCs",
)
