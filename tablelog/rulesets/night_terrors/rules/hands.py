"""Players, characters and their hands outside the exchange: joining, a character's face card,
sessions and scenes (each resets the hands), recorded draws, discards and refreshes."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.common import Command, JoinPlayer, StartScene, StartSession
from tablelog.rules.names import new_player_name, player_name
from tablelog.rules.table import GM, decide_table
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules import flow
from tablelog.rulesets.night_terrors.rules.cards import (
    FACES,
    RANK_NAMES,
    SUIT_NAMES,
    card,
    n_cards,
    rank,
    suit,
)
from tablelog.rulesets.night_terrors.rules.state import Character, NightTerrorsState


def join(state: NightTerrorsState, cmd: JoinPlayer) -> list[Event]:
    key = new_player_name(cmd.player, gm=state.gm, players=state.players)
    if key in state.players:
        return []
    return [ev.PlayerJoined(player=key, display=cmd.player.strip())]


def card_name(code: str) -> str:
    return f"the {RANK_NAMES[rank(code)]} of {SUIT_NAMES[suit(code)]}"


def create_character(state: NightTerrorsState, cmd: c.CreateCharacter) -> list[Event]:
    made: list[Event] = []
    player = player_name(cmd.player)
    if player in (GM, state.gm):
        player = state.gm
    elif player not in state.players:
        made += join(state, JoinPlayer(player=cmd.player))
    key = player_name(cmd.character, "character name")
    if key in state.characters:
        raise AlreadyExists(
            f"character {cmd.character.strip()} already exists", code="character-exists"
        )
    code = card(cmd.card)
    if rank(code) not in FACES:
        raise InvalidInput(
            f"a character is a face card (K, Q or J and a suit, e.g. KS); {cmd.card.strip()} given",
            code="nt-not-a-face",
        )
    for other in state.characters.values():
        if other.rank + other.suit == code:
            raise RuleViolation(
                f"{card_name(code)} is already {other.display}; each face card is one character",
                code="nt-card-taken",
            )
    made.append(
        ev.CharacterCreated(
            character_id=key,
            display=cmd.character.strip(),
            player=player,
            rank=rank(code),  # type: ignore[arg-type]
            suit=suit(code),  # type: ignore[arg-type]
        )
    )
    return made


def table_command(state: NightTerrorsState, cmd: Command) -> list[Event]:
    """Sessions and scenes; a new one resets the hands, so none starts mid-conflict."""
    if isinstance(cmd, StartSession | StartScene):
        busy = state.open_conflicts()
        if busy:
            what = "session" if isinstance(cmd, StartSession) else "scene"
            raise RuleViolation(
                f"conflict {busy[0].key} is still open; a new {what} resets the hands, so it "
                "waits for the conflict to end",
                code="nt-conflict-open",
            )
    return decide_table(state.table, cmd)


def distinct_cards(given: list[str]) -> list[str]:
    """The canonical codes of `given`, each given once."""
    codes: list[str] = []
    for text in given:
        code = card(text)
        if code in codes:
            raise InvalidInput(f"card {code} is given twice", code="nt-card-twice")
        codes.append(code)
    return codes


def cards_in_hand(character: Character, given: list[str]) -> list[str]:
    """The canonical codes of `given`, each once and each in the character's hand."""
    codes = distinct_cards(given)
    for code in codes:
        if code not in character.hand:
            raise RuleViolation(
                f"card {code} is not in {character.display}'s hand", code="nt-not-in-hand"
            )
    return codes


def draw(state: NightTerrorsState, cmd: c.Draw) -> list[Event]:
    """Recorded deck: the cards a character drew, checked against the deck."""
    who = flow.character(state, cmd.character)
    if state.options.deck != "recorded":
        raise RuleViolation(
            "tablelog deals the cards in this campaign (option deck=managed); nothing to record",
            code="nt-managed-deck",
        )
    owed = state.draws.get(who.key)
    if owed is None:
        raise RuleViolation(f"{who.display} owes no cards to draw", code="nt-no-draw-owed")
    available = len(state.deck) + len(state.set_aside)
    due = min(owed.count, available)
    if len(cmd.cards) != due:
        raise RuleViolation(
            f"{who.display} draws {n_cards(due)} ({owed.reason}); {len(cmd.cards)} given",
            code="nt-draw-count",
        )
    made: list[Event] = []
    pile = list(state.deck)
    if len(state.deck) < owed.count and state.set_aside:
        pile += state.set_aside
        made.append(ev.DeckShuffled(order=pile, reason="ran_out"))
    codes = distinct_cards(cmd.cards)
    for code in codes:
        if code not in pile:
            raise RuleViolation(f"card {code} is not in the deck", code="nt-not-in-deck")
    made.append(
        ev.CardsDrawn(
            character_id=who.key,
            cards=codes,
            reason=owed.reason,
            conflict=owed.conflict,
            short=due < owed.count,
        )
    )
    return made


def discard(state: NightTerrorsState, cmd: c.Discard) -> list[Event]:
    who = flow.character(state, cmd.character)
    owed = state.discards.get(who.key)
    if owed is None:
        raise RuleViolation(
            f"{who.display} holds {len(who.hand)} cards and has nothing to discard down "
            f"(a hand above {state.options.hand_size} discards at a reset)",
            code="nt-no-discard-owed",
        )
    if len(cmd.cards) != owed:
        raise RuleViolation(
            f"{who.display} discards {n_cards(owed)} to hold {state.options.hand_size}; "
            f"{len(cmd.cards)} given",
            code="nt-discard-count",
        )
    codes = cards_in_hand(who, cmd.cards)
    return [ev.CardsDiscarded(character_id=who.key, cards=codes, reason="scene_reset")]


def refresh(state: NightTerrorsState, cmd: c.Refresh) -> list[Event]:
    who = flow.character(state, cmd.character)
    if not state.refresh_open:
        raise RuleViolation(
            "hands are refreshed only at a hand reset (a session's or scene's start), "
            "before a conflict opens",
            code="nt-no-reset",
        )
    if who.key in state.discards:
        raise RuleViolation(
            f"{who.display} first discards {n_cards(state.discards[who.key])} down to "
            f"{state.options.hand_size}",
            code="nt-discard-first",
        )
    if who.key in state.draws:
        raise RuleViolation(
            f"{who.display} first draws {n_cards(state.draws[who.key].count)}", code="nt-draw-first"
        )
    if who.key in state.refreshed:
        raise RuleViolation(
            f"{who.display} has already refreshed at this reset", code="nt-refreshed"
        )
    if not cmd.cards:
        raise InvalidInput("a refresh discards at least one card", code="nt-no-cards")
    codes = cards_in_hand(who, cmd.cards)
    return [ev.CardsDiscarded(character_id=who.key, cards=codes, reason="refresh")]
