"""evolve(state, event): the only place an Improv state changes, one event at a time.

Recorded decisions (totals, winners, token moves) are applied as stored: the audit, not the
fold, recomputes them. Each event type has its handler in `_HANDLERS`; a test fails when an
ImprovEvent has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events.base import Event
from tablelog.events.core import AccessReissued, CampaignCreated
from tablelog.rules.options import from_recorded
from tablelog.rulesets.improv.events import (
    BonusPlaced,
    CardOpened,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardSealed,
    CharacterCreated,
    ConflictClosed,
    ConflictOpened,
    DeckShuffled,
    FateCardDrawn,
    FateChosen,
    FateResolved,
    Narrated,
    OpeningDeadlineSet,
    OpeningForfeited,
    PlayerJoined,
    RoundRevealed,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
    StakeSet,
    TokenAwarded,
    TokenSpent,
    VictoryCardGiven,
)
from tablelog.rulesets.improv.rules import evolve_conflict as ec
from tablelog.rulesets.improv.rules import sealed
from tablelog.rulesets.improv.rules.options import ImprovOptions
from tablelog.rulesets.improv.rules.state import (
    Character,
    Deck,
    ImprovState,
    Player,
)

ImprovEvent = (
    PlayerJoined
    | CharacterCreated
    | SessionStarted
    | SessionEnded
    | SceneStarted
    | SceneEnded
    | DeckShuffled
    | CardsDrawn
    | CardsDiscarded
    | ConflictOpened
    | StakeSet
    | CardPlayed
    | CardSealed
    | CardOpened
    | OpeningDeadlineSet
    | OpeningForfeited
    | BonusPlaced
    | RoundRevealed
    | FateCardDrawn
    | FateResolved
    | FateChosen
    | VictoryCardGiven
    | TokenAwarded
    | TokenSpent
    | Narrated
    | ConflictClosed
    | AccessReissued
)


def initial(created: CampaignCreated) -> ImprovState:
    state = ImprovState(
        campaign=created.campaign,
        gm=created.gm,
        options=from_recorded(ImprovOptions, created.options),
        seq=1,
    )
    state.players[created.gm] = Player(key=created.gm, display=created.gm)
    return state


def evolve(state: ImprovState, event: ImprovEvent) -> ImprovState:
    """Fold one event into the state (in place) and return it.

    A table from event type to handler rather than a `match`: a rebuild calls this for every
    stored event, and a dictionary lookup costs the same for every type where a match tries
    the cases in turn. A test checks the table covers every ImprovEvent."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"Improv has no handler for {type(event).__name__}")
    state.seq += 1
    handler(state, event)
    return state


def _player_joined(state: ImprovState, event: PlayerJoined) -> None:
    state.players.setdefault(event.player, Player(key=event.player, display=event.display))
    if event.player != state.gm:
        state.ledger.players.setdefault(event.player, 0)


def _character_created(state: ImprovState, event: CharacterCreated) -> None:
    state.characters[event.character] = Character(
        key=event.character,
        display=event.display,
        player=event.player,
        talents=dict(event.talents),
    )


def _session_started(state: ImprovState, event: SessionStarted) -> None:
    state.session, state.session_open = event.session, True
    state.session_players = list(event.players)
    ledger = state.ledger
    ledger.gm, ledger.pool, ledger.bank, ledger.out_of_play, ledger.table = (
        event.gm_tokens,
        event.pool,
        0,
        0,
        0,
    )
    for player in ledger.players:
        ledger.players[player] = event.player_tokens.get(player, 0)
    for character in state.characters.values():
        character.uses.clear()


def _session_ended(state: ImprovState, event: SessionEnded) -> None:
    state.session_open = False


def _scene_started(state: ImprovState, event: SceneStarted) -> None:
    state.scene, state.scene_open = event.scene, True


def _scene_ended(state: ImprovState, event: SceneEnded) -> None:
    state.scene_open = False


def _deck_shuffled(state: ImprovState, event: DeckShuffled) -> None:
    deck = state.decks.setdefault(event.deck, Deck())
    if event.reason == "reshuffle":
        deck.discard = []
    else:  # a new deck or a session: every card of the deck comes back
        deck.discard = []
        for owner in list(state.hands):
            if state.deck_of(owner) == event.deck:
                state.hands[owner] = []
    deck.draw = list(event.order)


def _cards_drawn(state: ImprovState, event: CardsDrawn) -> None:
    deck = state.decks.setdefault(event.deck, Deck())
    for card in event.cards:
        if card in deck.draw:
            deck.draw.remove(card)
    state.hands.setdefault(event.owner, []).extend(event.cards)


def _cards_discarded(state: ImprovState, event: CardsDiscarded) -> None:
    for card in event.cards:
        ec.take_from_hand(state, event.owner, card)
    ec.discard(state, state.deck_of(event.owner), list(event.cards))


def _token_awarded(state: ImprovState, event: TokenAwarded) -> None:
    state.ledger.move(event.source, event.receiver, 1)
    if event.conflict is not None and event.round is not None:
        state.conflicts[event.conflict].awarders.add((event.round, event.giver))
    else:
        state.scene_awarders.add((event.session, event.scene, event.in_scene, event.giver))


def _token_spent(state: ImprovState, event: TokenSpent) -> None:
    state.ledger.move(event.player, event.to, 1)


def _nothing(_state: ImprovState, _event: Event) -> None:
    pass


_HANDLERS: dict[type[Event], Callable[[ImprovState, Any], None]] = {
    PlayerJoined: _player_joined,
    CharacterCreated: _character_created,
    SessionStarted: _session_started,
    SessionEnded: _session_ended,
    SceneStarted: _scene_started,
    SceneEnded: _scene_ended,
    DeckShuffled: _deck_shuffled,
    CardsDrawn: _cards_drawn,
    CardsDiscarded: _cards_discarded,
    ConflictOpened: ec.conflict_opened,
    StakeSet: ec.stake_set,
    CardPlayed: ec.card_played,
    CardSealed: sealed.card_sealed,
    CardOpened: sealed.card_opened,
    OpeningDeadlineSet: sealed.deadline_set,
    OpeningForfeited: sealed.opening_forfeited,
    BonusPlaced: ec.bonus_placed,
    RoundRevealed: ec.round_revealed,
    FateCardDrawn: ec.fate_card_drawn,
    FateResolved: ec.fate_resolved,
    FateChosen: ec.fate_chosen,
    VictoryCardGiven: ec.victory_card_given,
    TokenAwarded: _token_awarded,
    TokenSpent: _token_spent,
    Narrated: ec.narrated,
    ConflictClosed: ec.conflict_closed,
    AccessReissued: _nothing,  # a core event: who holds a token is no part of the table
}
