"""Improv's sealed plays on the web page (option `sealed_plays`, rules/improv/sealed.py).

A sealed play's form asks for the card from a list of canonical codes (so the card the
browser commits to is the one the rules will read at the opening) and carries the round the
seal binds; the page's script sends only the commitment. Once every side has played, each
owner's page offers the opening of its own card (sent from what its browser kept), and the
GM's page offers the deadline and the forfeit of the stated rule for an opening that never
comes. The rules decide every one of these again when it is sent.
"""

from __future__ import annotations

from tablelog.projections.page import NO_COMMITMENT, Action, Field, Sealed, deadline_actions
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.cards import full_deck, pretty
from tablelog.rulesets.improv.rules.sealed import unopened
from tablelog.rulesets.improv.rules.state import GM, Conflict, Round
from tablelog.rulesets.improv.views.views import next_round


def sealed_plays(conflict: Conflict, sides: list[str], owner: str) -> list[Action]:
    """One form per side the viewer plays for: the card is chosen, never sent."""
    key, number = conflict.key, next_round(conflict)
    cards = list(dict.fromkeys(full_deck()))
    found = []
    for side in sides:
        title = "Play a card face down"
        if len(sides) > 1:
            title += f" for {conflict.sides[side].display}"
        found.append(
            Action(
                command=c.PlayCard,
                title=title,
                fields=[
                    Field(
                        name="card",
                        label="card (sealed: only its commitment leaves this browser)",
                        kind="choice",
                        choices=cards,
                        shown=[pretty(card) for card in cards],
                    )
                ],
                fixed={"conflict": key, "side": side, "round": number},
                probe=c.PlayCard(conflict=key, side=side, commitment=NO_COMMITMENT, round=number),
                seals=Sealed(conflict=key, round=number, side=side),
                conflict=key,
                gm=owner == GM,
            )
        )
    return found


def openings(conflict: Conflict, sides: list[str], owner: str) -> list[Action]:
    """The opening of each of `sides`' sealed cards still closed, once every side has
    played (before that the rules refuse it: `open-too-early`)."""
    rnd = _waiting_round(conflict)
    if rnd is None:
        return []
    key = conflict.key
    return [
        Action(
            command=c.OpenCard,
            title=f"Open {conflict.sides[side].display}'s sealed card",
            fixed={"conflict": key, "side": side},
            opens=Sealed(
                conflict=key, round=rnd.number, side=side, commitment=rnd.plays[side].commitment
            ),
            conflict=key,
            gm=owner == GM,
        )
        for side in unopened(rnd)
        if side in sides
    ]


def gm_rule(conflict: Conflict) -> list[Action]:
    """The GM's deadline for the round's openings, then the forfeit."""
    rnd = conflict.current
    if rnd is None or rnd.revealed:
        return []
    return deadline_actions(
        conflict.key,
        c.SetOpeningDeadline,
        c.ForfeitOpening,
        unopened(rnd),
        rnd.deadline is not None,
        who=Field(name="side", label="side"),
        forfeit_title="Declare a side forfeit (deadline passed)",
    )


def _waiting_round(conflict: Conflict) -> Round | None:
    rnd = conflict.current
    if rnd is None or rnd.revealed or conflict.still_to_play(rnd) or not unopened(rnd):
        return None
    return rnd
