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
from tablelog.events.improv import (
    BonusPlaced,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CharacterCreated,
    ConflictClosed,
    ConflictOpened,
    DeckShuffled,
    FateCardDrawn,
    FateChosen,
    FateResolved,
    Narrated,
    PlayerJoined,
    RoundRevealed,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
    StakeSet,
    TokenAwarded,
    TokenMove,
    TokenSpent,
    VictoryCardGiven,
)
from tablelog.rules.improv.options import ImprovOptions
from tablelog.rules.improv.state import (
    GM,
    Bonus,
    Character,
    Conflict,
    Deck,
    ImprovState,
    PileCard,
    Play,
    Player,
    Round,
    Side,
)
from tablelog.rules.options import from_recorded

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


def _apply_moves(state: ImprovState, moves: list[TokenMove]) -> None:
    for move in moves:
        state.ledger.move(move.source, move.to, move.count)


def _round(conflict: Conflict, number: int) -> Round:
    while len(conflict.rounds) < number:
        conflict.rounds.append(Round(number=len(conflict.rounds) + 1))
    return conflict.rounds[number - 1]


def _discard(state: ImprovState, deck: str | None, cards: list[str]) -> None:
    if deck is not None and deck in state.decks:
        state.decks[deck].discard.extend(cards)


def _take_from_hand(state: ImprovState, owner: str, card: str) -> None:
    hand = state.hands.get(owner, [])
    if card in hand:
        hand.remove(card)


def _take_from_deck(state: ImprovState, deck: str | None, card: str) -> None:
    if deck is None or deck not in state.decks:
        return
    draw = state.decks[deck].draw
    if card in draw:
        draw.remove(card)


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
        _take_from_hand(state, event.owner, card)
    _discard(state, state.deck_of(event.owner), list(event.cards))


def _conflict_opened(state: ImprovState, event: ConflictOpened) -> None:
    state.conflicts[event.conflict] = Conflict(
        key=event.conflict,
        kind=event.kind,
        planned_rounds=event.rounds,
        gm_tokens_at_open=event.gm_tokens_at_open,
        opened_at=state.seq,
    )


def _stake_set(state: ImprovState, event: StakeSet) -> None:
    state.conflicts[event.conflict].sides[event.side] = Side(
        key=event.side,
        display=event.display,
        gm=event.gm,
        text=event.text,
        opposes=event.opposes,
        player=event.player,
    )


def _card_played(state: ImprovState, event: CardPlayed) -> None:
    conflict = state.conflicts[event.conflict]
    _round(conflict, event.round).plays[event.side] = Play(
        card=event.card, from_deck=event.from_deck, deck=event.deck
    )
    if state.managed:
        side = conflict.sides[event.side]
        if event.from_deck:
            _take_from_deck(state, event.deck, event.card)
        else:
            _take_from_hand(state, GM if side.gm else side.player or GM, event.card)


def _bonus_placed(state: ImprovState, event: BonusPlaced) -> None:
    conflict = state.conflicts[event.conflict]
    _round(conflict, event.round).bonuses.append(
        Bonus(
            on=event.on,
            by=event.by,
            player=event.player,
            kind=event.kind,
            count=event.count,
            talent=event.talent,
            assist=event.assist,
        )
    )
    if event.kind == "token":
        state.ledger.move(event.player, "table", event.count)
        if event.player == GM:
            conflict.gm_spent += event.count
    elif event.talent is not None and event.by in state.characters:
        state.characters[event.by].uses[event.talent] += event.count


def _round_revealed(state: ImprovState, event: RoundRevealed) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = _round(conflict, event.round)
    rnd.revealed = True
    rnd.totals = dict(event.totals)
    rnd.beats = [(w, loser) for w, loser in event.beats]
    rnd.winners = list(event.winners)
    rnd.fate.pending = [(a, b) for a, b in event.ties]
    _apply_moves(state, event.token_moves)
    conflict.banked += sum(m.count for m in event.token_moves if m.to == "bank")
    _settle_cards(state, conflict, rnd, event.victory, event.discarded)
    if conflict.kind == "simple":
        conflict.beats = list(rnd.beats)


def _fate_card_drawn(state: ImprovState, event: FateCardDrawn) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = _round(conflict, event.round)
    rnd.fate.draws.setdefault(event.side, []).append(event.card)
    if event.deck is not None:
        _take_from_deck(state, event.deck, event.card)
        _discard(state, event.deck, [event.card])


