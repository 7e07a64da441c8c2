"""Players, characters and their dice outside a round: creation, GM changes (heals, new
abilities, Intensity), outcome dice; sessions and scenes."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.common import EndScene, EndSession, JoinPlayer, StartScene, StartSession
from tablelog.rules.names import new_player_name, player_name
from tablelog.rules.text import optional_text
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.dice import parse_die
from tablelog.rulesets.beer_run.rules.state import BeerRunState

MAX_ABILITIES = 40
GM = "gm"
DIFFICULTY_NAME = "difficulty"  # the other side of a comparison against a difficulty pool


def join(state: BeerRunState, cmd: JoinPlayer) -> list[Event]:
    key = new_player_name(cmd.player, gm=state.gm, players=state.players)
    if key in state.players:
        return []
    return [ev.PlayerJoined(player=key, display=cmd.player.strip())]


def _category(state: BeerRunState, text: str) -> str:
    key = player_name(text, "category")
    if key not in state.categories:
        raise InvalidInput(
            f"category {text!r} is not one of this campaign's categories: "
            f"{', '.join(state.categories.values())}",
            code="unknown-category",
        )
    return key


def create_character(state: BeerRunState, cmd: c.CreateCharacter) -> list[Event]:
    player = player_name(cmd.player)
    if player == GM:  # `gm` names the campaign's GM, whatever its name
        player = state.gm
    key = player_name(cmd.character, "character name")
    if key in state.characters:
        raise AlreadyExists(f"character {cmd.character} already exists", code="character-exists")
    if key == DIFFICULTY_NAME:
        raise InvalidInput("a character may not be called difficulty", code="bad-name")
    if not cmd.abilities:
        raise InvalidInput(
            f"{cmd.character} needs at least one ability (--ability NAME:CATEGORY:dN)",
            code="no-abilities",
        )
    if len(cmd.abilities) > MAX_ABILITIES:
        raise InvalidInput(
            f"a character has at most {MAX_ABILITIES} abilities; {len(cmd.abilities)} given",
            code="too-many-abilities",
        )
    abilities: list[ev.Ability] = []
    for spec in cmd.abilities:
        name = player_name(spec.name, "ability name")
        if any(a.name == name for a in abilities):
            raise InvalidInput(f"ability {spec.name} is given twice", code="ability-twice")
        size = parse_die(spec.size, max_size=state.options.max_die_size)
        abilities.append(
            ev.Ability(
                name=name,
                display=spec.name.strip(),
                category=_category(state, spec.category),
                size=size,
            )
        )
    if cmd.static and player != state.gm:
        raise RuleViolation(
            f"static opposition is the GM's: create it with player {state.gm}; {cmd.player} given",
            code="static-not-gm",
        )
    intensity = state.options.starting_intensity if cmd.intensity is None else cmd.intensity
    if cmd.static:
        intensity = 0
    if intensity < 0:
        raise RuleViolation(
            f"Intensity is never below 0; {intensity} given", code="intensity-below-zero"
        )
    events: list[Event] = [] if player == state.gm else join(state, JoinPlayer(player=cmd.player))
    events.append(
        ev.CharacterCreated(
            character_id=key,
            display=cmd.character.strip(),
            player=player,
            abilities=abilities,
            intensity=intensity,
            static=cmd.static,
        )
    )
    return events


def set_ability(state: BeerRunState, cmd: c.SetAbility) -> list[Event]:
    character = flow.character(state, cmd.character)
    name = player_name(cmd.ability, "ability name")
    size = parse_die(cmd.size, max_size=state.options.max_die_size, allow_zero=True)
    found = character.abilities.get(name)
    if found is None and cmd.category is None:
        raise InvalidInput(
            f"{character.display} has no ability {cmd.ability}; give --category to add it",
            code="unknown-ability",
        )
    if found is not None and found.size == size:
        raise RuleViolation(
            f"{character.display}'s {found.display} is already d{size}", code="no-change"
        )
    events: list[Event] = [
        ev.AbilityChanged(
            character_id=character.key,
            ability=name,
            from_=found.size if found else 0,
            to=size,
            cause=cmd.cause,
            category=None if found else _category(state, cmd.category or ""),
            display=None if found else cmd.ability.strip(),
        )
    ]
    if name == state.health and size == 0 and not character.dead:
        events.append(ev.CharacterDied(character_id=character.key))  # Health at 0 is death
    return events


def adjust_intensity(state: BeerRunState, cmd: c.AdjustIntensity) -> list[Event]:
    character = flow.character(state, cmd.character)
    if cmd.delta == 0:
        raise InvalidInput("an Intensity adjustment of 0 changes nothing", code="no-change")
    # A bought pool's price is hidden until it is rolled; a change (or its refusal) now would
    # tell it. Wait for the roll.
    for pending in state.open_conflicts():
        rnd = pending.current if pending.rounds else None
        if rnd is not None and character.key in rnd.pools and character.key not in rnd.rolls:
            raise RuleViolation(
                f"{character.display} has a pool bought and not yet rolled in conflict "
                f"{pending.key}; adjust Intensity after the roll",
                code="pool-pending",
            )
    if character.intensity + cmd.delta < 0:
        raise RuleViolation(
            f"Intensity is never below 0; {character.display} has {character.intensity}, "
            f"{cmd.delta} requested",
            code="intensity-below-zero",
        )
    reason = optional_text(cmd.reason, "the reason")
    return [ev.IntensityAdjusted(character_id=character.key, delta=cmd.delta, reason=reason)]


def award_outcome(state: BeerRunState, cmd: c.AwardOutcomeDie) -> list[Event]:
    character = flow.character(state, cmd.character)
    if character.dead:
        raise RuleViolation(f"{character.display} is dead", code="dead")
    name = player_name(cmd.ability, "ability name")
    size = parse_die(cmd.size, max_size=state.options.max_die_size)
    found = character.abilities.get(name)
    if found is None and cmd.category is None:
        raise InvalidInput(
            f"{cmd.ability} is a new ability for {character.display}; give --category",
            code="unknown-ability",
        )
    conflict = flow.conflict(state, cmd.conflict).key if cmd.conflict else None
    return [
        ev.OutcomeDieAwarded(
            character_id=character.key,
            ability=name,
            display=found.display if found else cmd.ability.strip(),
            category=found.category if found else _category(state, cmd.category or ""),
            size=size,
            conflict=conflict,
        )
    ]


def start_session(state: BeerRunState, cmd: StartSession) -> list[Event]:
    if state.session_open:
        raise RuleViolation(f"session {state.session} is still running", code="session-open")
    return [ev.SessionStarted(session=state.session + 1)]


def end_session(state: BeerRunState, cmd: EndSession) -> list[Event]:
    if not state.session_open:
        raise RuleViolation("no session is running", code="no-session")
    return [ev.SessionEnded(session=state.session)]


def start_scene(state: BeerRunState, cmd: StartScene) -> list[Event]:
    if state.scene_open:
        raise RuleViolation(f"scene {state.scene} is still running", code="scene-open")
    title = optional_text(cmd.title, "the scene title") or None
    return [ev.SceneStarted(scene=state.scene + 1, title=title)]


def end_scene(state: BeerRunState, cmd: EndScene) -> list[Event]:
    if not state.scene_open:
        raise RuleViolation("no scene is running", code="no-scene")
    return [ev.SceneEnded(scene=state.scene)]
