"""evolve(state, event): the only place a Beer Run state changes, one event at a time.

Recorded decisions (successes, new die sizes, goals reached, deaths) are applied as stored:
the audit, not the fold, recomputes them. The match ends in `assert_never`.
"""

from __future__ import annotations

from typing import assert_never

from tablelog.events.core import AccessReissued, CampaignCreated
from tablelog.rules.names import player_name
from tablelog.rules.options import from_recorded
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import sealed
from tablelog.rulesets.beer_run.rules.options import BeerRunOptions
from tablelog.rulesets.beer_run.rules.state import (
    AbilityDie,
    BeerRunState,
    Character,
    Compared,
    Conflict,
    Goal,
    Round,
    SpecialDie,
)

BeerRunEvent = (
    ev.PlayerJoined
    | ev.CharacterCreated
    | ev.AbilityChanged
    | ev.IntensityAdjusted
    | ev.OutcomeDieAwarded
    | ev.SessionStarted
    | ev.SessionEnded
    | ev.SceneStarted
    | ev.SceneEnded
    | ev.ConflictOpened
    | ev.RoundStarted
    | ev.GoalDeclared
    | ev.DifficultyPoolSet
    | ev.PoolAssembled
    | ev.PoolSealed
    | ev.PoolOpened
    | ev.PoolDeadlineSet
    | ev.PoolForfeited
    | ev.PoolRolled
    | ev.RollsCompared
    | ev.SpecialDieUsed
    | ev.SituationDieGranted
    | ev.PenaltyDieImposed
    | ev.DamageAllocated
    | ev.GoalAchieved
    | ev.CharacterDied
    | ev.Ceded
    | ev.ConflictEnded
    | AccessReissued
)


def initial(created: CampaignCreated) -> BeerRunState:
    options = from_recorded(BeerRunOptions, created.options)
    categories = {}
    for name in options.categories.split(","):
        categories[player_name(name, "category")] = name.strip()
    return BeerRunState(
        campaign=created.campaign,
        gm=created.gm,
        options=options,
        categories=categories,
        health=player_name(options.health, "ability"),
        players={created.gm: created.gm},
    )


