"""evolve(state, event): the only place an Improv state changes, one event at a time.

Recorded decisions (totals, winners, token moves) are applied as stored: the audit, not the
fold, recomputes them. The match ends in `assert_never`, so a new event type must be handled.
"""

from __future__ import annotations

from typing import assert_never

from tablelog.events.core import CampaignCreated
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
)


def initial(created: CampaignCreated) -> ImprovState:
    state = ImprovState(
        campaign=created.campaign,
        gm=created.gm,
        options=from_recorded(ImprovOptions, created.options),
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
    match event:
        case PlayerJoined():
            state.players.setdefault(event.player, Player(key=event.player, display=event.display))
            if event.player != state.gm:
                state.ledger.players.setdefault(event.player, 0)
        case CharacterCreated():
            state.characters[event.character] = Character(
                key=event.character,
                display=event.display,
                player=event.player,
                talents=dict(event.talents),
            )
        case SessionStarted():
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
        case SessionEnded():
            state.session_open = False
        case SceneStarted():
            state.scene, state.scene_open = event.scene, True
        case SceneEnded():
            state.scene_open = False
        case DeckShuffled():
            deck = state.decks.setdefault(event.deck, Deck())
            if event.reason == "reshuffle":
                deck.discard = []
            else:  # a new deck or a session: every card of the deck comes back
                deck.discard = []
                for owner in list(state.hands):
                    if state.deck_of(owner) == event.deck:
                        state.hands[owner] = []
            deck.draw = list(event.order)
        case CardsDrawn():
            deck = state.decks.setdefault(event.deck, Deck())
            for card in event.cards:
                if card in deck.draw:
                    deck.draw.remove(card)
            state.hands.setdefault(event.owner, []).extend(event.cards)
        case CardsDiscarded():
            for card in event.cards:
                _take_from_hand(state, event.owner, card)
            _discard(state, state.deck_of(event.owner), list(event.cards))
        case ConflictOpened():
            state.conflicts[event.conflict] = Conflict(
                key=event.conflict,
                kind=event.kind,
                planned_rounds=event.rounds,
                gm_tokens_at_open=event.gm_tokens_at_open,
            )
        case StakeSet():
            state.conflicts[event.conflict].sides[event.side] = Side(
                key=event.side,
                display=event.display,
                gm=event.gm,
                text=event.text,
                opposes=event.opposes,
                player=event.player,
            )
        case CardPlayed():
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
        case BonusPlaced():
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
        case RoundRevealed():
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
        case FateCardDrawn():
            conflict = state.conflicts[event.conflict]
            rnd = _round(conflict, event.round)
            rnd.fate.draws.setdefault(event.side, []).append(event.card)
            if event.deck is not None:
                _take_from_deck(state, event.deck, event.card)
                _discard(state, event.deck, [event.card])
        case FateResolved():
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
        case FateChosen():
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
        case VictoryCardGiven():
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
        case TokenAwarded():
            state.ledger.move(event.source, event.receiver, 1)
            if event.conflict is not None and event.round is not None:
                state.conflicts[event.conflict].awarders.add((event.round, event.giver))
            else:
                state.scene_awarders.add((event.session, event.scene, event.in_scene, event.giver))
        case TokenSpent():
            state.ledger.move(event.player, event.to, 1)
        case Narrated():
            if event.final:
                state.conflicts[event.conflict].sides[event.side].final_narration = True
        case ConflictClosed():
            conflict = state.conflicts[event.conflict]
            conflict.status = "closed"
            if conflict.kind == "extended":
                conflict.beats = [(w, loser) for w, loser in event.beats]
                for side in conflict.sides.values():
                    # The cards go back to their decks; the pile stays on record as it ended.
                    _discard_pile(state, side, keep_record=True)
            _apply_moves(state, event.token_moves)
        case _:
            assert_never(event)
    return state


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
