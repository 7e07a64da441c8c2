"""Who is who in Night Terrors (the contract's cast, rules/cast.py).

A player acts only for its own characters: raises, answers, escalations, gives, payments,
discards, refreshes, recorded draws, opening a conflict as its aggressor and narrating an
outcome. The GM runs the campaign (it alone abandons a conflict) and acts for its NPCs; it
may also create a character for a player, open a conflict for any aggressor and record any
draw (it deals the cards).
"""

from __future__ import annotations

from tablelog.errors import TablelogError
from tablelog.rules.cast import Cast
from tablelog.rules.common import Command
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules import flow
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState


def owner(state: NightTerrorsState, name: str) -> str | None:
    try:
        return flow.character(state, name).player
    except TablelogError:
        return None


_WHAT: dict[type[Command], str] = {
    c.CreateCharacter: "create a character for another player",
    c.OpenConflict: "open a conflict for this aggressor",
    c.Raise: "raise for this character",
    c.See: "answer for this character",
    c.Push: "push for this character",
    c.Escalate: "escalate for this character",
    c.Give: "give for this character",
    c.Pay: "pay this character's cost",
    c.Draw: "record this character's draw",
    c.Discard: "discard from this character's hand",
    c.Refresh: "refresh this character's hand",
    c.Narrate: "narrate for this character",
    c.Abandon: "abandon a conflict",
}

CAST = Cast[NightTerrorsState](
    gm=lambda state: state.gm,
    owner=owner,
    characters={
        c.OpenConflict: "aggressor",
        **{
            command: "character"
            for command in (
                c.Raise,
                c.See,
                c.Push,
                c.Escalate,
                c.Give,
                c.Pay,
                c.Draw,
                c.Discard,
                c.Refresh,
                c.Narrate,
            )
        },
    },
    players={c.CreateCharacter: "player"},
    event_characters=("raiser", "answerer", "by", "character_id", "aggressor"),
    gm_only=(c.Abandon,),
    gm_also=(c.CreateCharacter, c.OpenConflict, c.Draw),
    what=_WHAT,
    gm_acts_for="its NPCs",
)
