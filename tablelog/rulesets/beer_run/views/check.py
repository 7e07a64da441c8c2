"""The audit's verdict for Beer Run: each recorded decision recomputed from the events before it.

A pool's price and dice, a comparison (order, padding, pairs, upper hand, raw and kept
successes), the situation and penalty dice a helping or situational roll earns, an allocation
(its total and its order), a die's new size, a cede, each goal reached and a death are each
decided again by the same rules code, on the state just before the event, with the options
the campaign was created with. Wording and the random salt are not compared.

Logs written by an earlier tablelog stay sound: an allocation that spent only what the
opponent's dice could take (before overkill was allowed), and a zeroing that won only the
allocating character's own goal (before a goal was won by its side), are accepted as stored.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import conflict, effects, flow, rolls, sealed
from tablelog.rulesets.beer_run.rules.dice import reduce
from tablelog.rulesets.beer_run.rules.state import DIFFICULTY, BeerRunState

_NOT_COMPARED = frozenset({"salt", "result", "reason"})


# What may follow an allocation or a cede among the events of the same command.
_FOLLOWING = (ev.AbilityChanged, ev.GoalAchieved, ev.CharacterDied)


class Checker:
    """Walks the log with the audit; remembers the allocation whose dice changes follow it,
    and the goals the allocation or cede just decided wins."""

    def __init__(self) -> None:
        self.allocation: ev.DamageAllocated | None = None
        self.reached: dict[tuple[str, str | None, str], Event] = {}

    def check(self, state: BeerRunState, seq: int, event: Event) -> list[Discrepancy]:
        try:
            expected = self._expected(state, event)
        except TablelogError as exc:
            return [_found(seq, event, "*", "recorded", f"refused by the rules: {exc.message}")]
        except (LookupError, AssertionError, ValueError) as exc:
            return [_found(seq, event, "*", "recorded", f"does not follow: {exc}")]
        if expected is None:
            return []
        return _differences(seq, event, expected)

    def _expected(self, state: BeerRunState, event: Event) -> Event | None:
        if not isinstance(event, _FOLLOWING):
            self.reached = {}
        match event:
            case ev.PoolAssembled():
                base = [d.name for d in event.dice if d.source == "ability" and not d.extra]
                extras = [d.name for d in event.dice if d.source == "ability" and d.extra]
                made = conflict.assemble_pool(
                    state,
                    c.AssemblePool(
                        conflict=event.conflict, actor=event.actor, base=base, extras=extras
                    ),
                )
                return made[0]
            case ev.PoolSealed():
                found = state.conflicts[event.conflict]
                cmd = c.AssemblePool(
                    conflict=event.conflict,
                    actor=event.actor,
                    base=[],
                    commitment=event.commitment,
                    round=event.round,
                )
                return sealed.seal(state, found, cmd)[0]
            case ev.PoolOpened():
                base, extras = sealed.parse_choice(event.choice)
                opening = c.OpenPool(
                    conflict=event.conflict,
                    actor=event.actor,
                    base=base,
                    extras=extras,
                    salt=event.salt_hex,
                )
                return sealed.open_pool(state, opening)[0]
            case ev.PoolDeadlineSet():
                sealed.set_deadline(state, c.SetPoolDeadline(conflict=event.conflict, minutes=0))
                return None  # the minutes asked for are not stored: only that a pool waited
            case ev.PoolForfeited():
                forfeit = c.ForfeitPool(conflict=event.conflict, actor=event.actor, now=event.at)
                return sealed.forfeit(state, forfeit)[0]
            case ev.PoolRolled():
                rnd = state.conflicts[event.conflict].current
                sizes = (
                    rnd.difficulty[event.actor].dice
                    if event.difficulty
                    else [d.size for d in rnd.pools[event.actor].dice]
                )
                shown = [f.size for f in event.results]
                if shown != sizes:
                    return msgspec.structs.replace(
                        event, results=[ev.Face(size=s, value=1) for s in sizes]
                    )
                for face in event.results:
                    if not 1 <= face.value <= face.size:
                        raise ValueError(f"value {face.value} is impossible on a d{face.size}")
                return None
            case ev.RollsCompared():
                found = state.conflicts[event.conflict]
                return rolls.compared(state, found, found.current, event.a, event.b)
            case ev.SituationDieGranted() | ev.PenaltyDieImposed():
                found = state.conflicts[event.conflict]
                actor = event.source if isinstance(event, ev.SituationDieGranted) else None
                for candidate in flow.with_difficulty(found.current):
                    if actor is not None and candidate != actor:
                        continue
                    if flow.comparison(found.current, candidate, DIFFICULTY) is None:
                        continue
                    made = rolls.difficulty_result(state, found, found.current, candidate)
                    for e in made:
                        if type(e) is type(event) and e.character_id == event.character_id:
                            return e
                raise ValueError("no helping or situational roll earns it")
            case ev.DamageAllocated():
                self.allocation = event
                made = effects.allocate(
                    state,
                    c.Allocate(
                        conflict=event.conflict,
                        by=event.by,
                        against=event.against,
                        pips={a.ability: a.pips for a in event.allocations},
                    ),
                    stored=True,
                )
                self._remember(made)
                return made[0]
            case ev.Ceded():
                made = effects.cede(state, c.Cede(conflict=event.conflict, actor=event.actor))
                self._remember(made)
                return made[0]
            case ev.GoalAchieved():
                # Each goal the rules win there, once. (A log written before a goal was won
                # by its side records fewer of them: the audit does not ask for the others.)
                expected = self.reached.pop((event.actor, event.target, event.goal), None)
                if expected is None:
                    raise ValueError(f"no goal of {event.actor} against {event.target} is won here")
                return expected
            case ev.AbilityChanged() if event.cause == "damage":
                return self._damage(state, event)
            case ev.CharacterDied():
                character = state.characters[event.character_id]
                health = character.abilities.get(state.health)
                if health is None or health.size != 0:
                    raise ValueError(f"{event.character_id}'s {state.health} is not 0")
                return None
        return None

    def _remember(self, made: list[Event]) -> None:
        self.reached = {
            (e.actor, e.target, e.goal): e for e in made if isinstance(e, ev.GoalAchieved)
        }

    def _damage(self, state: BeerRunState, event: ev.AbilityChanged) -> Event:
        allocation = self.allocation
        if allocation is None or allocation.against != event.character_id:
            raise ValueError("no allocation puts pips on it")
        pips = next((a.pips for a in allocation.allocations if a.ability == event.ability), None)
        if pips is None:
            raise ValueError(f"the allocation puts no pips on {event.ability}")
        size = state.characters[event.character_id].abilities[event.ability].size
        return msgspec.structs.replace(event, from_=size, to=reduce(size, pips, state.options.pips))


def _differences(seq: int, recorded: Event, expected: Event) -> list[Discrepancy]:
    mine = msgspec.to_builtins(recorded)
    theirs = msgspec.to_builtins(expected)
    assert isinstance(mine, dict)
    assert isinstance(theirs, dict)
    return [
        _found(seq, recorded, name, mine.get(name), theirs.get(name))
        for name in sorted(set(mine) | set(theirs))
        if name not in _NOT_COMPARED and mine.get(name) != theirs.get(name)
    ]


def _found(seq: int, event: Event, field: str, recorded: Any, expected: Any) -> Discrepancy:
    return Discrepancy(
        seq=seq,
        conflict=event.conflict_id(),
        type=event.type_name(),
        field=field,
        recorded=recorded,
        expected=expected,
    )


__all__ = ["DIFFICULTY", "Checker"]
