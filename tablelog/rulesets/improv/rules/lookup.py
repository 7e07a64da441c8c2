"""Finding what a command names: conflicts, sides, players, characters, talents.

Every miss is a refusal naming the value given and the values allowed.
"""

from __future__ import annotations

import unicodedata

from tablelog.errors import InvalidInput, NotFound, RuleViolation
from tablelog.rules.names import player_name
from tablelog.rules.text import CONTROL
from tablelog.rulesets.improv.rules.state import (
    GM,
    Character,
    ClosedConflict,
    Conflict,
    ImprovState,
    Round,
    Side,
)

MAX_TEXT = 4000


def key(text: str, what: str = "name") -> str:
    return player_name(text, what)


def text_of(value: str, what: str) -> str:
    stripped = value.strip()
    try:
        stripped.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(
            f"{what} is not valid text (check the terminal's encoding)", code="bad-text"
        ) from None
    if CONTROL.search(stripped):
        raise InvalidInput(f"{what} contains control characters", code="bad-text")
    if not stripped:
        raise InvalidInput(f"{what} must not be empty", code="empty-text")
    if len(stripped) > MAX_TEXT:
        raise InvalidInput(
            f"{what} may be at most {MAX_TEXT} characters; got {len(stripped)}",
            code="text-too-long",
        )
    return stripped


MAX_TALENT = 40


def talent_key(text: str) -> str:
    """A talent's key: its name as the rulebook writes it (`clever investigator`, `Fast
    talker`), matched case-insensitively. 1 to 40 printable characters, spaces inside allowed;
    control characters and leading or trailing spaces are refused, not trimmed."""
    name = unicodedata.normalize("NFC", text)
    if not name or len(name) > MAX_TALENT:
        raise InvalidInput(
            f"talent name {text!r} is not allowed; use 1 to {MAX_TALENT} characters, got "
            f"{len(name)}",
            code="bad-talent",
        )
    if name != name.strip():
        raise InvalidInput(
            f"talent name {text!r} starts or ends with a space; spaces go only inside it",
            code="bad-talent",
        )
    if not name.isprintable():
        raise InvalidInput(
            f"talent name {text!r} contains control or invisible characters; use printable "
            "characters and spaces",
            code="bad-talent",
        )
    return _folded(name)


def _folded(text: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


def _listing(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


def archived(state: ImprovState, given: str | None) -> ClosedConflict | None:
    """The record of a conflict that closed before the last one (see ClosedConflict)."""
    return None if given is None else state.archived(given.strip().lower())


def conflict(state: ImprovState, given: str | None, *, open_only: bool = True) -> Conflict:
    """The conflict `given` names (None: the only open one). An archived conflict is
    refused as closed: `archived` finds its record."""
    if given is None:
        candidates = state.open_conflicts()
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise NotFound(
                "no conflict is open; `tablelog improv open` opens one", code="no-conflict"
            )
        raise InvalidInput(
            f"{len(candidates)} conflicts are open ({_listing([c.key for c in candidates])}); "
            "name one with --conflict",
            code="conflict-required",
        )
    wanted = given.strip().lower()
    found = state.conflicts.get(wanted)
    if found is None and wanted in state.archive:
        raise RuleViolation(f"conflict {wanted} is closed", code="conflict-closed")
    if found is None:
        known = [c.key for c in state.every_conflict()]
        raise NotFound(
            f"there is no conflict {given!r}; conflicts: {_listing(known)}",
            code="unknown-conflict",
        )
    if open_only and found.status != "open":
        raise RuleViolation(f"conflict {found.key} is closed", code="conflict-closed")
    return found


def side(c: Conflict, given: str) -> Side:
    found = c.sides.get(key(given, "side name"))
    if found is None:
        raise NotFound(
            f"conflict {c.key} has no side {given!r}; its sides: {_listing(list(c.sides))}",
            code="unknown-side",
        )
    return found


def player(state: ImprovState, given: str) -> str:
    name = key(given, "player name")
    if name == GM or name == state.gm:
        return GM
    if name not in state.players:
        known = [p for p in state.players if p != state.gm]
        raise NotFound(
            f"there is no player {given!r}; players: {_listing(known)}", code="unknown-player"
        )
    return name


def character(state: ImprovState, given: str) -> Character:
    found = state.characters.get(key(given, "character name"))
    if found is None:
        raise NotFound(
            f"there is no character {given!r}; characters: {_listing(list(state.characters))}",
            code="unknown-character",
        )
    return found


def talent(ch: Character, given: str) -> str:
    """The key of `ch`'s talent `given` (any case)."""
    wanted = _folded(given)
    for name in ch.talents:
        # Keys of older logs were made by another rule: compare them folded the same way.
        if name == given or _folded(name) == wanted:
            return name
    raise NotFound(
        f"{ch.display} has no talent {given!r}; talents: {_listing(list(ch.talents.values()))}",
        code="unknown-talent",
    )


def owner(s: Side) -> str:
    """Who holds the cards and tokens of a side: its player, or the GM."""
    return GM if s.gm or s.player is None else s.player


def current_round(c: Conflict) -> Round:
    rnd = c.current
    if rnd is None:
        raise RuleViolation(f"no card has been played in conflict {c.key} yet", code="no-round")
    return rnd


def require_session(state: ImprovState) -> None:
    if not state.session_open:
        raise RuleViolation(
            "no session is running; `tablelog session start` starts one (it sets the tokens)",
            code="no-session",
        )
