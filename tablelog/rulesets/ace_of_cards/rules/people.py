"""Players and characters outside a conflict's play: creation, the Ace of Cards class (its
free benefit and deck), skill levels, and the GM's changes to HP and MP."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.common import JoinPlayer
from tablelog.rules.names import new_player_name, player_name
from tablelog.rules.table import GM
from tablelog.rules.text import optional_text
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules import flow
from tablelog.rulesets.ace_of_cards.rules.cards import (
    DAMAGE_TYPES,
    STANDARD_DECK,
    SUITS,
    card_code,
    check_deck,
    suit_letter,
)
from tablelog.rulesets.ace_of_cards.rules.state import CLASS_SKILLS, SKILL_TITLES, SKILLS, AceState

MAX_POINTS = 9999
ONE_LEVEL = 1  # Double or Nothing and High or Low are taken once (rules/ace-of-cards.md)


def join(state: AceState, cmd: JoinPlayer) -> list[Event]:
    key = new_player_name(cmd.player, gm=state.gm, players=state.players)
    if key in state.players:
        return []
    return [ev.PlayerJoined(player=key, display=cmd.player.strip())]


def _points(value: int, what: str) -> int:
    if not 1 <= value <= MAX_POINTS:
        raise InvalidInput(f"maximum {what} is 1 to {MAX_POINTS}; {value} given", code="bad-points")
    return value


def create_character(state: AceState, cmd: c.CreateCharacter) -> list[Event]:
    player = player_name(cmd.player)
    if player == GM:
        player = state.gm
    key = player_name(cmd.character, "character name")
    if key in state.characters:
        raise AlreadyExists(f"character {cmd.character} already exists", code="character-exists")
    events: list[Event] = [] if player == state.gm else join(state, JoinPlayer(player=cmd.player))
    events.append(
        ev.CharacterCreated(
            character_id=key,
            display=cmd.character.strip(),
            player=player,
            max_hp=_points(cmd.hp, "HP"),
            max_mp=_points(cmd.mp, "MP"),
        )
    )
    return events


def build_deck(state: AceState, cmd: c.BuildDeck) -> list[Event]:
    who = flow.character(state, cmd.character)
    if who.cards is not None:
        raise RuleViolation(
            f"{who.display} already has the Ace of Cards class and its deck", code="deck-exists"
        )
    if who.conflict is not None:
        raise RuleViolation(
            f"a deck is built outside a conflict (at character creation); {who.display} is in "
            f"conflict {who.conflict}",
            code="in-conflict",
        )
    types: dict[str, str] = {}
    for suit, kind in cmd.suit_types.items():
        letter = suit_letter(suit)
        damage = kind.strip().lower()
        if damage not in DAMAGE_TYPES:
            raise InvalidInput(
                f"a suit's damage type is one of {', '.join(DAMAGE_TYPES)}; {kind!r} given",
                code="bad-type",
            )
        if letter in types:
            raise InvalidInput(f"suit {SUITS[letter]} is given twice", code="suit-twice")
        if damage in types.values():
            raise RuleViolation(
                "each suit is tied to a different damage type among air, earth, fire and ice; "
                f"{damage} given twice",
                code="type-twice",
            )
        types[letter] = damage
    missing = [SUITS[s] for s in SUITS if s not in types]
    if missing:
        raise RuleViolation(
            "each of the 4 suits is tied to a damage type when the deck is built; "
            f"{', '.join(missing)} has none",
            code="suit-untyped",
        )
    cards = STANDARD_DECK if cmd.cards is None else check_deck(card_code(t) for t in cmd.cards)
    return [
        ev.DeckBuilt(
            character_id=who.key,
            suit_types={s: types[s] for s in SUITS},
            cards=list(cards),
            benefit=cmd.benefit,
        )
    ]


def skill_key(text: str) -> str:
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in SKILLS:
        raise InvalidInput(
            f"{text.strip()!r} is not a skill of the class; the skills are "
            + ", ".join(s.replace("_", "-") for s in SKILLS),
            code="unknown-skill",
        )
    return key


def set_skill(state: AceState, cmd: c.SetSkillLevel) -> list[Event]:
    who = flow.character(state, cmd.character)
    skill = skill_key(cmd.skill)
    cap = ONE_LEVEL if skill in CLASS_SKILLS else getattr(state.options, f"max_sl_{skill}")
    title = SKILL_TITLES[skill]
    if who.cards is None:
        raise RuleViolation(
            f"{title} is a skill of the Ace of Cards class; {who.display} has no deck yet "
            "(`deck` first)",
            code="no-deck",
        )
    if not 0 <= cmd.sl <= cap:
        raise RuleViolation(
            f"{title} can be taken at most {cap} time{'s' if cap > 1 else ''} (SL 0-{cap}); "
            f"SL {cmd.sl} given",
            code="skill-level",
        )
    if who.sl(skill) == cmd.sl:
        raise RuleViolation(f"{who.display}'s {title} is already SL {cmd.sl}", code="no-change")
    return [ev.SkillLevelSet(character_id=who.key, skill=skill, sl=cmd.sl)]  # type: ignore[arg-type]


def adjust(state: AceState, cmd: c.AdjustHP | c.AdjustMP) -> list[Event]:
    who = flow.character(state, cmd.character)
    hp = isinstance(cmd, c.AdjustHP)
    what, now, top = ("HP", who.hp, who.max_hp) if hp else ("MP", who.mp, who.max_mp)
    if cmd.delta == 0:
        raise InvalidInput(f"an {what} change of 0 changes nothing", code="no-change")
    if not 0 <= now + cmd.delta <= top:
        raise RuleViolation(
            f"{what} stays between 0 and the maximum {top}; {who.display} has {now}, "
            f"{cmd.delta:+d} requested",
            code="points-range",
        )
    reason = optional_text(cmd.reason, "the reason")
    kind = ev.HPChanged if hp else ev.MPChanged
    return [kind(character_id=who.key, delta=cmd.delta, reason=reason, conflict=who.conflict)]
