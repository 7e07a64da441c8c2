"""Deciding the reveal and the Hand of Fate: totals, ranking, winners, token clean-up.

What is computed here is stored in the events (RoundRevealed, FateResolved) so the audit can
recompute it from the earlier events and compare.
"""

from __future__ import annotations

from typing import Literal

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.events.improv import (
    FateCardDrawn,
    FateChosen,
    FateResolved,
    PairResult,
    RoundRevealed,
    TokenMove,
)
from tablelog.rules.improv import lookup
from tablelog.rules.improv.cards import Outcome, card_key, colours_match, compare, parse_card, value
from tablelog.rules.improv.commands import Fate, Reveal
from tablelog.rules.improv.decks import DeckWork, Shuffle
from tablelog.rules.improv.state import GM, Conflict, ImprovState, Round


def totals(state: ImprovState, rnd: Round) -> dict[str, int]:
    options = state.options
    return {
        side: value(play.card, options.joker_value) + options.bonus_value * rnd.markers_on(side)
        for side, play in rnd.plays.items()
    }


def rule_text(
    a: str, b: str, ta: int, tb: int, card_a: str, card_b: str, outcome: Outcome, suit_order: str
) -> str:
    if outcome is Outcome.EXACT_TIE:
        return f"exact tie at {ta} ({card_a} vs {card_b}): the Hand of Fate decides"
    if ta != tb:
        high, low = (ta, tb) if ta > tb else (tb, ta)
        return f"higher total wins: {high} beats {low}"
    winner_card = card_a if outcome is Outcome.FIRST else card_b
    loser_card = card_b if outcome is Outcome.FIRST else card_a
    return (
        f"equal totals {ta}: {winner_card} beats {loser_card} on suit "
        f"(order {suit_order}, a Joker above every suit)"
    )