def _fate_resolved(state: ImprovState, event: FateResolved) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = _round(conflict, event.round)
    fate = rnd.fate
    for pair in ((event.winner, event.loser), (event.loser, event.winner)):
        if pair in fate.pending:
            fate.pending.remove(pair)
    fate.results.append((event.winner, event.loser))
    rnd.beats.append((event.winner, event.loser))
    if event.winner not in rnd.winners:
        rnd.winners.append(event.winner)
    _settle_cards(state, conflict, rnd, event.victory, event.discarded)
    if conflict.kind == "simple":
        conflict.beats = list(rnd.beats)
    else:
        fate.choices_due.append(event.loser)
        conflict.sides[event.loser].fate_losses += 1


def _fate_chosen(state: ImprovState, event: FateChosen) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = _round(conflict, event.round)
    if event.side in rnd.fate.choices_due:
        rnd.fate.choices_due.remove(event.side)
    side = conflict.sides[event.side]
    if event.outcome == "eliminated":
        side.status = "eliminated"
        _discard_pile(state, side)
    elif event.outcome == "destroyed":
        side.status = "destroyed"


def _victory_card_given(state: ImprovState, event: VictoryCardGiven) -> None:
    conflict = state.conflicts[event.conflict]
    giver, receiver = conflict.sides[event.giver], conflict.sides[event.receiver]
    giver.gifts_given += 1
    origin: str | None = None
    if event.random:
        origin = state.deck_of(_owner(giver)) if state.managed else None
        _take_from_deck(state, origin, event.card)
    else:
        for index, pile_card in enumerate(giver.victory):
            if pile_card.card == event.card:
                origin = pile_card.deck
                del giver.victory[index]
                break
    receiver.victory.append(PileCard(card=event.card, own=False, deck=origin))


def _token_awarded(state: ImprovState, event: TokenAwarded) -> None:
    state.ledger.move(event.source, event.receiver, 1)
    if event.conflict is not None and event.round is not None:
        state.conflicts[event.conflict].awarders.add((event.round, event.giver))
    else:
        state.scene_awarders.add((event.session, event.scene, event.in_scene, event.giver))


def _token_spent(state: ImprovState, event: TokenSpent) -> None:
    state.ledger.move(event.player, event.to, 1)


def _narrated(state: ImprovState, event: Narrated) -> None:
    if event.final:
        state.conflicts[event.conflict].sides[event.side].final_narration = True


def _nothing(_state: ImprovState, _event: Event) -> None:
    pass


def _conflict_closed(state: ImprovState, event: ConflictClosed) -> None:
    conflict = state.conflicts[event.conflict]
    conflict.status = "closed"
    conflict.closed_at = state.seq
    # The conflict closed before this one is archived now, not at its own close: the replay of
    # a close and `show` right after it see the whole conflict without a rebuild.
    earlier = state.last_closed
    if earlier is not None and earlier != conflict.key:
        state.keep_record(state.conflicts.pop(earlier))
    state.last_closed = conflict.key
    if conflict.kind == "extended":
        conflict.beats = [(w, loser) for w, loser in event.beats]
        for side in conflict.sides.values():
            # The cards go back to their decks; the pile stays on record as it ended.
            _discard_pile(state, side, keep_record=True)
    _apply_moves(state, event.token_moves)


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
    ConflictOpened: _conflict_opened,
    StakeSet: _stake_set,
    CardPlayed: _card_played,
    BonusPlaced: _bonus_placed,
    RoundRevealed: _round_revealed,
    FateCardDrawn: _fate_card_drawn,
    FateResolved: _fate_resolved,
    FateChosen: _fate_chosen,
    VictoryCardGiven: _victory_card_given,
    TokenAwarded: _token_awarded,
    TokenSpent: _token_spent,
    Narrated: _narrated,
    ConflictClosed: _conflict_closed,
    AccessReissued: _nothing,  # a core event: who holds a token is no part of the table
}


def _settle_cards(
    state: ImprovState,
    conflict: Conflict,
    rnd: Round,
    victory: dict[str, str],
    discarded: dict[str, str],
) -> None:
    rnd.settled.update(victory)
    rnd.settled.update(discarded)
    for side_key, card in victory.items():
        play = rnd.plays.get(side_key)
        deck = play.deck if play is not None else None
        if play is not None and deck is None and state.managed:
            deck = state.deck_of(_owner(conflict.sides[side_key]))
        conflict.sides[side_key].victory.append(PileCard(card=card, own=True, deck=deck))
    for side_key, card in discarded.items():
        if state.managed:
            play = rnd.plays.get(side_key)
            deck = play.deck if play is not None and play.deck else None
            _discard(state, deck or state.deck_of(_owner(conflict.sides[side_key])), [card])


def _owner(side: Side) -> str:
    return GM if side.gm else side.player or GM


def _discard_pile(state: ImprovState, side: Side, *, keep_record: bool = False) -> None:
    if state.managed:
        for pile_card in side.victory:
            _discard(state, pile_card.deck, [pile_card.card])
    if not keep_record:
        side.victory = []
