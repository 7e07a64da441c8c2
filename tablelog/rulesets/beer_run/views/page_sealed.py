"""Beer Run's sealed pools on the web page (option `sealed_plays`, rules/beer_run/sealed.py).

A pool bought sealed is asked for as a plain one (base and extras, as typed), but the page's
script sends only the commitment over both lists (the encoding of `Sealed.parts`, which is
`pool_choice`'s) and keeps them in the browser. Once every pool is in, each owner's page
offers the opening of its own pool, and the GM's page the deadline, then the forfeit. The
rules decide every one of these again when it is sent.
"""

from __future__ import annotations

from tablelog.projections.page import NO_COMMITMENT, Action, Field, Sealed, deadline_actions
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.sealed import sealing_now, still_to_buy, unopened
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Character, Conflict, Round

PARTS = ["base", "extras"]  # the command's fields a pool's commitment covers, in this order


def sealed_buy(
    state: BeerRunState, conflict: Conflict, ch: Character, fields: list[Field], gm: bool
) -> Action | None:
    """The sealed form of buying `ch`'s pool, when the campaign seals it now."""
    if not conflict.rounds or not sealing_now(state, conflict, ch.key):
        return None
    key, number = conflict.key, conflict.current.number
    return Action(
        command=c.AssemblePool,
        title=f"Buy {ch.display}'s pool, sealed",
        fields=fields,
        fixed={"conflict": key, "actor": ch.key, "round": number},
        probe=c.AssemblePool(
            conflict=key, actor=ch.key, base=[], commitment=NO_COMMITMENT, round=number
        ),
        seals=Sealed(conflict=key, round=number, side=ch.key, parts=PARTS),
        conflict=key,
        gm=gm,
    )


def openings(
    state: BeerRunState, conflict: Conflict, mine: list[Character], gm: bool
) -> list[Action]:
    """The opening of each of the viewer's sealed pools, once every pool is in."""
    rnd = _waiting_round(state, conflict)
    if rnd is None:
        return []
    key = conflict.key
    return [
        Action(
            command=c.OpenPool,
            title=f"Open {ch.display}'s sealed pool",
            fixed={"conflict": key, "actor": ch.key},
            opens=Sealed(
                conflict=key,
                round=rnd.number,
                side=ch.key,
                parts=PARTS,
                commitment=rnd.sealed[ch.key],
            ),
            conflict=key,
            gm=gm,
        )
        for ch in mine
        if ch.key in unopened(rnd)
    ]


def gm_rule(state: BeerRunState, conflict: Conflict) -> list[Action]:
    """The GM's deadline for the round's openings, then the forfeit."""
    if not conflict.rounds:
        return []
    rnd = conflict.current
    return deadline_actions(
        conflict.key,
        c.SetPoolDeadline,
        c.ForfeitPool,
        unopened(rnd),
        rnd.deadline is not None,
        who=Field(name="actor", label="character"),
        forfeit_title="Declare a sealed pool forfeit (deadline passed)",
    )


def _waiting_round(state: BeerRunState, conflict: Conflict) -> Round | None:
    if not conflict.rounds or flow.phase(state, conflict) != "pools":
        return None
    rnd = conflict.current
    return None if still_to_buy(rnd) else rnd
