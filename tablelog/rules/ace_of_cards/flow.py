"""Finding what a command names: a character, an Ace in a conflict, a conflict, a check."""

from __future__ import annotations

from tablelog.errors import NotFound, RuleViolation
from tablelog.rules.ace_of_cards.state import AceState, Character, Check, Conflict, Pile
from tablelog.rules.names import player_name


def character(state: AceState, name: str) -> Character:
    key = player_name(name, "character name")
    found = state.characters.get(key)
    if found is None:
        raise NotFound(f"there is no character {name.strip()!r}", code="unknown-character")
    return found


def conflict(state: AceState, given: str | None) -> Conflict:
    """The conflict `given` names, or the only open one."""
    if given is None:
        open_ = state.open_conflicts()
        if len(open_) != 1:
            raise NotFound(f"{len(open_)} conflicts are open; name one", code="no-conflict")
        return open_[0]
    found = state.conflicts.get(given.strip().lower())
    if found is None:
        raise NotFound(f"there is no conflict {given.strip()!r}", code="unknown-conflict")
    return found


def open_conflict(state: AceState, given: str | None) -> Conflict:
    found = conflict(state, given)
    if found.status != "open":
        raise RuleViolation(f"conflict {found.key} has ended", code="conflict-ended")
    return found


def ace(state: AceState, given: str | None, name: str) -> tuple[Conflict, Character, Pile]:
    """An Ace of the open conflict with its cards (deck, hand and discard pile)."""
    who = character(state, name)
    if who.cards is None:
        raise RuleViolation(
            f"{who.display} has no deck: Ace of Cards skills need the class (`deck`)",
            code="no-deck",
        )
    if who.conflict is None or who.pile is None:
        raise RuleViolation(
            f"deck, hand and discard exist only during a conflict; {who.display} is in none",
            code="not-in-conflict",
        )
    # Without a conflict named, the Ace's own (it is in one at a time).
    found = open_conflict(state, who.conflict if given is None else given)
    if who.conflict != found.key:
        raise RuleViolation(
            f"{who.display} fights in conflict {who.conflict}, not {found.key}",
            code="not-in-conflict",
        )
    return found, who, who.pile


def check(found: Conflict, given: str) -> Check:
    key = given.strip().lower()
    hit = found.checks.get(key)
    if hit is None:
        raise NotFound(f"conflict {found.key} has no check {given.strip()!r}", code="unknown-check")
    return hit


def skill(who: Character, skill_key: str, title: str) -> int:
    sl = who.sl(skill_key)
    if sl < 1:
        raise RuleViolation(
            f"{title} needs the skill; {who.display} has {title} at SL 0",
            code="no-skill",
        )
    return sl
