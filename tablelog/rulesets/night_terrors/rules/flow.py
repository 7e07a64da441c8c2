"""Finding things and whose turn it is: conflicts and characters by name, the next raiser,
whether an exchange is over. Pure reads of the state, shared by decide and the views."""

from __future__ import annotations

from tablelog.errors import NotFound, RuleViolation
from tablelog.rules.names import player_name
from tablelog.rulesets.night_terrors.rules.state import Character, Conflict, NightTerrorsState


def conflict(state: NightTerrorsState, given: str | None) -> Conflict:
    """The conflict `given` names, or the only open one when None."""
    if given is None:
        found = state.open_conflicts()
        if len(found) != 1:
            raise NotFound(
                f"{len(found)} conflicts are open; name one (e.g. c1)", code="no-conflict"
            )
        return found[0]
    key = given.strip().lower()
    known = state.conflicts.get(key)
    if known is None:
        raise NotFound(f"there is no conflict {given.strip()}", code="unknown-conflict")
    return known


def open_conflict(state: NightTerrorsState, given: str | None) -> Conflict:
    found = conflict(state, given)
    if found.status != "open":
        raise RuleViolation(f"conflict {found.key} has ended", code="nt-conflict-ended")
    return found


def character(state: NightTerrorsState, name: str) -> Character:
    key = player_name(name, "character name")
    found = state.characters.get(key)
    if found is None:
        known = ", ".join(c.display for c in state.characters.values()) or "none yet"
        raise NotFound(
            f"there is no character {name.strip()}; characters: {known}", code="unknown-character"
        )
    return found


def shown(state: NightTerrorsState, key: str) -> str:
    """A character's name as created (`Alice`), for sentences; keys stay in events."""
    found = state.characters.get(key)
    return found.display if found is not None else key


def listed(state: NightTerrorsState, keys: list[str]) -> str:
    return ", ".join(shown(state, k) for k in keys)


def member(state: NightTerrorsState, found: Conflict, name: str) -> Character:
    """A character still in `found`; `carol is not in conflict c1` otherwise."""
    who = character(state, name)
    if who.key not in found.opened.participants:
        raise RuleViolation(f"{who.display} is not in conflict {found.key}", code="nt-not-in")
    if who.key not in found.still_in:
        why = found.left.get(who.key, "left")
        raise RuleViolation(f"{who.display} is out of conflict {found.key} ({why})", code="nt-out")
    return who


def next_raiser(state: NightTerrorsState, found: Conflict) -> str | None:
    """Who raises next: the aggressor first, then clockwise from the last raiser, skipping
    those out and those holding fewer than 2 cards. None when nobody still in can raise."""
    seats = found.opened.participants
    last = found.current
    start = (
        seats.index(found.opened.aggressor)
        if last is None
        else (seats.index(last.raised.raiser) + 1)
    )
    for step in range(len(seats)):
        key = seats[(start + step) % len(seats)]
        if key in found.still_in and len(state.characters[key].hand) >= 2:
            return key
    return None


def unpaid(state: NightTerrorsState, found: Conflict) -> list[str]:
    """Characters still in `found` with a cost of it unpaid (one who is out pays when it
    likes: it holds nothing back)."""
    return [
        key
        for key in found.still_in
        if any(c.conflict == found.key for c in state.costs.get(key, []))
    ]


def drawing(state: NightTerrorsState, found: Conflict) -> list[str]:
    """Characters still owing cards drawn for `found` (a recorded deck waits for them)."""
    return [k for k, owed in state.draws.items() if owed.conflict == found.key]


def exchange_over(state: NightTerrorsState, found: Conflict) -> bool:
    """Every answer given, every cost of the conflict paid, every card drawn."""
    exchange = found.current
    if exchange is not None and exchange.owing:
        return False
    return not unpaid(state, found) and not drawing(state, found)


def conflict_of(state: NightTerrorsState, key: str) -> Conflict | None:
    """The open conflict `key` (a character) is in, if any."""
    for found in state.open_conflicts():
        if key in found.still_in:
            return found
    return None
