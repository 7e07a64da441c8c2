"""A stand-in `awaiting` for Improv, for the page's tests: the page is built against the
contract (`RulesetViews.awaiting`), not against any ruleset's own reading of its state, so
these tests fix what the table waits on themselves (the same as the page's "Not acted yet"):
each side still to play in the round, then the GM's reveal; and, as an option, a side with
a victory card may give it."""

from __future__ import annotations

import dataclasses

from tablelog.projections import registry
from tablelog.projections.await_step import Await
from tablelog.rulesets.improv.rules.state import GM, ImprovState, Round


def improv_awaiting(state: ImprovState) -> list[Await]:
    found: list[Await] = []
    for conflict in state.open_conflicts():
        if not conflict.sides:
            continue
        last = conflict.rounds[-1] if conflict.rounds else None
        if last is not None and last.revealed:
            if conflict.kind == "simple" or last.number >= conflict.planned_rounds:
                continue
            last = None  # the next round, begun by its first card
        playing = last if last is not None else Round(number=len(conflict.rounds) + 1)
        to_play = conflict.still_to_play(playing)
        for side in to_play:
            seat = GM if side.gm else str(side.player)
            found.append(
                Await(
                    player=seat,
                    character=side.display,
                    what="play a card face down",
                    conflict=conflict.key,
                )
            )
        if not to_play:
            found.append(Await(player=GM, what="reveal the round", conflict=conflict.key))
        for side in conflict.sides.values():
            if side.victory and not side.gm:
                found.append(
                    Await(
                        player=str(side.player),
                        character=side.display,
                        what="give a victory card",
                        conflict=conflict.key,
                        optional=True,
                    )
                )
    return found


def stand_in() -> None:
    """Make Improv's views say `improv_awaiting` in this process."""
    views = registry.views_for("improv")
    registry._LOADED["improv"] = dataclasses.replace(views, awaiting=improv_awaiting)
