"""A conflict's frame: its start (each Ace's 30 cards shuffled, a 5-card hand drawn), the
actions taken in it, and its end (every card back in the deck, put away)."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.names import player_name
from tablelog.rules.text import text_of
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules import flow
from tablelog.rulesets.ace_of_cards.rules.cards import HAND_SIZE, in_order
from tablelog.rulesets.ace_of_cards.rules.deck import Plan, Shuffle, draw
from tablelog.rulesets.ace_of_cards.rules.state import AceState

MAX_ENEMIES = 40


def open_conflict(state: AceState, cmd: c.OpenConflict, shuffle: Shuffle) -> list[Event]:
    key = player_name(cmd.conflict or f"c{len(state.conflicts) + 1}", "conflict id")
    if key in state.conflicts:
        raise AlreadyExists(f"conflict {key} already exists", code="conflict-exists")
    if not cmd.party:
        raise InvalidInput(
            "a conflict needs at least one character on the party's side", code="no-party"
        )
    party: list[str] = []
    for name in cmd.party:
        who = flow.character(state, name)
        if who.key in party:
            raise InvalidInput(f"{who.display} is given twice", code="character-twice")
        if who.conflict is not None:
            raise RuleViolation(
                f"{who.display} is already in conflict {who.conflict}", code="in-conflict"
            )
        party.append(who.key)
    if len(cmd.enemies) > MAX_ENEMIES:
        raise InvalidInput(
            f"a conflict has at most {MAX_ENEMIES} enemies; {len(cmd.enemies)} given",
            code="too-many-enemies",
        )
    enemies: list[str] = []
    for name in cmd.enemies:
        enemy = player_name(name, "enemy name")
        if enemy in party:  # one side only: a party member cannot be its own enemy
            raise InvalidInput(
                f"{name.strip()} is in the party; an enemy is someone else", code="enemy-twice"
            )
        if enemy in enemies:
            raise InvalidInput(f"{name.strip()} is given twice", code="enemy-twice")
        enemies.append(enemy)
    aces = [k for k in party if state.characters[k].cards is not None]
    plan = Plan(state, shuffle)
    hands = {player_name(k, "character name"): v for k, v in (cmd.hands or {}).items()}
    stray = [k for k in hands if k not in aces]
    if stray:
        raise InvalidInput(
            f"{stray[0]} is no Ace of this conflict; opening hands are the Aces' only",
            code="not-an-ace",
        )
    plan.add(ev.ConflictStarted(conflict=key, party=party, enemies=enemies))
    for ace in aces:
        cards = list(state.characters[ace].cards or [])
        order = in_order(cards) if plan.recorded else shuffle(cards)
        plan.add(ev.DeckShuffled(conflict=key, character_id=ace, order=order))
        draw(plan, key, ace, HAND_SIZE, hands.get(ace), "opening")
    return plan.events


def take_action(state: AceState, cmd: c.TakeAction) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    actor = player_name(cmd.actor, "actor")
    if actor not in found.party and actor not in found.enemies:
        raise RuleViolation(
            f"{cmd.actor.strip()} is neither in the party nor an enemy of conflict {found.key}",
            code="not-in-conflict",
        )
    return [
        ev.ActionTaken(
            conflict=found.key,
            action_id=f"a{len(found.actions) + 1}",
            actor=actor,
            enemy=actor in found.enemies,
            visible=cmd.visible,
            text=text_of(cmd.text, "the action"),
        )
    ]


def end_conflict(state: AceState, cmd: c.EndConflict) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    return [ev.ConflictEnded(conflict=found.key)]
