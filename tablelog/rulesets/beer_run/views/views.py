"""Beer Run views: `state --json` (the top-level keys every ruleset shares, then its own) and
`beer-run show --json`.

`viewer` None is the operator's own view (everything); a player key (or `gm`) sees another's
pool only once it is rolled, and that character's Intensity as it was before the hidden pool
was paid for (the cost would tell how many extras it holds).
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.rulesets.beer_run.rules import flow, sealed
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Character, Conflict, Round
from tablelog.rulesets.beer_run.views.visibility import pool_hidden


def _intensity(state: BeerRunState, character: Character, viewer: str | None) -> int:
    hidden_cost = 0
    for conflict in state.open_conflicts():
        if not conflict.rounds:
            continue
        rnd = conflict.current
        pool = rnd.pools.get(character.key)
        if pool is not None and pool_hidden(state, rnd, character.key, viewer):
            hidden_cost += pool.intensity_cost
    return character.intensity + hidden_cost


def character_view(state: BeerRunState, character: Character, viewer: str | None) -> dict[str, Any]:
    return {
        "name": character.display,
        "player": character.player,
        "intensity": _intensity(state, character, viewer),
        "dead": character.dead,
        "static": character.static,
        "abilities": {
            key: {"name": a.display, "category": a.category, "size": a.size}
            for key, a in character.abilities.items()
        },
        "special_dice": [
            {"kind": d.kind, "size": d.size, "uses": d.uses, "source": d.source}
            for d in character.special
        ],
    }


def state_view(state: BeerRunState, viewer: str | None = None) -> dict[str, Any]:
    """Beer Run's own keys of `state --json` (core code puts the shared ones first)."""
    return {
        "categories": list(state.categories.values()),
        "options": msgspec.to_builtins(state.options),
        "characters": {
            key: character_view(state, c, viewer) for key, c in sorted(state.characters.items())
        },
        "conflicts": {key: conflict_summary(state, c) for key, c in state.conflicts.items()},
    }


def conflict_summary(state: BeerRunState, conflict: Conflict) -> dict[str, Any]:
    still = set(flow.active(state, conflict))
    return {
        "status": conflict.status,
        "round": conflict.current.number if conflict.rounds else 0,
        "phase": flow.phase(state, conflict),
        "sides": {
            side: {"members": list(members), "in": [m for m in members if m in still]}
            for side, members in conflict.sides.items()
        },
        "ceded": list(conflict.ceded),
        "achieved": [
            {"actor": actor, "target": target, "goal": goal}
            for actor, target, goal in conflict.achieved
        ],
        # [winner, loser] for every goal reached against a character (whatif compares these).
        "beats": [[actor, target] for actor, target, _goal in conflict.achieved if target],
        "result": conflict.result,
    }


def round_view(state: BeerRunState, rnd: Round, viewer: str | None, live: bool) -> dict[str, Any]:
    pools: dict[str, Any] = {}
    for actor, pool in rnd.pools.items():
        hidden = live and pool_hidden(state, rnd, actor, viewer)
        pools[actor] = {
            "dice": None
            if hidden
            else [
                {"source": d.source, "name": d.name, "size": d.size, "extra": d.extra}
                for d in pool.dice
            ],
            "extras": None if hidden else pool.extras,
            "cost": None if hidden else pool.intensity_cost,
        }
    return {
        "round": rnd.number,
        "goals": {
            actor: {
                "kind": g.kind,
                "text": g.text,
                "target": g.target,
                "ability": g.ability,
                "target_die": g.target_die,
                "beneficiary": g.beneficiary,
            }
            for actor, g in rnd.goals.items()
        },
        "difficulty": {
            actor: {"dice": d.dice, "replaced": d.replaced_count, "target_size": d.target_size}
            for actor, d in rnd.difficulty.items()
        },
        "pools": pools,
        "rolls": {actor: [f.value for f in faces] for actor, faces in rnd.rolls.items()},
        "difficulty_rolls": {
            actor: [f.value for f in faces] for actor, faces in rnd.difficulty_rolls.items()
        },
        "comparisons": [
            {
                **_without(msgspec.to_builtins(c.event), "conflict", "round"),
                "allocated": sorted(c.allocated),
            }
            for c in rnd.compared
        ],
        # Sealed pools (option sealed_plays): each commitment, and who is still to open.
        "sealed": dict(rnd.sealed),
        "unopened": sealed.unopened(rnd),
        "forfeited": list(rnd.forfeited),
        "deadline": rnd.deadline,
    }


def _without(data: Any, *names: str) -> dict[str, Any]:
    assert isinstance(data, dict)
    return {k: v for k, v in data.items() if k not in names}


def show_view(state: BeerRunState, conflict: Conflict, viewer: str | None) -> dict[str, Any]:
    summary = conflict_summary(state, conflict)
    last = len(conflict.rounds) - 1
    live = conflict.status == "open" and bool(conflict.rounds)
    return {
        "conflict": conflict.key,
        **summary,
        "sealed_plays": state.options.sealed_plays,
        # Whose pool is bought sealed in the round under way (the client seals it).
        "sealing": [a for a in conflict.current.goals if sealed.sealing_now(state, conflict, a)]
        if live
        else [],
        "rounds": [
            round_view(state, rnd, viewer, live=i == last and conflict.status == "open")
            for i, rnd in enumerate(conflict.rounds)
        ],
    }


def show(state: BeerRunState, given: str | None, viewer: str | None) -> dict[str, Any]:
    """`show`: the conflict `given` names (None: the only open one)."""
    return show_view(state, flow.conflict(state, given), viewer)
