"""Checks at the table: called (dice, DL, modifier), Double or Nothing declared before the
roll, rolled (by tablelog or recorded), and resolved by `checks.outcome`, the one place that
decides them."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.names import player_name
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules import flow
from tablelog.rulesets.ace_of_cards.rules.checks import DIE_SIZES, outcome, rolled
from tablelog.rulesets.ace_of_cards.rules.deck import Shuffle
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Character, Check, Conflict

LIMIT = 99


def _number(value: int, what: str, low: int, high: int = LIMIT) -> int:
    if not low <= value <= high:
        raise InvalidInput(f"{what} is {low} to {high}; {value} given", code="bad-number")
    return value


def double_allowed(state: AceState, who: Character, kind: str, offensive: bool) -> None:
    """Double or Nothing's limits: the command that declares it and the audit check them."""
    if who.cards is None:
        raise RuleViolation(
            f"Double or Nothing is a skill of the Ace of Cards class; {who.display} has no deck",
            code="no-deck",
        )
    flow.class_skill(state, who, "double_or_nothing")
    if kind == "magic" and not offensive:
        raise RuleViolation(
            "double or nothing is not allowed on a defensive Magic Check", code="don-not-allowed"
        )
    if kind == "other":
        raise RuleViolation(
            "double or nothing is declared before an Accuracy Check, an offensive Magic Check "
            "or a Check to advance or reduce a Clock; other given",
            code="don-not-allowed",
        )


def _member(found: Conflict, state: AceState, name: str) -> Character:
    who = flow.character(state, name)
    if who.key not in found.party:
        raise RuleViolation(
            f"{who.display} is not in the party of conflict {found.key}", code="not-in-conflict"
        )
    return who


def _free_attack(who: Character, cmd: c.CallCheck) -> int:
    """The Magic Pair whose free attack this Check is: played by `who`, nothing since."""
    if who.free_attack is None:
        raise RuleViolation(
            f"a free attack follows at once a Magic Pair; {who.display} has none pending",
            code="no-free-attack",
        )
    if cmd.kind != "accuracy":
        raise InvalidInput(
            "a Magic Pair's free attack is an Accuracy Check (a weapon equipped); "
            f"{cmd.kind} given",
            code="free-attack-kind",
        )
    return who.free_attack


def pair_type(found: Conflict, check: Check, damage: int | None) -> str | None:
    """The damage type of a Magic Pair's free attack that dealt damage (else None)."""
    if check.magic_pair is None or not damage or check.magic_pair >= len(found.sets):
        return None
    return found.sets[check.magic_pair].damage_type


def call_check(state: AceState, cmd: c.CallCheck) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    who = _member(found, state, cmd.character)
    key = player_name(cmd.check or f"k{len(found.checks) + 1}", "check id")
    if key in found.checks:
        raise AlreadyExists(f"conflict {found.key} already has check {key}", code="check-exists")
    if len(cmd.dice) != 2 or any(size not in DIE_SIZES for size in cmd.dice):
        raise InvalidInput(
            "a Check rolls two attribute dice, each d6, d8, d10 or d12; "
            f"{', '.join(f'd{d}' for d in cmd.dice) or 'none'} given",
            code="bad-dice",
        )
    _number(cmd.dl, "the DL (or Defense)", 0)
    _number(cmd.modifier, "the modifier", -LIMIT)
    if cmd.damage is not None:
        if cmd.kind not in ("accuracy", "magic"):
            raise InvalidInput(
                f"only an Accuracy or a Magic Check deals damage; {cmd.kind} given",
                code="no-damage",
            )
        _number(cmd.damage, "the fixed damage", 0)
    target = None
    if cmd.target is not None:
        target = player_name(cmd.target, "target")
        if target not in found.enemies:
            raise RuleViolation(
                f"{target} is not an enemy present in conflict {found.key}", code="targets"
            )
    if cmd.offensive and cmd.kind != "magic":
        raise InvalidInput("only a Magic Check is offensive or not", code="not-magic")
    pair = _free_attack(who, cmd) if cmd.free_attack else None
    if cmd.double:
        double_allowed(state, who, cmd.kind, cmd.offensive)
    events: list[Event] = [
        ev.CheckCalled(
            conflict=found.key,
            check_id=key,
            character_id=who.key,
            kind=cmd.kind,
            offensive=cmd.offensive,
            sizes=list(cmd.dice),
            modifier=cmd.modifier,
            dl=cmd.dl,
            damage=cmd.damage,
            target=target,
            magic_pair=pair,
        )
    ]
    if cmd.double:
        events.append(
            ev.DoubleOrNothingDeclared(conflict=found.key, check_id=key, character_id=who.key)
        )
    return events


