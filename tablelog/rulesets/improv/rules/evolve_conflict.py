"""evolve's handlers for a conflict's events, and the helpers every handler shares (see
evolve.py, which dispatches each event to its handler)."""

from __future__ import annotations

from tablelog.rulesets.improv.events import (
    BonusPlaced,
    CardPlayed,
    ConflictClosed,
    ConflictOpened,
    FateCardDrawn,
    FateChosen,
    FateResolved,
    Narrated,
    RoundRevealed,
    StakeSet,
    TokenMove,
    VictoryCardGiven,
)
from tablelog.rulesets.improv.rules.state import (
    GM,
    Bonus,
    Conflict,
    ImprovState,
    Moved,
    Narration,
    PileCard,
    Play,
    Round,
    Side,
)


def apply_moves(state: ImprovState, moves: list[TokenMove]) -> None:
    for move in moves:
        state.ledger.move(move.source, move.to, move.count)


def round_of(conflict: Conflict, number: int) -> Round:
    while len(conflict.rounds) < number:
        conflict.rounds.append(Round(number=len(conflict.rounds) + 1))
    return conflict.rounds[number - 1]


def discard(state: ImprovState, deck: str | None, cards: list[str]) -> None:
    if deck is not None and deck in state.decks:
        state.decks[deck].discard.extend(cards)


def take_from_hand(state: ImprovState, owner: str, card: str) -> None:
    hand = state.hands.get(owner, [])
    if card in hand:
        hand.remove(card)


def take_from_deck(state: ImprovState, deck: str | None, card: str) -> None:
    if deck is None or deck not in state.decks:
        return
    draw = state.decks[deck].draw
    if card in draw:
        draw.remove(card)


def conflict_opened(state: ImprovState, event: ConflictOpened) -> None:
    state.conflicts[event.conflict] = Conflict(
        key=event.conflict,
        kind=event.kind,
        planned_rounds=event.rounds,
        gm_tokens_at_open=event.gm_tokens_at_open,
        opened_at=state.seq,
    )


def stake_set(state: ImprovState, event: StakeSet) -> None:
    state.conflicts[event.conflict].sides[event.side] = Side(
        key=event.side,
        display=event.display,
        gm=event.gm,
        text=event.text,
        opposes=event.opposes,
        player=event.player,
    )


def card_played(state: ImprovState, event: CardPlayed) -> None:
    conflict = state.conflicts[event.conflict]
    round_of(conflict, event.round).plays[event.side] = Play(
        card=event.card, from_deck=event.from_deck, deck=event.deck, unseen=event.unseen
    )
    if state.managed:
        side = conflict.sides[event.side]
        if event.from_deck:
            take_from_deck(state, event.deck, event.card)
        else:
            take_from_hand(state, GM if side.gm else side.player or GM, event.card)


