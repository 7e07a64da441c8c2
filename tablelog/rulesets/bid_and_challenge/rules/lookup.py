"""Finding what a command names (scenes, characters, cards) and saying what a scene waits for,
each with one sentence when it is not there."""

from __future__ import annotations

from collections.abc import Sequence

from tablelog.errors import InvalidInput, NotFound, RuleViolation
from tablelog.rules.names import player_name
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules.cards import card_key
from tablelog.rulesets.bid_and_challenge.rules.state import (
    BidAndChallengeState,
    Character,
    Holder,
    Scene,
)

ZONE_WORD = {"deck": "Deck", "play": "Play", "discard": "Discard"}


def scene(state: BidAndChallengeState, given: str | None) -> Scene:
    """The scene named (any case), or the only open one when none is named."""
    if given is None or not given.strip():
        open_ = state.open_scenes()
        if not open_:
            raise NotFound(
                "no bid-and-challenge scene is open; start one with `tablelog bid-and-challenge "
                "open SEAT... --asked-by SEAT` (`tablelog scene start` only frames the table)",
                code="no-conflict",
            )
        if len(open_) > 1:
            raise NotFound(
                f"{len(open_)} scenes are open ({', '.join(s.key for s in open_)}); name one",
                code="no-conflict",
            )
        return open_[0]
    found = state.scenes.get(given.strip().lower())
    if found is None:
        known = ", ".join(state.scenes) or "none yet: `tablelog bid-and-challenge open` starts one"
        raise NotFound(
            f"there is no scene {given.strip()!r} (scenes: {known})", code="unknown-conflict"
        )
    return found


def open_scene(state: BidAndChallengeState, given: str | None) -> Scene:
    found = scene(state, given)
    if found.status != "open":
        raise RuleViolation(f"scene {found.key} has ended", code="scene-ended")
    return found


def character(state: BidAndChallengeState, name: str) -> Character:
    key = player_name(name, "character name")
    found = state.characters.get(key)
    if found is None:
        known = ", ".join(c.name for c in state.characters.values()) or "none yet"
        raise NotFound(
            f"there is no character {name.strip()!r} (characters: {known})",
            code="unknown-character",
        )
    return found


def seated(state: BidAndChallengeState, found: Scene, name: str) -> Character:
    who = character(state, name)
    if who.key not in found.seating:
        raise RuleViolation(
            f"{who.key} does not sit in scene {found.key} (seating: {', '.join(found.seating)})",
            code="not-seated",
        )
    return who


def cards_in(
    holder: Holder, names: Sequence[str], zone: ev.Zone, whose: str, hint: str = ""
) -> list[str]:
    """The keys of the cards named, each in `holder`'s `zone` and named once; `hint` is added
    to the sentence for a card `holder` does not have."""
    keys: list[str] = []
    for name in names:
        key = card_key(name)
        card = holder.cards.get(key)
        if card is None:
            known = ", ".join(c.name for c in holder.cards.values()) or "none"
            raise NotFound(
                f"{whose} has no card {name.strip()!r} (cards: {known}){hint}",
                code="unknown-card",
            )
        if key in keys:
            raise InvalidInput(f"card {card.name} is given twice", code="card-twice")
        where = holder.zones[key]
        if where != zone:
            raise RuleViolation(
                f"card {card.name} is not in {whose}'s {ZONE_WORD[zone]} "
                f"(it is in {ZONE_WORD[where]})",
                code=f"card-not-in-{zone}",
            )
        keys.append(key)
    return keys


def own_cards(state: BidAndChallengeState, who: Character, names: Sequence[str]) -> list[str]:
    """The keys of `who`'s cards named, each in its Deck; a universe card named here is
    pointed to the challenge's own way of committing it."""
    hint = ""
    for name in names:
        key = " ".join(name.casefold().split())
        if key not in who.cards and key in state.universe.cards:
            hint = (
                f"; {name.strip()} is a universe card, which only a challenger commits (--universe)"
            )
            break
    return cards_in(who, names, "deck", who.key, hint)


def waiting_for(found: Scene) -> str:
    """What the scene waits for now, in words."""
    if found.status != "open":
        return f"nothing: scene {found.key} has ended"
    if not found.rounds:  # a replay between the scene's start and its first round
        return f"{found.starting} to begin round 1"
    rnd = found.current
    match rnd.phase:
        case "bid":
            return f"{rnd.active} to bid or pass"
        case "challenge":
            return f"{rnd.asked} to accept or pass the challenge"
        case "push":
            return f"{rnd.active} to push, or the roll"
        case "roll":
            return "the roll"
    return "the next round"


def expect(found: Scene, phases: Sequence[str], doing: str) -> None:
    if found.current.phase not in phases:
        raise RuleViolation(
            f"scene {found.key} round {found.current.number} waits for {waiting_for(found)}; "
            f"it is not the time to {doing}",
            code="wrong-phase",
        )
