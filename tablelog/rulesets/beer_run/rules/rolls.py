"""Rolling pools and comparing them: the helping rolls first, then everyone else at once.

Managed dice are rolled here with the campaign's shuffle (a die is the top face of its
shuffled faces) and stored; recorded dice are checked against their sizes. A penalty die is
rolled with its character's pool but counts for the pool opposing that character.
"""

from __future__ import annotations

from collections.abc import Callable

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.conflict import difficulty_pool
from tablelog.rulesets.beer_run.rules.dice import compare
from tablelog.rulesets.beer_run.rules.state import DIFFICULTY, BeerRunState, Conflict, Round

Shuffle = Callable[[list[str]], list[str]]


def roll_die(size: int, shuffle: Shuffle) -> int:
    return int(shuffle([str(face) for face in range(1, size + 1)])[0])


def roll(state: BeerRunState, cmd: c.Roll, shuffle: Shuffle) -> list[Event]:
    conflict = flow.open_conflict(state, cmd.conflict)
    rnd = flow.expect_phase(state, conflict, "helping", "rolling", doing="roll")
    now = flow.phase(state, conflict)
    recorded = state.options.dice == "recorded"
    if cmd.actor is None:
        if recorded:
            raise InvalidInput(
                "recorded dice: roll one pool at a time, with its faces (roll CONFLICT ACTOR "
                "VALUES...)",
                code="roll-who",
            )
        actors = _ready(state, rnd, now)
        if not actors:
            raise RuleViolation(
                f"no pool is ready to roll in conflict {conflict.key}", code="nothing-to-roll"
            )
    else:
        actor = flow.participant(state, conflict, cmd.actor)
        if actor.key not in _ready(state, rnd, now):
            raise RuleViolation(_why_not(state, rnd, actor.key, now), code="cannot-roll")
        actors = [actor.key]
    if recorded and cmd.values is None:
        raise InvalidInput(
            "this campaign records dice from the table: give the faces rolled", code="no-values"
        )
    if not recorded and (cmd.values is not None or cmd.difficulty is not None):
        raise InvalidInput(
            "this campaign's dice are rolled by tablelog (option dice=managed); give no faces",
            code="values-given",
        )
    for key in actors:  # before any face is read: a refusal here tells nothing of a pool
        needs = rnd.goals[key].kind != "standard"
        if cmd.difficulty is not None and not needs:
            raise InvalidInput(
                f"{state.characters[key].display} has a standard goal: no difficulty pool "
                "opposes it",
                code="values-given",
            )
        if recorded and needs and cmd.difficulty is None:
            raise InvalidInput(
                f"{state.characters[key].display} rolls against a difficulty pool: record "
                "its faces too (--difficulty, the GM's)",
                code="no-values",
            )
    events: list[Event] = []
    for key in actors:
        pool = rnd.pools[key]
        sizes = [d.size for d in pool.dice]
        faces = _faces(state, key, sizes, cmd.values, shuffle)
        events.append(
            ev.PoolRolled(
                conflict=conflict.key,
                round=rnd.number,
                actor=key,
                results=faces,
                generated=not recorded,
            )
        )
        goal = rnd.goals[key]
        if goal.kind != "standard":
            difficulty = rnd.difficulty.get(key)
            if difficulty is None:
                difficulty = difficulty_pool(state, conflict, rnd, key, None, None)
                events.append(difficulty)
            events.append(
                ev.PoolRolled(
                    conflict=conflict.key,
                    round=rnd.number,
                    actor=key,
                    difficulty=True,
                    results=_faces(
                        state,
                        f"the difficulty pool against {key}",
                        difficulty.dice,
                        cmd.difficulty,
                        shuffle,
                    ),
                    generated=not recorded,
                )
            )
    return events


def _ready(state: BeerRunState, rnd: Round, now: str) -> list[str]:
    helping = flow.helpers(rnd)
    if now == "helping":
        return [a for a in helping if a in rnd.pools and a not in rnd.rolls]
    return [a for a in rnd.goals if a not in helping and a in rnd.pools and a not in rnd.rolls]


def _why_not(state: BeerRunState, rnd: Round, actor: str, now: str) -> str:
    name = state.characters[actor].display
    if actor in rnd.rolls:
        return f"{name} has rolled for round {rnd.number} already"
    if actor not in rnd.pools:
        return f"{name} has no pool for round {rnd.number} yet"
    return f"{name} rolls after the helping pools of round {rnd.number} are rolled"


