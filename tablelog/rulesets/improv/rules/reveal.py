"""Deciding the reveal and the Hand of Fate: totals, ranking, winners, token clean-up.

What is computed here is stored in the events (RoundRevealed, FateResolved) so the audit can
recompute it from the earlier events and compare.
"""

from __future__ import annotations

from tablelog.errors import RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.improv.events import (
    PairResult,
    RoundRevealed,
    TokenMove,
)
from tablelog.rulesets.improv.rules import lookup, opposition
from tablelog.rulesets.improv.rules.cards import (
    Outcome,
    card_key,
    colours_match,
    compare,
    pretty,
    value,
)
from tablelog.rulesets.improv.rules.commands import Reveal
from tablelog.rulesets.improv.rules.decks import Shuffle
from tablelog.rulesets.improv.rules.fate import draw_managed, settle
from tablelog.rulesets.improv.rules.sealed import unopened
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState, Round


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
        return f"exact tie at {ta} ({pretty(card_a)} vs {pretty(card_b)}): the Hand of Fate decides"
    if ta != tb:
        high, low = (ta, tb) if ta > tb else (tb, ta)
        return f"higher total wins: {high} beats {low}"
    winner_card = card_a if outcome is Outcome.FIRST else card_b
    loser_card = card_b if outcome is Outcome.FIRST else card_a
    return (
        f"equal totals {ta}: {pretty(winner_card)} beats {pretty(loser_card)} on suit "
        f"(order {suit_order}, a Joker above every suit)"
    )


def reveal(state: ImprovState, cmd: Reveal, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    rnd = conflict.current
    if rnd is None or rnd.revealed:
        raise RuleViolation(
            f"conflict {conflict.key} has no face-down round to reveal", code="nothing-to-reveal"
        )
    waiting = [s.display for s in conflict.still_to_play(rnd)]
    if waiting:
        raise RuleViolation(
            f"not every side has played: {', '.join(waiting)}", code="cards-missing"
        )
    closed = unopened(rnd)
    if closed:
        raise RuleViolation(
            f"sealed cards not yet opened: {', '.join(closed)} (`tablelog improv open`; after "
            "a deadline the GM may declare them forfeit)",
            code="openings-missing",
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
    for a, b in opposition.round_pairs(conflict, cards):
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
    # An unopposed side's stake succeeds on its own, but it beats nobody: no winner, and
    # its card (if it played one) is discarded.
    unopposed = [key for key in conflict.sides if opposition.unopposed(conflict, key)]
    winners = opposition.winners(beats)
    victory, discarded = settle(conflict, cards, ties, winners, set())
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
        token_moves=token_moves(state, conflict, rnd, cards),
        victory=victory,
        discarded=discarded,
    )
    events: list[Event] = [event]
    if ties and state.managed:
        # Draw against the round as this reveal leaves it.
        after = Round(
            number=rnd.number,
            plays=rnd.plays,
            bonuses=rnd.bonuses,
            revealed=True,
            beats=[(w, lo) for w, lo in beats],
            winners=list(winners),
            settled=set(victory) | set(discarded),
        )
        after.fate.pending = [(a, b) for a, b in ties]
        events.extend(draw_managed(state, conflict, after, discarded, shuffle))
    return events


def token_moves(
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
        in_conflict = bonus.by in conflict.sides
        opponent = opposition.opponent_of(conflict, bonus.by) if in_conflict else None
        if own is None or opponent is None:
            to, why = "out_of_play", f"{bonus.by} has no card in this conflict"
        elif not conflict.sides[opponent].gm:
            to, why = "out_of_play", f"{bonus.by}'s opponent {opponent} is a protagonist"
        elif opponent not in cards:
            to, why = "out_of_play", f"{bonus.by}'s opponent {opponent} has no card"
        elif colours_match(own, cards[opponent]):
            to, why = (
                "bank",
                f"{bonus.by}'s {pretty(own)} matches {opponent}'s {pretty(cards[opponent])} "
                "in colour",
            )
        else:
            to, why = (
                "out_of_play",
                f"{bonus.by}'s {pretty(own)} does not match {opponent}'s "
                f"{pretty(cards[opponent])} in colour",
            )
        moves.append(TokenMove(source="table", to=to, count=bonus.count, reason=why))
    return moves
