"""Where a Beer Run round stands, and finding what a command names.

A round moves through phases: `goals` (every character still in declares one), `helping`
(helping goals are bought and rolled against their difficulty pools before anything else),
`pools` (everyone else buys a pool, hidden until all are in), `rolling`, `effects` (pips
allocated, the upper hand first) and `done` (anyone may cede; the next goal starts a new
round). The phase is derived from the round's events, never stored.
"""

from __future__ import annotations

from tablelog.errors import NotFound, RuleViolation
from tablelog.rules.names import player_name
from tablelog.rulesets.beer_run.rules.dice import capacity
from tablelog.rulesets.beer_run.rules.state import (
    DIFFICULTY,
    BeerRunState,
    Character,
    Compared,
    Conflict,
    Phase,
    Round,
)


def character(state: BeerRunState, name: str) -> Character:
    key = player_name(name, "character name")
    found = state.characters.get(key)
    if found is None:
        known = ", ".join(c.display for c in state.characters.values()) or "none yet"
        raise NotFound(
            f"there is no character {name!r} in campaign {state.campaign}; characters: {known}",
            code="unknown-character",
        )
    return found


def conflict(state: BeerRunState, key: str | None) -> Conflict:
    if key is None:
        open_ = state.open_conflicts()
        if len(open_) != 1:
            raise RuleViolation(
                f"{len(open_)} conflicts are open; name one"
                + (f" ({', '.join(c.key for c in open_)})" if open_ else ""),
                code="which-conflict",
            )
        return open_[0]
    found = state.conflicts.get(key.strip().lower())
    if found is None:
        raise NotFound(f"there is no conflict {key!r}", code="unknown-conflict")
    return found


def open_conflict(state: BeerRunState, key: str | None) -> Conflict:
    found = conflict(state, key)
    if found.status != "open":
        raise RuleViolation(f"conflict {found.key} is over", code="conflict-over")
    return found


def active(state: BeerRunState, conflict: Conflict) -> list[str]:
    """The characters still in: neither dead nor ceded, in side order."""
    return [
        m
        for members in conflict.sides.values()
        for m in members
        if not state.characters[m].dead and m not in conflict.ceded
    ]


def sides_in(state: BeerRunState, conflict: Conflict) -> list[str]:
    still = set(active(state, conflict))
    return [side for side, members in conflict.sides.items() if still & set(members)]


def participant(state: BeerRunState, conflict: Conflict, name: str) -> Character:
    found = character(state, name)
    if conflict.side_of(found.key) is None:
        raise RuleViolation(
            f"{found.display} is not in conflict {conflict.key}", code="not-in-conflict"
        )
    if found.dead:
        raise RuleViolation(f"{found.display} is dead", code="dead")
    if found.key in conflict.ceded:
        raise RuleViolation(f"{found.display} has ceded conflict {conflict.key}", code="ceded")
    return found


def helpers(rnd: Round) -> list[str]:
    return [a for a, g in rnd.goals.items() if g.kind == "helping"]


def with_difficulty(rnd: Round) -> list[str]:
    return [a for a, g in rnd.goals.items() if g.kind != "standard"]


def pairs(rnd: Round) -> list[tuple[str, str]]:
    """The character-against-character comparisons of a round: one per standard goal's actor
    and target, a mutual pair once, in the order the goals were declared."""
    found: list[tuple[str, str]] = []
    for goal in rnd.goals.values():
        if goal.kind != "standard" or goal.target is None:
            continue
        if (goal.actor, goal.target) not in found and (goal.target, goal.actor) not in found:
            found.append((goal.actor, goal.target))
    return found


def comparison(rnd: Round, a: str, b: str) -> Compared | None:
    for compared in rnd.compared:
        if {compared.event.a, compared.event.b} == {a, b}:
            return compared
    return None


def required_pips(state: BeerRunState, compared: Compared, who: str) -> int:
    """The pips `who` must allocate: all its kept successes (more pips than a die has left put
    it to 0, the excess is lost), or none when every die of the opponent is at 0 already."""
    opponent = state.characters[compared.opponent(who)]
    if not any(a.size for a in opponent.abilities.values()):
        return 0
    return compared.kept(who)


def capped_pips(state: BeerRunState, compared: Compared, who: str) -> int:
    """What `required_pips` was before overkill was allowed: the kept successes, as far as
    the opponent's dice could take them. Allocations stored then are still sound."""
    opponent = state.characters[compared.opponent(who)]
    room = sum(capacity(a.size, state.options.pips) for a in opponent.abilities.values())
    return min(compared.kept(who), room)


def owed(state: BeerRunState, rnd: Round) -> list[tuple[Compared, str]]:
    """The allocations a round still waits for, in the order they must come: per comparison,
    the upper hand first. A character who died in these effects still allocates unless
    option dead_allocate is off."""
    waiting: list[tuple[Compared, str]] = []
    for compared in rnd.compared:
        if DIFFICULTY in (compared.event.a, compared.event.b):
            continue
        order = [compared.event.a, compared.event.b]
        if compared.event.upper_hand == compared.event.b:
            order.reverse()
        for who in order:
            if who in compared.allocated:
                continue
            if state.characters[who].dead and not state.options.dead_allocate:
                continue
            if required_pips(state, compared, who) > 0:
                waiting.append((compared, who))
    return waiting


def phase(state: BeerRunState, conflict: Conflict) -> Phase:
    if conflict.status != "open" or not conflict.rounds:
        return "done"
    rnd = conflict.current
    if any(m not in rnd.goals for m in active(state, conflict)):
        return "goals"
    helping = helpers(rnd)
    if any(comparison(rnd, a, DIFFICULTY) is None for a in helping):
        return "helping"
    others = [a for a in rnd.goals if a not in helping]
    if any(a not in rnd.pools for a in others):
        return "pools"
    if any(a not in rnd.rolls for a in others) or not _compared_all(rnd):
        return "rolling"
    if owed(state, rnd):
        return "effects"
    return "done"


def _compared_all(rnd: Round) -> bool:
    wanted = [*pairs(rnd), *((a, DIFFICULTY) for a in with_difficulty(rnd) if a in rnd.pools)]
    return all(comparison(rnd, a, b) is not None for a, b in wanted)


def expect_phase(state: BeerRunState, conflict: Conflict, *allowed: Phase, doing: str) -> Round:
    now = phase(state, conflict)
    if now not in allowed:
        raise RuleViolation(
            f"cannot {doing} now: conflict {conflict.key} round {conflict.current.number} is "
            f"at {_PHASE_WORDS[now]}",
            code="wrong-phase",
        )
    return conflict.current


_PHASE_WORDS: dict[Phase, str] = {
    "goals": "goals (every character still in declares one first)",
    "helping": "helping (helping pools are bought and rolled before the others)",
    "pools": "pools (every pool is bought before any is rolled)",
    "rolling": "rolling (every pool is rolled before effects)",
    "effects": "effects (kept successes are allocated, the upper hand first)",
    "done": "its end (cede, end the conflict, or declare a goal for a new round)",
}


def phase_words(now: Phase) -> str:
    return _PHASE_WORDS[now]
