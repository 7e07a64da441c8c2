"""Who is who in Beer Run (the contract's cast, rules/cast.py).

A player acts only for its own characters (goals, pools, rolls, allocations, cedes) and may
create its own; the GM runs the campaign (sessions, scenes, conflicts, difficulty pools, GM
changes to dice and Intensity, outcome dice, the end of a conflict), acts for its NPCs and
records the faces of difficulty pools.
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.cast import Cast
from tablelog.rules.common import Command
from tablelog.rules.table import GM
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.state import BeerRunState


def owner(state: BeerRunState, name: str) -> str | None:
    try:
        return flow.character(state, name).player
    except TablelogError:
        return None


def _roll(state: BeerRunState, command: c.Roll) -> str | None:
    """A difficulty pool, or every pool at once, is the GM's roll; a character's, its own."""
    if command.actor is None or command.difficulty is not None:
        return GM
    return CAST.player_of(state, command.actor)


_WHAT: dict[type[Command], str] = {
    c.CreateCharacter: "create a character for another player",
    c.DeclareGoal: "declare this character's goal",
    c.AssemblePool: "buy this character's pool",
    c.OpenPool: "open this character's sealed pool",
    c.Roll: "roll this character's pool",
    c.Allocate: "allocate this character's successes",
    c.Cede: "cede for this character",
}

CAST = Cast[BeerRunState](
    gm=lambda state: state.gm,
    owner=owner,
    characters={
        c.DeclareGoal: "actor",
        c.AssemblePool: "actor",
        c.OpenPool: "actor",
        c.Cede: "actor",
        c.Allocate: "by",
        c.Roll: _roll,
    },
    players={c.CreateCharacter: "player"},
    event_characters=("actor", "by", "character_id"),
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
