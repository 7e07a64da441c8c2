"""Finding what a command names: a character, an Ace in a conflict, a conflict, a check."""

from __future__ import annotations

from tablelog.errors import NotFound, RuleViolation
from tablelog.rules.names import player_name
from tablelog.rulesets.ace_of_cards.rules.state import (
    SKILL_TITLES,
    AceState,
    Character,
    Check,
    Conflict,
    Pile,
)


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


def has_deck(who: Character) -> Character:
    """`who`, refused unless it has taken the class (a party member may be a plain ally)."""
    if who.cards is None:
        raise RuleViolation(
            f"{who.display} has no deck: Ace of Cards skills need the class (`deck`)",
            code="no-deck",
        )
    return who


def ace(state: AceState, given: str | None, name: str) -> tuple[Conflict, Character, Pile]:
    """An Ace of the open conflict with its cards (deck, hand and discard pile)."""
    who = has_deck(character(state, name))
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


def uses(state: AceState, who: Character, skill_key: str) -> bool:
    """Whether `who` may use Double or Nothing or High or Low: once taken (option
    class_skills=taken), or as every Ace (class_skills=all, and campaigns older than it)."""
    return state.options.class_skills == "all" or who.sl(skill_key) >= 1


def class_skill(state: AceState, who: Character, skill_key: str) -> None:
    """Refused, naming the skill to take, unless `who` may use it (see `uses`)."""
    if not uses(state, who, skill_key):
        title = SKILL_TITLES[skill_key]
        raise RuleViolation(
            f"{title} is a Skill of the class that {who.display} has not taken "
            f"(class_skills=taken): SL 0, 1 needed; take it with `skill {who.display} "
            f"{skill_key.replace('_', '-')} 1`",
            code="no-skill",
        )