def _faces(
    state: BeerRunState, whose: str, sizes: list[int], values: list[int] | None, shuffle: Shuffle
) -> list[ev.Face]:
    if values is None:
        return [ev.Face(size=s, value=roll_die(s, shuffle)) for s in sizes]
    name = state.characters[whose].display if whose in state.characters else whose
    if len(values) != len(sizes):
        raise InvalidInput(
            f"{name}'s pool has {len(sizes)} dice; {len(values)} values given, one per die "
            "in the pool's order",
            code="values-count",
        )
    for size, value in zip(sizes, values, strict=True):
        if not 1 <= value <= size:
            raise RuleViolation(f"value {value} is impossible on a d{size}", code="bad-value")
    return [ev.Face(size=s, value=v) for s, v in zip(sizes, values, strict=True)]


def resolve(state: BeerRunState, conflict: Conflict) -> list[Event]:
    """What the rolls just stored decide (called on the state after them): helping goals as
    soon as their helper has rolled, everything else once every pool is rolled."""
    rnd = conflict.current
    events: list[Event] = []
    now = flow.phase(state, conflict)
    for actor in flow.with_difficulty(rnd):
        helping = rnd.goals[actor].kind == "helping"
        if actor not in rnd.rolls or flow.comparison(rnd, actor, DIFFICULTY) is not None:
            continue
        if not helping and now != "rolling":
            continue
        if not helping and not _all_rolled(rnd):
            continue
        events.extend(difficulty_result(state, conflict, rnd, actor))
    if now == "rolling" and _all_rolled(rnd):
        for a, b in flow.pairs(rnd):
            if flow.comparison(rnd, a, b) is None:
                events.append(compared(state, conflict, rnd, a, b))
    return events


def _all_rolled(rnd: Round) -> bool:
    return all(a in rnd.rolls for a in rnd.goals)


def values_of(rnd: Round, actor: str, *, penalty: bool) -> list[int]:
    """An actor's faces without its penalty dice (`penalty` False), or those only (True)."""
    pool = rnd.pools[actor]
    return [
        face.value
        for die, face in zip(pool.dice, rnd.rolls[actor], strict=True)
        if (die.source == "penalty") == penalty
    ]


def compared(
    state: BeerRunState, conflict: Conflict, rnd: Round, a: str, b: str
) -> ev.RollsCompared:
    if b == DIFFICULTY:
        a_values = values_of(rnd, a, penalty=False)
        b_values = [f.value for f in rnd.difficulty_rolls[a]] + values_of(rnd, a, penalty=True)
    else:
        a_values = values_of(rnd, a, penalty=False) + values_of(rnd, b, penalty=True)
        b_values = values_of(rnd, b, penalty=False) + values_of(rnd, a, penalty=True)
    result = compare(a_values, b_values)
    side = {"a": a, "b": b}
    return ev.RollsCompared(
        conflict=conflict.key,
        round=rnd.number,
        a=a,
        b=b,
        a_values=result.a_values,
        b_values=result.b_values,
        pairs=[
            ev.Pair(a=x, b=y, winner=w)  # type: ignore[arg-type]
            for x, y, w in zip(result.a_values, result.b_values, result.winners, strict=True)
        ],
        upper_hand=side[result.upper_hand] if result.upper_hand else None,
        raw={a: result.raw_a, b: result.raw_b},
        kept={a: result.kept_a, b: result.kept_b},
    )


def difficulty_result(
    state: BeerRunState, conflict: Conflict, rnd: Round, actor: str
) -> list[Event]:
    result = compared(state, conflict, rnd, actor, DIFFICULTY)
    goal = rnd.goals[actor]
    assert goal.target_die is not None
    assert goal.beneficiary is not None
    events: list[Event] = [result]
    successes = result.kept[actor]
    failures = (
        result.kept[DIFFICULTY] if state.options.help_failures == "kept" else result.raw[DIFFICULTY]
    )
    if successes:
        events.append(
            ev.SituationDieGranted(
                conflict=conflict.key,
                round=rnd.number,
                character_id=goal.beneficiary,
                size=goal.target_die,
                uses=successes,
                source=actor,
            )
        )
    if failures:
        sufferer = (
            goal.beneficiary
            if goal.kind == "helping" and state.options.penalty_to == "beneficiary"
            else actor
        )
        events.append(
            ev.PenaltyDieImposed(
                conflict=conflict.key,
                round=rnd.number,
                character_id=sufferer,
                size=goal.target_die,
                uses=failures,
            )
        )
    return events