def bonus_placed(state: ImprovState, event: BonusPlaced) -> None:
    conflict = state.conflicts[event.conflict]
    round_of(conflict, event.round).bonuses.append(
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


def round_revealed(state: ImprovState, event: RoundRevealed) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = round_of(conflict, event.round)
    rnd.revealed = True
    rnd.totals = dict(event.totals)
    rnd.ranking = list(event.ranking)
    rnd.beats = [(w, loser) for w, loser in event.beats]
    rnd.winners = list(event.winners)
    rnd.fate.pending = [(a, b) for a, b in event.ties]
    apply_moves(state, event.token_moves)
    rnd.moves = [Moved(m.count, m.to, m.reason) for m in event.token_moves]
    conflict.banked += sum(m.count for m in event.token_moves if m.to == "bank")
    settle_cards(state, conflict, rnd, event.victory, event.discarded)
    if conflict.kind == "simple":
        conflict.beats = list(rnd.beats)


def fate_card_drawn(state: ImprovState, event: FateCardDrawn) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = round_of(conflict, event.round)
    rnd.fate.draws.setdefault(event.side, []).append(event.card)
    if event.deck is not None:
        take_from_deck(state, event.deck, event.card)
        discard(state, event.deck, [event.card])


def fate_resolved(state: ImprovState, event: FateResolved) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = round_of(conflict, event.round)
    fate = rnd.fate
    for pair in ((event.winner, event.loser), (event.loser, event.winner)):
        if pair in fate.pending:
            fate.pending.remove(pair)
    fate.results.append((event.winner, event.loser))
    rnd.beats.append((event.winner, event.loser))
    if event.winner not in rnd.winners:
        rnd.winners.append(event.winner)
    settle_cards(state, conflict, rnd, event.victory, event.discarded)
    if conflict.kind == "simple":
        conflict.beats = list(rnd.beats)
    else:
        fate.choices_due.append(event.loser)
        conflict.sides[event.loser].fate_losses += 1


def fate_chosen(state: ImprovState, event: FateChosen) -> None:
    conflict = state.conflicts[event.conflict]
    rnd = round_of(conflict, event.round)
    if event.side in rnd.fate.choices_due:
        rnd.fate.choices_due.remove(event.side)
    side = conflict.sides[event.side]
    if event.outcome == "eliminated":
        side.status = "eliminated"
        discard_pile(state, side)
    elif event.outcome == "destroyed":
        side.status = "destroyed"


def victory_card_given(state: ImprovState, event: VictoryCardGiven) -> None:
    conflict = state.conflicts[event.conflict]
    giver, receiver = conflict.sides[event.giver], conflict.sides[event.receiver]
    giver.gifts_given += 1
    origin: str | None = None
    if event.random:
        origin = state.deck_of(owner(giver)) if state.managed else None
        take_from_deck(state, origin, event.card)
    else:
        for index, pile_card in enumerate(giver.victory):
            if pile_card.card == event.card:
                origin = pile_card.deck
                del giver.victory[index]
                break
    receiver.victory.append(PileCard(card=event.card, own=False, deck=origin))


def narrated(state: ImprovState, event: Narrated) -> None:
    conflict = state.conflicts[event.conflict]
    after = conflict.rounds[-1].number if conflict.rounds else 0
    conflict.narrations.append(Narration(after, event.side, event.text, event.final))
    if event.final:
        conflict.sides[event.side].final_narration = True


def conflict_closed(state: ImprovState, event: ConflictClosed) -> None:
    conflict = state.conflicts[event.conflict]
    conflict.status = "closed"
    conflict.closed_at = state.seq
    # The conflict closed before this one is archived now, not at its own close: the replay of
    # a close and `show` right after it see the whole conflict without a rebuild.
    earlier = state.last_closed
    if earlier is not None and earlier != conflict.key:
        state.keep_record(state.conflicts.pop(earlier))
    state.last_closed = conflict.key
    if event.reason is not None:
        abandoned(state, conflict, event)
    elif conflict.kind == "extended":
        conflict.beats = [(w, loser) for w, loser in event.beats]
        for side in conflict.sides.values():
            # The cards go back to their decks; the pile stays on record as it ended.
            discard_pile(state, side, keep_record=True)
    apply_moves(state, event.token_moves)
    conflict.closing_moves = [Moved(m.count, m.to, m.reason) for m in event.token_moves]


def abandoned(state: ImprovState, conflict: Conflict, event: ConflictClosed) -> None:
    """Nobody wins: the face-down cards are turned up, and they and the piles discarded."""
    conflict.abandoned = event.reason
    conflict.beats = []
    for side in conflict.sides.values():
        discard_pile(state, side)
    for rnd in conflict.rounds:
        rnd.revealed = True
        for key, play in rnd.plays.items():
            if key not in rnd.settled:
                rnd.settled.add(key)
                if state.managed:
                    home = state.deck_of(owner(conflict.sides[key]))
                    discard(state, play.deck or home, [play.card])


def settle_cards(
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
            deck = state.deck_of(owner(conflict.sides[side_key]))
        conflict.sides[side_key].victory.append(PileCard(card=card, own=True, deck=deck))
    for side_key, card in discarded.items():
        if state.managed:
            play = rnd.plays.get(side_key)
            deck = play.deck if play is not None and play.deck else None
            discard(state, deck or state.deck_of(owner(conflict.sides[side_key])), [card])


def owner(side: Side) -> str:
    return GM if side.gm else side.player or GM


def discard_pile(state: ImprovState, side: Side, *, keep_record: bool = False) -> None:
    if state.managed:
        for pile_card in side.victory:
            discard(state, pile_card.deck, [pile_card.card])
    if not keep_record:
        side.victory = []