def reveal(state: ImprovState, cmd: Reveal, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    rnd = conflict.current
    if rnd is None or rnd.revealed:
        raise RuleViolation(
            f"conflict {conflict.key} has no face-down round to reveal", code="nothing-to-reveal"
        )
    waiting = [
        s.display
        for s in conflict.sides.values()
        if s.status == "in"
        and s.key not in rnd.plays
        and not (s.gm and not any(p.opposes == s.key for p in conflict.protagonists()))
    ]
    if waiting:
        raise RuleViolation(
            f"not every side has played: {', '.join(waiting)}", code="cards-missing"
        )
    options = state.options
    sums = totals(state, rnd)
    cards = {side: play.card for side, play in rnd.plays.items()}
    ranking = sorted(
        sums,
        key=lambda s: (
            sums[s],
            card_key(cards[s], joker_value=options.joker_value, suit_order=options.suit_order)[1],
        ),
        reverse=True,
    )
    pairs: list[PairResult] = []
    ties: list[list[str]] = []
    beats: list[list[str]] = []
    for a, b in conflict.opponent_pairs():
        if a not in cards or b not in cards:
            continue
        outcome = compare(
            (sums[a], cards[a]),
            (sums[b], cards[b]),
            suit_order=options.suit_order,
            lethal_fate=options.lethal_fate,
        )
        winner = {Outcome.FIRST: a, Outcome.SECOND: b, Outcome.EXACT_TIE: None}[outcome]
        rule = rule_text(a, b, sums[a], sums[b], cards[a], cards[b], outcome, options.suit_order)
        pairs.append(
            PairResult(
                first=a,
                second=b,
                first_total=sums[a],
                second_total=sums[b],
                winner=winner,
                rule=rule,
            )
        )
        if winner is None:
            ties.append([a, b])
        else:
            beats.append([winner, b if winner == a else a])
    unopposed = [
        s.key
        for s in conflict.gm_stakes()
        if s.status == "in" and not any(p.opposes == s.key for p in conflict.protagonists())
    ]
    winners = _winners(conflict, beats, unopposed)
    victory, discarded = _settle(conflict, rnd, cards, beats, ties, winners, set())
    event = RoundRevealed(
        conflict=conflict.key,
        round=rnd.number,
        cards=cards,
        totals=sums,
        ranking=ranking,
        pairs=pairs,
        beats=beats,
        winners=winners,
        unopposed=unopposed,
        ties=ties,
        token_moves=_token_moves(state, conflict, rnd, cards),
        victory=victory,
        discarded=discarded,
    )
    events: list[Event] = [event]
    if ties and state.managed:
        settled = set(victory) | set(discarded)
        events.extend(_managed_fate(state, conflict, rnd, ties, beats, winners, settled, shuffle))
    return events


def _winners(conflict: Conflict, beats: list[list[str]], unopposed: list[str]) -> list[str]:
    """A protagonist wins by beating its opponent; a GM stake by beating any protagonist."""
    winners: list[str] = []
    for winner, _loser in beats:
        if winner not in winners:
            winners.append(winner)
    return winners + [s for s in unopposed if s not in winners]


def _settle(
    conflict: Conflict,
    rnd: Round,
    cards: dict[str, str],
    beats: list[list[str]],
    pending: list[list[str]],
    winners: list[str],
    settled: set[str],
) -> tuple[dict[str, str], dict[str, str]]:
    """Where each decided side's card goes: a simple conflict discards all; an extended one
    keeps a winner's card on its victory pile and discards a loser's."""
    victory: dict[str, str] = {}
    discarded: dict[str, str] = {}
    open_sides = {side for pair in pending for side in pair}
    for side, card in cards.items():
        if side in settled:
            continue
        if conflict.kind == "simple":
            discarded[side] = card
        elif side in winners:
            victory[side] = card
        elif side not in open_sides:
            discarded[side] = card
    return victory, discarded


def _token_moves(
    state: ImprovState, conflict: Conflict, rnd: Round, cards: dict[str, str]
) -> list[TokenMove]:
    """GM tokens go to the pool; a player's to the bank when the colour of the placer's own
    card matches its direct opponent's (a Joker matches anything), else out of play."""
    moves: list[TokenMove] = []
    for bonus in rnd.bonuses:
        if bonus.kind != "token":
            continue
        if bonus.player == GM:
            moves.append(
                TokenMove(
                    source="table",
                    to="pool",
                    count=bonus.count,
                    reason=f"GM token(s) on {bonus.on} go to the pool",
                )
            )
            continue
        own = cards.get(bonus.by)
        opponent = conflict.opponent_of(bonus.by) if bonus.by in conflict.sides else None
        if own is None or opponent is None:
            to, why = "out_of_play", f"{bonus.by} has no card in this conflict"
        elif not conflict.sides[opponent].gm:
            to, why = "out_of_play", f"{bonus.by}'s opponent {opponent} is a protagonist"
        elif opponent not in cards:
            to, why = "out_of_play", f"{bonus.by}'s opponent {opponent} has no card"
        elif colours_match(own, cards[opponent]):
            to, why = "bank", f"{bonus.by}'s {own} matches {opponent}'s {cards[opponent]} in colour"
        else:
            to, why = (
                "out_of_play",
                (f"{bonus.by}'s {own} does not match {opponent}'s {cards[opponent]} in colour"),
            )
        moves.append(TokenMove(source="table", to=to, count=bonus.count, reason=why))
    return moves


def fate(state: ImprovState, cmd: Fate, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    side = lookup.side(conflict, cmd.side)
    rnd = next((r for r in reversed(conflict.rounds) if r.revealed), None)
    if rnd is None:
        raise RuleViolation(f"conflict {conflict.key} has no revealed round", code="no-fate")
    if (cmd.draw is None) == (cmd.choice is None):
        raise InvalidInput("give either --draw CARD, or --eliminate / --stay", code="fate-kind")
    if cmd.choice is not None:
        return [_choose(conflict, rnd, side.key, cmd.choice)]
    if state.managed:
        raise RuleViolation(
            "managed decks draw the tie-breakers at the reveal", code="fate-managed"
        )
    in_pairs = [p for p in rnd.fate.pending if side.key in p]
    if not in_pairs:
        raise RuleViolation(
            f"{side.display} has no exact tie waiting for the Hand of Fate", code="no-fate"
        )
    mine = len(rnd.fate.draws.get(side.key, []))
    if all(mine > len(rnd.fate.draws.get(b if a == side.key else a, [])) for a, b in in_pairs):
        raise RuleViolation(
            f"{side.display} already drew its tie-breaker; the other side draws now",
            code="fate-drawn",
        )
    card = parse_card(cmd.draw or "")
    drawn = FateCardDrawn(conflict=conflict.key, round=rnd.number, side=side.key, card=card)
    draws = {k: list(v) for k, v in rnd.fate.draws.items()}
    draws.setdefault(side.key, []).append(card)
    return [drawn, *_resolve(state, conflict, rnd, draws)]


def _resolve(
    state: ImprovState, conflict: Conflict, rnd: Round, draws: dict[str, list[str]]
) -> list[Event]:
    """FateResolved for every pending pair whose latest draws differ."""
    events: list[Event] = []
    settled = set(rnd.settled)
    beats = [list(b) for b in rnd.beats]
    winners = list(rnd.winners)
    pending = [list(p) for p in rnd.fate.pending]
    for a, b in list(pending):
        da, db = draws.get(a, []), draws.get(b, [])
        if not da or len(da) != len(db):
            continue
        outcome = compare(
            (value(da[-1], state.options.joker_value), da[-1]),
            (value(db[-1], state.options.joker_value), db[-1]),
            suit_order=state.options.suit_order,
        )
        if outcome is Outcome.EXACT_TIE:
            continue  # both draw again
        winner, loser = (a, b) if outcome is Outcome.FIRST else (b, a)
        pending.remove([a, b])
        beats.append([winner, loser])
        if winner not in winners:
            winners.append(winner)
        cards = {s: p.card for s, p in rnd.plays.items()}
        victory, discarded = _settle(conflict, rnd, cards, beats, pending, winners, settled)
        settled |= set(victory) | set(discarded)
        events.append(
            FateResolved(
                conflict=conflict.key,
                round=rnd.number,
                winner=winner,
                loser=loser,
                draws=[[x, y] if winner == a else [y, x] for x, y in zip(da, db, strict=True)],
                rule="tie-breaker cards, bonuses ignored: higher value, then suit",
                victory=victory,
                discarded=discarded,
            )
        )
    return events


def _managed_fate(
    state: ImprovState,
    conflict: Conflict,
    rnd: Round,
    ties: list[list[str]],
    beats: list[list[str]],
    winners: list[str],
    settled: set[str],
    shuffle: Shuffle,
) -> list[Event]:
    """Managed decks draw each tied side's tie-breakers from its own deck until they differ."""
    work = DeckWork(state, shuffle)
    draws: dict[str, list[str]] = {}
    events: list[Event] = []
    pending = [list(t) for t in ties]
    for _attempt in range(54):  # bounded: each attempt uses cards; a deck cannot tie forever
        undecided = [p for p in pending if not _decided(state, draws, p)]
        if not undecided:
            break
        for side in sorted({s for p in undecided for s in p}):
            owner = lookup.owner(conflict.sides[side])
            deck = state.deck_of(owner)
            card = work.take(deck)
            if card is None:
                raise RuleViolation(
                    f"the {deck} deck is empty; no tie-breaker can be drawn", code="deck-empty"
                )
            work.discard(deck, [card])
            events.extend(work.events)
            work.events.clear()
            events.append(
                FateCardDrawn(
                    conflict=conflict.key, round=rnd.number, side=side, card=card, deck=deck
                )
            )
            draws.setdefault(side, []).append(card)
    # Resolve against a view of the round as the reveal leaves it.
    view = Round(
        number=rnd.number,
        plays=rnd.plays,
        bonuses=rnd.bonuses,
        revealed=True,
        beats=[(w, lo) for w, lo in beats],
        winners=list(winners),
    )
    view.fate.pending = [(a, b) for a, b in ties]
    view.settled = settled
    return events + _resolve(state, conflict, view, draws)


def _decided(state: ImprovState, draws: dict[str, list[str]], pair: list[str]) -> bool:
    a, b = pair
    da, db = draws.get(a, []), draws.get(b, [])
    if not da or len(da) != len(db):
        return False
    jv, order = state.options.joker_value, state.options.suit_order
    return (
        compare((value(da[-1], jv), da[-1]), (value(db[-1], jv), db[-1]), suit_order=order)
        is not Outcome.EXACT_TIE
    )


def _choose(conflict: Conflict, rnd: Round, side: str, choice: str) -> FateChosen:
    if conflict.kind != "extended":
        raise RuleViolation(
            "the loser's choice exists only in extended conflicts", code="fate-simple"
        )
    if side not in rnd.fate.choices_due:
        raise RuleViolation(f"{side} has no Hand of Fate loss to answer", code="no-fate")
    outcome: Literal["eliminated", "stayed", "destroyed"]
    if conflict.sides[side].fate_losses >= 2:
        outcome = "destroyed"  # a second Hand-of-Fate loss in the same conflict
    else:
        outcome = "eliminated" if choice == "eliminate" else "stayed"
    return FateChosen(
        conflict=conflict.key,
        round=rnd.number,
        side=side,
        choice="eliminate" if choice == "eliminate" else "stay",
        outcome=outcome,
    )