def declare_double(state: AceState, cmd: c.DeclareDoubleOrNothing) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    check = flow.check(found, cmd.check)
    if check.values is not None:
        raise RuleViolation(
            "double or nothing must be declared before the Check is rolled; "
            f"{check.check_id} was rolled",
            code="don-too-late",
        )
    if check.double:
        raise RuleViolation(
            f"double or nothing is already declared on {check.check_id}", code="don-declared"
        )
    who = state.characters[check.character_id]
    double_allowed(state, who, check.kind, check.offensive)
    return [
        ev.DoubleOrNothingDeclared(
            conflict=found.key, check_id=check.check_id, character_id=who.key
        )
    ]


def _faces(state: AceState, check: Check, given: list[int] | None, shuffle: Shuffle) -> list[int]:
    if state.options.dice == "managed":
        if given is not None:
            raise InvalidInput(
                "the dice are rolled by tablelog (option dice=managed): faces are not given",
                code="managed-dice",
            )
        # A die is the top face of its shuffled faces; the face is stored, never re-rolled.
        return [int(shuffle([str(n) for n in range(1, size + 1)])[0]) for size in check.sizes]
    if given is None or len(given) != 2:
        raise InvalidInput(
            "the dice are recorded from the table (option dice=recorded): give the 2 faces "
            f"rolled; {0 if given is None else len(given)} given",
            code="bad-values",
        )
    for size, face in zip(check.sizes, given, strict=True):
        if not 1 <= face <= size:
            raise InvalidInput(f"a d{size} shows 1 to {size}; {face} given", code="bad-values")
    return list(given)


def may_draw(state: AceState, who: Character) -> bool:
    """Whether a critical success or a fumble opens High or Low for `who`: an Ace that may
    use it (see `flow.uses`)."""
    return who.cards is not None and flow.uses(state, who, "high_or_low")


def roll_check(state: AceState, cmd: c.RollCheck, shuffle: Shuffle) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    check = flow.check(found, cmd.check)
    if check.values is not None:
        raise RuleViolation(f"check {check.check_id} was already rolled", code="check-rolled")
    if cmd.opportunity_on_clock and check.kind != "clock":
        raise InvalidInput(
            f"an opportunity on a Clock needs a Clock Check; {check.check_id} is {check.kind}",
            code="no-opportunity",
        )
    faces = _faces(state, check, cmd.values, shuffle)
    result, crit, fumble = rolled(faces, check.modifier)
    opportunity = cmd.opportunity_on_clock and crit
    if cmd.opportunity_on_clock and not crit and cmd.values is not None:
        raise RuleViolation(
            f"an opportunity comes with a critical success; {faces[0]} and {faces[1]} are none",
            code="no-opportunity",
        )
    decided = outcome(
        kind=check.kind,
        values=faces,
        modifier=check.modifier,
        dl=check.dl,
        damage=check.damage,
        double=check.double,
        don_miss=state.options.don_miss,
        opportunity_on_clock=opportunity,
    )
    common = {"conflict": found.key, "check_id": check.check_id, "character_id": check.character_id}
    who = state.characters[check.character_id]
    kind = pair_type(found, check, decided.damage)
    return [
        ev.CheckRolled(
            **common,
            kind=check.kind,  # type: ignore[arg-type]
            dice=[ev.Die(size=s, value=v) for s, v in zip(check.sizes, faces, strict=True)],
            modifier=check.modifier,
            dl=check.dl,
            result=result,
            crit=crit,
            fumble=fumble,
        ),
        ev.CheckResolved(
            **common,
            success=decided.success,
            doubled=decided.doubled,
            critical_failure=decided.critical_failure,
            damage=decided.damage,
            sections=decided.sections,
            opportunity_on_clock=opportunity,
            high_or_low=decided.high_or_low and may_draw(state, who),
            rule=decided.rule
            + (
                "; no critical, so no opportunity to spend"
                if cmd.opportunity_on_clock and not crit
                else ""
            )
            + (f"; the Magic Pair makes it {kind}" if kind else ""),
            damage_type=kind,
        ),
    ]
