"""Beer Run's sealed pools (option `sealed_plays`): a pool bought hidden is stored as a
commitment over its content (rules/sealing.py), opened by its owner once every pool of the
round is in, checked against the commitment, and only then bought (paid, its dice set).

The content committed to is `pool_choice(base, extras)`: `base=` and the base abilities'
names, then `;extras=` and the extras' names, each as given (spaces around a name trimmed),
in the order given, joined by commas (the web page's generic encoding of a choice made of
list fields, `projections/page.py`'s `Sealed`). An opening whose names are no abilities is
refused like any purchase, so no opening that holds holds a comma, semicolon or equals
sign. The side bound in is the character's key. Helping pools stay plain: they are bought
and rolled alone, before anyone else's.

An opening that holds but names a pool the rules refuse (a name mistyped, too little
Intensity left) is taken, and the pool counts as empty (see the forfeit below): a sealed
mistake cannot be mended once the other pools are in, and must not stall the round.

Stated rule for a missing opening, as Improv's: the GM may set a deadline for the round's
openings; once it has passed, the GM may declare an unopened pool forfeit. It counts as an
empty pool, rolled at once: no die, so every pair against it is the padding d1 = 1, and it
pays nothing. Before the deadline, or without one, the forfeit is refused.
"""

from __future__ import annotations

from tablelog.errors import InvalidInput, RuleViolation, TablelogError
from tablelog.events.base import Event
from tablelog.rules import sealing
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.conflict import assemble_pool
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Conflict, Round


def pool_choice(base: list[str], extras: list[str]) -> str:
    """The text a sealed pool's commitment covers (the module's docstring): the names as
    the player gave them, so that any client (the CLI, the web page's script) computes it
    from what it sends without knowing the rules' spelling of a name."""
    return f"base={','.join(n.strip() for n in base)};extras={','.join(n.strip() for n in extras)}"


def parse_choice(choice: str) -> tuple[list[str], list[str]]:
    """`pool_choice`'s text back into base and extras (the audit reads an opening so)."""
    base, _, extras = choice.partition(";extras=")
    if not base.startswith("base="):
        raise ValueError(f"{choice!r} is not a pool's content")
    return [n for n in base[5:].split(",") if n], [n for n in extras.split(",") if n]


def sealing_now(state: BeerRunState, conflict: Conflict, actor: str) -> bool:
    """Whether `actor`'s pool is bought sealed now: the option, in the pools phase (not a
    helping pool, which is rolled alone first)."""
    if not state.options.sealed_plays:
        return False
    goal = conflict.current.goals.get(actor) if conflict.rounds else None
    return goal is None or goal.kind != "helping"


def seal(state: BeerRunState, conflict: Conflict, cmd: c.AssemblePool) -> list[Event]:
    """The sealed form of a pool bought hidden: the commitment, never the dice."""
    actor = flow.participant(state, conflict, cmd.actor)
    flow.expect_phase(state, conflict, "pools", doing="buy a pool")
    rnd = conflict.current
    if actor.key in rnd.pools or actor.key in rnd.sealed:
        raise RuleViolation(
            f"{actor.display} has bought a pool for round {rnd.number} already",
            code="pool-twice",
        )
    if cmd.base or cmd.extras:
        raise InvalidInput(
            "this campaign seals its pools: send the pool's commitment (the CLI makes it), "
            "never its dice, until every pool is in",
            code="sealed-play",
        )
    if cmd.commitment is None:
        raise InvalidInput(
            "this campaign seals its pools: a pool carries its content's commitment",
            code="commitment-required",
        )
    commitment = sealing.parse_commitment(cmd.commitment)
    if cmd.round != rnd.number:
        raise RuleViolation(
            f"the sealed pool was made for round {cmd.round} of {conflict.key}; it goes to "
            f"round {rnd.number}: seal it again",
            code="round-moved",
        )
    return [
        ev.PoolSealed(
            conflict=conflict.key, round=rnd.number, actor=actor.key, commitment=commitment
        )
    ]


def unopened(rnd: Round) -> list[str]:
    """The actors of `rnd` whose sealed pool is neither opened nor forfeit."""
    return [a for a in rnd.sealed if a not in rnd.pools]


def still_to_buy(rnd: Round) -> list[str]:
    """The actors whose pool is neither bought nor sealed (helping pools are bought apart)."""
    return [
        a
        for a, goal in rnd.goals.items()
        if goal.kind != "helping" and a not in rnd.pools and a not in rnd.sealed
    ]


def _sealed_round(state: BeerRunState, given: str | None) -> tuple[Conflict, Round]:
    conflict = flow.open_conflict(state, given)
    rnd = conflict.current if conflict.rounds else None
    if rnd is None or not unopened(rnd):
        raise RuleViolation(
            f"conflict {conflict.key} has no sealed pool waiting to be opened",
            code="nothing-sealed",
        )
    return conflict, rnd


