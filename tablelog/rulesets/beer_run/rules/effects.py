"""Effects and the end of a round: pips off ability dice (the upper hand first), goals reached
at zero, death, ceding, and the end of a conflict."""

from __future__ import annotations

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.names import player_name
from tablelog.rules.text import optional_text
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.dice import capacity, reduce
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Compared, Conflict, Goal, Round


def allocate(state: BeerRunState, cmd: c.Allocate, *, stored: bool = False) -> list[Event]:
    """Pips off the opponent's dice: exactly the kept successes (a die given more pips than it
    has left goes to 0 and the excess is lost). `stored`: re-deciding an allocation already in
    the log (the audit), where one written before overkill was allowed, spending only what
    the opponent's dice could take, is sound too."""
    conflict = flow.open_conflict(state, cmd.conflict)
    rnd = flow.expect_phase(state, conflict, "effects", doing="allocate pips")
    by = flow.character(state, cmd.by)
    against = flow.character(state, cmd.against)
    compared = flow.comparison(rnd, by.key, against.key)
    if compared is None:
        raise RuleViolation(
            f"{by.display} and {against.display} were not compared in round {rnd.number}",
            code="not-compared",
        )
    owed = flow.owed(state, rnd)
    mine = [(cmp, who) for cmp, who in owed if cmp is compared and who == by.key]
    if not mine:
        raise RuleViolation(
            f"{by.display} has no pips to allocate against {against.display} in round {rnd.number}",
            code="nothing-to-allocate",
        )
    first = next(who for cmp, who in owed if cmp is compared)
    if first != by.key:
        upper = state.characters[first].display
        raise RuleViolation(f"{upper} (upper hand) allocates first", code="upper-hand-first")
    if not cmd.pips:
        raise InvalidInput("name the abilities and pips (ABILITY=PIPS)", code="no-pips")
    total = 0
    allocations: list[ev.Allocation] = []
    changes: list[ev.AbilityChanged] = []
    for name, pips in cmd.pips.items():
        key = player_name(name, "ability name")
        ability = against.abilities.get(key)
        if ability is None:
            have = ", ".join(f"{a.display} d{a.size}" for a in against.abilities.values())
            raise RuleViolation(
                f"{against.display} has no ability {name!r}; abilities: {have}",
                code="unknown-ability",
            )
        if any(a.ability == key for a in allocations):
            raise InvalidInput(f"{ability.display} is named twice", code="ability-twice")
        if pips < 1:
            raise InvalidInput(f"pips are whole numbers from 1; {pips} given", code="bad-pips")
        if ability.size == 0:
            raise RuleViolation(
                f"{against.display}'s {ability.display} is already 0", code="already-zero"
            )
        total += pips
        allocations.append(ev.Allocation(target=against.key, ability=key, pips=pips))
    kept = compared.kept(by.key)
    if total != kept and not (stored and _capped(state, compared, by.key, allocations, total)):
        raise RuleViolation(
            f"allocation totals {total} pips but {by.display} kept {kept} successes",
            code="pips-total",
        )
    for allocation in allocations:
        size = against.abilities[allocation.ability].size
        changes.append(
            ev.AbilityChanged(
                character_id=against.key,
                ability=allocation.ability,
                from_=size,
                to=reduce(size, allocation.pips, state.options.pips),
                cause="damage",
                conflict=conflict.key,
            )
        )
    events: list[Event] = [
        ev.DamageAllocated(
            conflict=conflict.key,
            round=rnd.number,
            by=by.key,
            against=against.key,
            allocations=allocations,
        ),
        *changes,
    ]
    zeroed = [change.ability for change in changes if change.to == 0]
    if zeroed:
        events.extend(won_by_side(conflict, rnd, by.key, against.key))
    if state.health in zeroed and not against.dead:
        events.append(ev.CharacterDied(character_id=against.key, conflict=conflict.key))
    return events


def _capped(
    state: BeerRunState,
    compared: Compared,
    by: str,
    allocations: list[ev.Allocation],
    total: int,
) -> bool:
    """An allocation of the rule before overkill: fewer pips than kept successes, exactly
    what the opponent's dice could take, none beyond a die."""
    against = state.characters[compared.opponent(by)]
    return total == flow.capped_pips(state, compared, by) and all(
        a.pips <= capacity(against.abilities[a.ability].size, state.options.pips)
        for a in allocations
    )


