"""What each caller may see of a Beer Run event (the service filters every read with this).

A bought pool (`pool_assembled`: its dice, extras and cost) is its character's player's alone
until that pool is rolled: nobody buys a pool knowing another's. Everything else is public.
The GM is a viewer like any other: its NPCs' pools are hidden from players and the players'
from it.
"""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.rules.table import GM
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Round


def owner(state: BeerRunState, character: str) -> str:
    found = state.characters.get(character)
    if found is None or found.player == state.gm:
        return GM
    return found.player


def pool_hidden(state: BeerRunState, rnd: Round | None, actor: str, viewer: str | None) -> bool:
    """Whether `viewer` may not yet see `actor`'s pool in `rnd` (None: a round gone by)."""
    if viewer is None or rnd is None or actor in rnd.rolls:
        return False
    goal = rnd.goals.get(actor)
    if viewer == GM and state.options.dice == "recorded" and goal and goal.kind != "standard":
        return False  # the GM records this roll and its difficulty pool's, so sees the pool
    return owner(state, actor) != viewer


def _round(state: BeerRunState, conflict: str, number: int) -> Round | None:
    found = state.conflicts.get(conflict)
    if found is None or not found.rounds or found.current.number != number:
        return None
    return found.current


def hidden_fields(event: Event, viewer: str, state: BeerRunState) -> tuple[str, ...]:
    """The fields of `event` that `viewer` may not see, given the state now."""
    if not isinstance(event, ev.PoolAssembled | ev.PoolOpened):
        return ()
    if not pool_hidden(state, _round(state, event.conflict, event.round), event.actor, viewer):
        return ()
    return event.hidden


def hides(state: BeerRunState, viewer: str) -> str | None:
    """Why some of this state is hidden from `viewer` (None: it may see all of it)."""
    for conflict in state.open_conflicts():
        if not conflict.rounds:
            continue
        rnd = conflict.current
        for actor in rnd.pools:
            if pool_hidden(state, rnd, actor, viewer):
                return f"conflict {conflict.key} has pools bought that are not yours"
    return None