def buy(state: BeerRunState, cmd: c.AssemblePool) -> list[Event]:
    """A pool bought: sealed when the campaign seals this one, else as it is."""
    conflict = flow.open_conflict(state, cmd.conflict)
    actor = flow.participant(state, conflict, cmd.actor)
    if sealing_now(state, conflict, actor.key):
        return seal(state, conflict, cmd)
    if cmd.commitment is not None:
        raise InvalidInput(
            "this pool is not sealed (option sealed_plays, not a helping pool): name its dice",
            code="not-sealed",
        )
    return assemble_pool(state, cmd)


def open_pool(state: BeerRunState, cmd: c.OpenPool) -> list[Event]:
    """Check an opening against its commitment, then buy the pool as a plain purchase
    would; refused until every pool of the round is in (sealed or bought)."""
    conflict, rnd = _sealed_round(state, cmd.conflict)
    actor = flow.participant(state, conflict, cmd.actor)
    if actor.key not in unopened(rnd):
        raise RuleViolation(
            f"{actor.display} has no unopened sealed pool in round {rnd.number}",
            code="nothing-sealed",
        )
    waiting = [state.characters[a].display for a in still_to_buy(rnd)]
    if waiting:
        raise RuleViolation(
            f"pools are opened once every pool is in; still to buy: {', '.join(waiting)}",
            code="open-too-early",
        )
    choice = pool_choice(cmd.base, cmd.extras)
    salt = sealing.parse_salt(cmd.salt)
    sealing.check_opening(
        rnd.sealed[actor.key],
        state.campaign,
        conflict.key,
        rnd.number,
        actor.key,
        choice,
        salt,
        what="pool",
    )
    purchase = c.AssemblePool(
        conflict=conflict.key, actor=actor.key, base=cmd.base, extras=cmd.extras
    )
    try:
        bought = assemble_pool(state, purchase)
    except TablelogError as exc:  # what was sealed is no pool the rules take: an empty one
        return [
            ev.PoolOpened(
                conflict=conflict.key,
                round=rnd.number,
                actor=actor.key,
                choice=choice,
                salt_hex=salt.hex(),
                dice=[],
                extras=0,
                intensity_cost=0,
                refused=str(exc),
            )
        ]
    pool = bought[0]
    assert isinstance(pool, ev.PoolAssembled)
    opened = ev.PoolOpened(
        conflict=conflict.key,
        round=rnd.number,
        actor=actor.key,
        choice=choice,
        salt_hex=salt.hex(),
        dice=pool.dice,
        extras=pool.extras,
        intensity_cost=pool.intensity_cost,
    )
    return [opened, *bought[1:]]


def set_deadline(state: BeerRunState, cmd: c.SetPoolDeadline) -> list[Event]:
    conflict, rnd = _sealed_round(state, cmd.conflict)
    deadline = sealing.deadline_after(cmd.now, cmd.minutes)
    return [ev.PoolDeadlineSet(conflict=conflict.key, round=rnd.number, deadline=deadline)]


def forfeit(state: BeerRunState, cmd: c.ForfeitPool) -> list[Event]:
    conflict, rnd = _sealed_round(state, cmd.conflict)
    actor = flow.character(state, cmd.actor)
    if actor.key not in unopened(rnd):
        raise RuleViolation(
            f"{actor.display} has no unopened sealed pool in round {rnd.number}",
            code="nothing-to-forfeit",
        )
    set_one = f"`tablelog beer-run deadline {conflict.key} MINUTES`"
    sealing.check_deadline_passed(rnd.deadline, cmd.now, rnd.number, set_one)
    assert rnd.deadline is not None
    return [
        ev.PoolForfeited(
            conflict=conflict.key,
            round=rnd.number,
            actor=actor.key,
            deadline=rnd.deadline,
            at=cmd.now,
        )
    ]


def as_bought(event: ev.PoolOpened) -> ev.PoolAssembled:
    """The pool an opening buys, as a plain purchase records it."""
    return ev.PoolAssembled(
        conflict=event.conflict,
        round=event.round,
        actor=event.actor,
        dice=event.dice,
        extras=event.extras,
        intensity_cost=event.intensity_cost,
    )


def evolve_sealed(
    state: BeerRunState,
    rnd: Round,
    event: ev.PoolSealed | ev.PoolOpened | ev.PoolDeadlineSet | ev.PoolForfeited,
) -> None:
    match event:
        case ev.PoolSealed():
            rnd.sealed[event.actor] = event.commitment
        case ev.PoolOpened():
            rnd.pools[event.actor] = as_bought(event)
            if event.refused:  # an empty pool, rolled at once (as a forfeit is)
                rnd.rolls[event.actor] = []
                rnd.forfeited.append(event.actor)
            state.characters[event.actor].intensity -= event.intensity_cost
        case ev.PoolDeadlineSet():
            rnd.deadline = event.deadline
        case ev.PoolForfeited():
            rnd.pools[event.actor] = ev.PoolAssembled(
                conflict=event.conflict,
                round=event.round,
                actor=event.actor,
                dice=[],
                extras=0,
                intensity_cost=0,
            )
            rnd.rolls[event.actor] = []
            rnd.forfeited.append(event.actor)