def evolve(state: BeerRunState, event: BeerRunEvent) -> BeerRunState:
    match event:
        case ev.PlayerJoined():
            state.players[event.player] = event.display
        case ev.CharacterCreated():
            state.characters[event.character_id] = Character(
                key=event.character_id,
                display=event.display,
                player=event.player,
                abilities={
                    a.name: AbilityDie(a.name, a.display, a.category, a.size)
                    for a in event.abilities
                },
                intensity=event.intensity,
                static=event.static,
            )
        case ev.AbilityChanged():
            character = state.characters[event.character_id]
            found = character.abilities.get(event.ability)
            if found is None:
                if event.category is None:
                    raise LookupError(f"ability {event.ability} of {event.character_id}")
                found = character.abilities[event.ability] = AbilityDie(
                    event.ability, event.display or event.ability, event.category, 0
                )
            if found.size != event.from_:
                raise ValueError(f"{event.ability} is d{found.size}, not d{event.from_}")
            if event.cause in ("damage", "cede") and event.conflict is not None:
                character.before.setdefault(event.conflict, {}).setdefault(
                    event.ability, found.size
                )
            elif event.cause in ("heal", "gm"):  # a GM's size stands, damage=conflict or not
                _settled(character, event.ability)
            found.size = event.to
        case ev.IntensityAdjusted():
            state.characters[event.character_id].intensity += event.delta
        case ev.OutcomeDieAwarded():
            character = state.characters[event.character_id]
            character.abilities[event.ability] = AbilityDie(
                event.ability, event.display, event.category, event.size
            )
            _settled(character, event.ability)  # an outcome die is permanent
        case ev.SessionStarted():
            state.session, state.session_open = event.session, True
        case ev.SessionEnded():
            state.session_open = False
        case ev.SceneStarted():
            state.scene, state.scene_open = event.scene, True
        case ev.SceneEnded():
            state.scene_open = False
        case ev.ConflictOpened():
            state.conflicts[event.conflict] = Conflict(
                key=event.conflict, sides={s.side_id: list(s.members) for s in event.sides}
            )
        case ev.RoundStarted():
            state.conflicts[event.conflict].rounds.append(Round(number=event.round))
        case ev.GoalDeclared():
            rnd = _round(state, event.conflict, event.round)
            rnd.goals[event.actor] = Goal(
                actor=event.actor,
                kind=event.kind,
                text=event.text,
                target_side=event.target_side,
                target=event.target,
                ability=event.ability,
                target_die=event.target_die,
                beneficiary=event.beneficiary,
            )
        case ev.DifficultyPoolSet():
            _round(state, event.conflict, event.round).difficulty[event.against] = event
        case ev.PoolAssembled():
            _round(state, event.conflict, event.round).pools[event.actor] = event
            state.characters[event.actor].intensity -= event.intensity_cost
        case ev.PoolSealed() | ev.PoolOpened() | ev.PoolDeadlineSet() | ev.PoolForfeited():
            sealed.evolve_sealed(state, _round(state, event.conflict, event.round), event)
        case ev.PoolRolled():
            rnd = _round(state, event.conflict, event.round)
            (rnd.difficulty_rolls if event.difficulty else rnd.rolls)[event.actor] = list(
                event.results
            )
        case ev.RollsCompared():
            _round(state, event.conflict, event.round).compared.append(Compared(event))
        case ev.SpecialDieUsed():
            character = state.characters[event.character_id]
            # Dice alike in kind, size, source and uses are interchangeable: take the first.
            die = next(
                d
                for d in character.special
                if (d.kind, d.size, d.source, d.uses)
                == (event.kind, event.size, event.source, event.uses_left + 1)
            )
            die.uses = event.uses_left
            character.special = [d for d in character.special if d.uses > 0]
        case ev.SituationDieGranted():
            state.characters[event.character_id].special.append(
                SpecialDie("situation", event.size, event.uses, event.source)
            )
        case ev.PenaltyDieImposed():
            state.characters[event.character_id].special.append(
                SpecialDie("penalty", event.size, event.uses)
            )
        case ev.DamageAllocated():
            rnd = _round(state, event.conflict, event.round)
            compared = next(
                c for c in rnd.compared if {c.event.a, c.event.b} == {event.by, event.against}
            )
            compared.allocated.add(event.by)
        case ev.GoalAchieved():
            conflict = state.conflicts[event.conflict]
            conflict.achieved.append((event.actor, event.target, event.goal))
            # This round's goal, or (a cede as the next round begins) the last round's.
            for rnd in reversed(conflict.rounds[-2:]):
                goal = rnd.goals.get(event.actor)
                if goal is not None and (goal.text, goal.target) == (event.goal, event.target):
                    goal.won = True
                    break
        case ev.CharacterDied():
            state.characters[event.character_id].dead = True
        case ev.Ceded():
            conflict = state.conflicts[event.conflict]
            conflict.ceded.append(event.actor)
            rnd = conflict.current
            if not rnd.pools:  # ceded as a round began: goals with or against it are void
                rnd.goals = {k: g for k, g in rnd.goals.items() if event.actor not in (k, g.target)}
        case ev.ConflictEnded():
            conflict = state.conflicts[event.conflict]
            conflict.status, conflict.result = "ended", event.result
        case AccessReissued():
            pass  # a core event: who holds a token is no part of the table
        case _:
            assert_never(event)
    return state


def _settled(character: Character, ability: str) -> None:
    """The ability's size is no longer damage to undo when a conflict ends."""
    for sizes in character.before.values():
        sizes.pop(ability, None)


def _round(state: BeerRunState, conflict: str, number: int) -> Round:
    rnd = state.conflicts[conflict].current
    if rnd.number != number:
        raise ValueError(f"round {number} is not conflict {conflict}'s current round")
    return rnd