def won_by_side(conflict: Conflict, rnd: Round, by: str, target: str) -> list[Event]:
    """A goal is won by its side: when `by`'s pips put any die of `target` to 0, every
    standard goal of this round aimed at `target` by a member of `by`'s side is won (once),
    whichever die the goal named and whichever ally placed the last pip."""
    side = conflict.side_of(by)
    return [
        ev.GoalAchieved(
            conflict=conflict.key,
            round=rnd.number,
            actor=goal.actor,
            goal=goal.text,
            target=target,
        )
        for goal in rnd.goals.values()
        if goal.kind == "standard"
        and goal.target == target
        and not goal.won
        and conflict.side_of(goal.actor) == side
    ]


def settle(state: BeerRunState, conflict: Conflict) -> list[Event]:
    """After effects or a cede (on the state after them): between rounds (or as one begins,
    before any pool is bought) with fewer than two sides still in, the conflict is over."""
    if conflict.status != "open" or flow.phase(state, conflict) not in ("done", "goals"):
        return []
    remaining = flow.sides_in(state, conflict)
    if len(remaining) >= 2:
        return []
    result = f"side {remaining[0]} is the only one still in" if remaining else "no side is still in"
    return end_events(state, conflict, result, remaining)


def end_events(
    state: BeerRunState, conflict: Conflict, result: str, remaining: list[str]
) -> list[Event]:
    events: list[Event] = [
        ev.ConflictEnded(conflict=conflict.key, result=result, remaining=remaining)
    ]
    if state.options.damage == "conflict":  # damage lasts for the conflict only
        for member in (m for ms in conflict.sides.values() for m in ms):
            character = state.characters[member]
            if character.dead:
                continue
            for ability, size in character.before.get(conflict.key, {}).items():
                now = character.abilities[ability].size
                if now != size:
                    events.append(
                        ev.AbilityChanged(
                            character_id=member,
                            ability=ability,
                            from_=now,
                            to=size,
                            cause="heal",
                            conflict=conflict.key,
                        )
                    )
    return events


def cede(state: BeerRunState, cmd: c.Cede) -> list[Event]:
    conflict = flow.conflict(state, cmd.conflict)
    if conflict.status != "open":
        raise RuleViolation(f"cannot cede: conflict {conflict.key} is over", code="conflict-over")
    # After a round, or at the start of the next before any pool is bought (the point of
    # ceding is not to pay for another roll).
    rnd = flow.expect_phase(state, conflict, "done", "goals", doing="cede")
    actor = flow.participant(state, conflict, cmd.actor)
    events: list[Event] = [ev.Ceded(conflict=conflict.key, round=rnd.number, actor=actor.key)]
    zeroed: set[str] = set()
    # The opposition gets its goal, a targeted ability going to 0 included (once, however many
    # goals name it).
    for goal in _goals_against(conflict, actor.key):
        if goal.kind != "standard" or goal.target != actor.key:
            continue
        if (
            state.characters[goal.actor].dead
            or goal.actor in conflict.ceded
            or (goal.actor == actor.key)
        ):
            continue
        if goal.won:
            continue
        events.append(
            ev.GoalAchieved(
                conflict=conflict.key,
                round=rnd.number,
                actor=goal.actor,
                goal=goal.text,
                target=actor.key,
                how="ceded",
            )
        )
        ability = actor.abilities.get(goal.ability) if goal.ability else None
        if ability is not None and ability.size > 0 and ability.name not in zeroed:
            zeroed.add(ability.name)
            events.append(
                ev.AbilityChanged(
                    character_id=actor.key,
                    ability=ability.name,
                    from_=ability.size,
                    to=0,
                    cause="cede",
                    conflict=conflict.key,
                )
            )
            if ability.name == state.health:
                events.append(ev.CharacterDied(character_id=actor.key, conflict=conflict.key))
    return events


def _goals_against(conflict: Conflict, actor: str) -> list[Goal]:
    """The goals a cede concedes: this round's against `actor`; before any are declared in a
    new round, the last round's."""
    rounds = conflict.rounds
    now = [g for g in rounds[-1].goals.values() if g.kind == "standard" and g.target == actor]
    if now or len(rounds) < 2 or rounds[-1].goals:
        return now
    return [g for g in rounds[-2].goals.values() if g.kind == "standard" and g.target == actor]


def end_conflict(state: BeerRunState, cmd: c.EndConflict) -> list[Event]:
    conflict = flow.conflict(state, cmd.conflict)
    if conflict.status != "open":
        raise RuleViolation(f"conflict {conflict.key} is over already", code="conflict-over")
    flow.expect_phase(state, conflict, "done", "goals", doing="end the conflict")
    result = optional_text(cmd.result, "the result") or "ended by the GM"
    return end_events(state, conflict, result, flow.sides_in(state, conflict))
