"""Players, decks and the universe deck outside a round: joining, registering a major
character's deck, adding universe cards, and a character's permanent death."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.common import JoinPlayer
from tablelog.rules.names import new_player_name, player_name
from tablelog.rules.table import GM
from tablelog.rules.text import optional_text
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import lookup
from tablelog.rulesets.bid_and_challenge.rules.cards import make_card
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState

MAX_CARDS = 100  # a 6d6 starting deck holds about 15
MAX_FLOW = 20


def join(state: BidAndChallengeState, cmd: JoinPlayer) -> list[Event]:
    key = new_player_name(cmd.player, gm=state.gm, players=state.players)
    if key in state.players:
        return []
    return [ev.PlayerJoined(player=key, display=cmd.player.strip())]


def register_deck(state: BidAndChallengeState, cmd: c.RegisterDeck) -> list[Event]:
    player = player_name(cmd.player)
    if player == GM:  # `gm` names the campaign's GM, whatever its name
        player = state.gm
    key = player_name(cmd.character, "character name")
    if key == ev.UNIVERSE:
        raise InvalidInput("a character may not be called universe", code="bad-name")
    if key in state.characters:
        raise AlreadyExists(
            f"character {cmd.character.strip()} already has a deck", code="character-exists"
        )
    if not 1 <= cmd.flow <= MAX_FLOW:
        raise InvalidInput(f"Flow is 1 to {MAX_FLOW}; got {cmd.flow}", code="bad-flow")
    if len(cmd.cards) > MAX_CARDS:
        raise InvalidInput(
            f"a deck holds at most {MAX_CARDS} cards; {len(cmd.cards)} given", code="deck-size"
        )
    cards: list[ev.Card] = []
    for spec in cmd.cards:
        card = make_card(spec.name, spec.value)
        if any(known.card_id == card.card_id for known in cards):
            raise InvalidInput(f"card {card.name} is given twice", code="card-twice")
        cards.append(card)
    events: list[Event] = [] if player == state.gm else join(state, JoinPlayer(player=cmd.player))
    events.append(
        ev.DeckRegistered(
            character_id=key,
            name=cmd.character.strip(),
            player_id=player,
            flow=cmd.flow,
            cards=cards,
        )
    )
    return events


def new_universe_card(state: BidAndChallengeState, spec: c.CardSpec) -> ev.Card:
    """A new universe card, its name not yet taken in the universe deck."""
    card = make_card(spec.name, spec.value)
    if card.card_id in state.universe.cards:
        raise AlreadyExists(
            f"the universe deck already has a card {card.name}", code="universe-card-exists"
        )
    return card


def add_universe_card(state: BidAndChallengeState, cmd: c.AddUniverseCard) -> list[Event]:
    card = new_universe_card(state, cmd.card)
    return [
        ev.UniverseCardCreated(
            card_id=card.card_id, name=card.name, dice=card.dice, mod=card.mod, by=GM
        )
    ]


def kill(state: BidAndChallengeState, cmd: c.KillCharacter) -> list[Event]:
    who = lookup.character(state, cmd.character)
    if who.dead:
        raise RuleViolation(f"{who.name} is dead already", code="dead")
    held = who.in_zone("deck")
    if held:
        raise RuleViolation(
            f"{who.key}'s Deck holds {len(held)} cards: a character can die permanently only "
            "when its player's deck is empty",
            code="deck-not-empty",
        )
    for scene in state.open_scenes():
        if who.key in scene.seating:
            raise RuleViolation(
                f"{who.key} sits in open scene {scene.key}; end the scene first", code="in-scene"
            )
    text = optional_text(cmd.text, "the death's words")
    return [ev.CharacterDied(character_id=who.key, text=text)]
