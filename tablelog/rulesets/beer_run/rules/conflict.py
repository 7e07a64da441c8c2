"""A round's first steps: opening a conflict, goals, difficulty pools, and buying pools."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.names import player_name
from tablelog.rules.text import text_of
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.dice import cost_sum, parse_die, round_cost
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Character, Conflict, Round

MAX_DICE = 100  # per pool: far beyond any Intensity, it keeps a typing error out


def open_conflict(state: BeerRunState, cmd: c.OpenConflict) -> list[Event]:
    key = player_name(cmd.conflict, "conflict id") if cmd.conflict else _next_id(state)
    if key in state.conflicts:
        raise AlreadyExists(f"conflict {key} already exists", code="conflict-exists")
    if len(cmd.sides) < 2:
        raise RuleViolation(
            f"a conflict needs at least 2 sides whose goals cannot both happen; "
            f"{len(cmd.sides)} given",
            code="too-few-sides",
        )
    sides: list[ev.Side] = []
    seen: dict[str, str] = {}
    busy = {m for other in state.open_conflicts() for ms in other.sides.values() for m in ms}
    for side_name, members in cmd.sides.items():
        side = player_name(side_name, "side name")
        if any(s.side_id == side for s in sides):
            raise InvalidInput(f"side {side_name} is given twice", code="side-twice")
        if not members:
            raise InvalidInput(f"side {side_name} has no characters", code="empty-side")
        keys: list[str] = []
        for name in members:
            character = flow.character(state, name)
            if character.dead:
                raise RuleViolation(f"{character.display} is dead", code="dead")
            if character.key in seen:
                raise InvalidInput(
                    f"{character.display} is on side {seen[character.key]} already",
                    code="two-sides",
                )
            if character.key in busy:
                raise RuleViolation(
                    f"{character.display} is already in an open conflict", code="busy"
                )
            seen[character.key] = side
            keys.append(character.key)
        sides.append(ev.Side(side_id=side, members=keys))
    return [ev.ConflictOpened(conflict=key, sides=sides), ev.RoundStarted(conflict=key, round=1)]


def _next_id(state: BeerRunState) -> str:
    n = len(state.conflicts) + 1
    while f"c{n}" in state.conflicts:
        n += 1
    return f"c{n}"


def declare_goal(state: BeerRunState, cmd: c.DeclareGoal) -> list[Event]:
    conflict = flow.open_conflict(state, cmd.conflict)
    now = flow.phase(state, conflict)
    events: list[Event] = []
    number = conflict.current.number
    if now == "done":  # the round is over and nobody ceded: this goal starts the next one
        number += 1
        events.append(ev.RoundStarted(conflict=conflict.key, round=number))
    elif now != "goals":
        flow.expect_phase(state, conflict, "goals", doing="declare a goal")
    actor = flow.participant(state, conflict, cmd.actor)
    if now == "goals" and actor.key in conflict.current.goals:
        raise RuleViolation(
            f"{actor.display} has declared a goal for round {number} already",
            code="goal-twice",
        )
    if not any(a.size for a in actor.abilities.values()) and not actor.special:
        raise RuleViolation(f"{actor.display} has no die left to roll; cede", code="no-dice")
    if not actor.static and actor.intensity < 1:
        raise RuleViolation(
            f"{actor.display} has 0 Intensity and cannot buy a pool (1 Intensity); cede, or "
            "the GM adjusts Intensity",
            code="intensity",
        )
    if not cmd.text.strip():
        raise InvalidInput("a goal needs words: what the character wants", code="empty-goal")
    text = text_of(cmd.text, "a goal")
    own_side = conflict.side_of(actor.key)
    still = flow.active(state, conflict)
    if cmd.kind == "standard":
        if cmd.ally or cmd.die:
            raise InvalidInput(
                "--ally and --die belong to helping and situational goals", code="goal-kind"
            )
        target = _target(state, conflict, actor, cmd.against, still)
        ability = None
        if cmd.ability is not None:
            ability = player_name(cmd.ability, "ability name")
            found = target.abilities.get(ability)
            if found is None or found.size == 0:
                raise RuleViolation(
                    f"{target.display} has no {cmd.ability} die left to reduce",
                    code="no-such-die",
                )
        goal = ev.GoalDeclared(
            conflict=conflict.key,
            round=number,
            actor=actor.key,
            kind="standard",
            text=text,
            target_side=conflict.side_of(target.key),
            target=target.key,
            ability=ability,
        )
    else:
        if cmd.against or cmd.ability:
            raise InvalidInput("--against and --ability belong to standard goals", code="goal-kind")
        if cmd.die is None:
            raise InvalidInput(
                f"a {cmd.kind} goal names the die it seeks (--die dN)", code="goal-die"
            )
        size = parse_die(cmd.die, max_size=state.options.max_die_size)
        beneficiary = actor.key
        if cmd.kind == "helping":
            if cmd.ally is None:
                raise InvalidInput("a helping goal names the ally (--ally)", code="goal-ally")
            ally = flow.character(state, cmd.ally)
            if ally.key == actor.key or conflict.side_of(ally.key) != own_side:
                raise RuleViolation(
                    f"{ally.display} is not an ally of {actor.display} in conflict "
                    f"{conflict.key}; help goes to another character of the same side",
                    code="not-an-ally",
                )
            if ally.key not in still:
                raise RuleViolation(f"{ally.display} is no longer in", code="not-in-conflict")
            beneficiary = ally.key
        elif cmd.ally is not None:
            raise InvalidInput("--ally belongs to helping goals", code="goal-kind")
        goal = ev.GoalDeclared(
            conflict=conflict.key,
            round=number,
            actor=actor.key,
            kind=cmd.kind,
            text=text,
            target_die=size,
            beneficiary=beneficiary,
        )
    events.append(goal)
    return events


def _target(
    state: BeerRunState, conflict: Conflict, actor: Character, name: str | None, still: list[str]
) -> Character:
    own_side = conflict.side_of(actor.key)
    opponents = [m for m in still if conflict.side_of(m) != own_side]
    if name is None:
        if len(opponents) != 1:
            names = ", ".join(state.characters[m].display for m in opponents)
            raise InvalidInput(
                f"{actor.display} has {len(opponents)} opponents ({names}); name one with "
                "--against",
                code="which-target",
            )
        return state.characters[opponents[0]]
    target = flow.character(state, name)
    if target.key not in opponents:
        raise RuleViolation(
            f"{target.display} is not an opponent of {actor.display} still in conflict "
            f"{conflict.key}",
            code="not-an-opponent",
        )
    return target


def set_difficulty(state: BeerRunState, cmd: c.SetDifficulty) -> list[Event]:
    conflict = flow.open_conflict(state, cmd.conflict)
    rnd = flow.expect_phase(
        state, conflict, "goals", "helping", "pools", "rolling", doing="set a difficulty pool"
    )
    actor = flow.participant(state, conflict, cmd.against)
    goal = rnd.goals.get(actor.key)
    if goal is None or goal.kind == "standard":
        raise RuleViolation(
            f"{actor.display} has no helping or situational goal this round; difficulty "
            "pools oppose those",
            code="no-difficulty-goal",
        )
    if actor.key in rnd.rolls:
        raise RuleViolation(f"{actor.display} has rolled already", code="rolled")
    return [difficulty_pool(state, conflict, rnd, actor.key, cmd.dice, cmd.replace)]


def difficulty_pool(
    state: BeerRunState,
    conflict: Conflict,
    rnd: Round,
    actor: str,
    dice: list[str] | None,
    replace: int | None,
) -> ev.DifficultyPoolSet:
    options = state.options
    goal = rnd.goals[actor]
    assert goal.target_die is not None
    sizes = (
        [options.difficulty_die] * options.difficulty_dice
        if dice is None
        else [parse_die(d, max_size=options.max_die_size) for d in dice]
    )
    if not sizes or len(sizes) > MAX_DICE:
        raise InvalidInput(
            f"a difficulty pool holds 1 to {MAX_DICE} dice; {len(sizes)} given", code="pool-size"
        )
    count = min(options.max_replaced, len(sizes)) if replace is None else replace
    if count > options.max_replaced:
        raise RuleViolation(
            f"at most {options.max_replaced} difficulty dice may be replaced; {count} requested",
            code="too-many-replaced",
        )
    if not 0 <= count <= len(sizes):
        raise InvalidInput(
            f"the pool has {len(sizes)} dice; {count} cannot be replaced", code="bad-replace"
        )
    replaced = [goal.target_die] * count + sizes[count:]
    return ev.DifficultyPoolSet(
        conflict=conflict.key,
        round=rnd.number,
        against=actor,
        dice=replaced,
        replaced_count=count,
        target_size=goal.target_die,
    )


def assemble_pool(state: BeerRunState, cmd: c.AssemblePool) -> list[Event]:
    conflict = flow.open_conflict(state, cmd.conflict)
    actor = flow.participant(state, conflict, cmd.actor)
    now = flow.phase(state, conflict)
    rnd = conflict.current
    goal = rnd.goals.get(actor.key)
    helping = goal is not None and goal.kind == "helping"
    if now not in ("helping", "pools") or (now == "helping") != helping:
        if now == "pools" and helping:
            raise RuleViolation(f"{actor.display} has rolled to help already", code="pool-twice")
        flow.expect_phase(state, conflict, "helping" if helping else "pools", doing="buy a pool")
    if actor.key in rnd.pools:
        raise RuleViolation(
            f"{actor.display} has bought a pool for round {rnd.number} already",
            code="pool-twice",
        )
    # Static opposition: the GM's difficulty pool, any of its dice, at no cost.
    dice = _base(state, actor, cmd.base) if not actor.static else []
    used = {d.name for d in dice}
    for name in [*cmd.base, *cmd.extras] if actor.static else cmd.extras:
        ability = _ability(actor, name)
        if ability in used:
            raise RuleViolation(
                f"{actor.abilities[ability].display} is already in {actor.display}'s pool; "
                "each ability die rolls once",
                code="die-twice",
            )
        used.add(ability)
        dice.append(
            ev.Die(
                source="ability",
                name=ability,
                size=actor.abilities[ability].size,
                extra=not actor.static,
            )
        )
    special = [ev.Die(source=d.kind, name=d.source or d.kind, size=d.size) for d in actor.special]
    extras = 0 if actor.static else len(cmd.extras)
    paid_extras = extras + (
        sum(1 for d in special if d.source == "situation")
        if state.options.situation_die_cost == "extra"
        else 0
    )
    cost = 0 if actor.static else round_cost(paid_extras)
    if cost > actor.intensity:
        raise RuleViolation(
            f"{paid_extras} extra dice cost {cost_sum(paid_extras)}, round total {cost} "
            f"Intensity; {actor.display} has {actor.intensity}",
            code="intensity",
        )
    if not dice and not special:
        raise RuleViolation(f"{actor.display} has no die left to roll", code="no-dice")
    if len(dice) + len(special) > MAX_DICE:
        raise InvalidInput(f"a pool holds at most {MAX_DICE} dice", code="pool-size")
    events: list[Event] = [
        ev.PoolAssembled(
            conflict=conflict.key,
            round=rnd.number,
            actor=actor.key,
            dice=dice + special,
            extras=extras,
            intensity_cost=cost,
        )
    ]
    for die in actor.special:  # every special die joins the roll: one use each
        events.append(
            ev.SpecialDieUsed(
                conflict=conflict.key,
                round=rnd.number,
                character_id=actor.key,
                kind=die.kind,
                size=die.size,
                source=die.source,
                uses_left=die.uses - 1,
            )
        )
    return events


def _ability(actor: Character, name: str) -> str:
    key = player_name(name, "ability name")
    found = actor.abilities.get(key)
    if found is None:
        have = ", ".join(f"{a.display} d{a.size}" for a in actor.abilities.values())
        raise RuleViolation(
            f"{actor.display} has no ability {name!r}; abilities: {have}", code="unknown-ability"
        )
    if found.size == 0:
        raise RuleViolation(
            f"{actor.display}'s {found.display} is at 0 and cannot be rolled", code="zero-die"
        )
    return key


def _base(state: BeerRunState, actor: Character, names: list[str]) -> list[ev.Die]:
    """One die from each category the actor has a die in (a category with none is missing)."""
    dice: list[ev.Die] = []
    by_category: dict[str, str] = {}
    for name in names:
        key = _ability(actor, name)
        ability = actor.abilities[key]
        category = state.categories.get(ability.category, ability.category)
        if ability.category in by_category:
            raise RuleViolation(
                f"base pool holds one die per category; {category} appears twice "
                f"({by_category[ability.category]} and {ability.display})",
                code="base-category-twice",
            )
        by_category[ability.category] = ability.display
        dice.append(ev.Die(source="ability", name=key, size=ability.size))
    for category, spelling in state.categories.items():
        rollable = [a for a in actor.abilities.values() if a.category == category and a.size]
        if rollable and category not in by_category:
            raise RuleViolation(
                f"base pool holds one die from each category; {actor.display} has no "
                f"{spelling} die in it (has {', '.join(a.display for a in rollable)})",
                code="base-category-missing",
            )
    return dice
