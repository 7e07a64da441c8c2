"""The Hand of Fate: tie-breakers for exact ties, their resolution, and the loser's choice.

Draws are aligned by attempt: a side tied with several opponents draws once per attempt and
that card counts in each of its pairs. A pair is decided at the first attempt whose two cards
differ (value, then suit; bonuses ignored); until then both sides draw again.
"""

from __future__ import annotations

from typing import Literal

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.improv.events import FateCardDrawn, FateChosen, FateResolved
from tablelog.rulesets.improv.rules import lookup, opposition
from tablelog.rulesets.improv.rules.cards import Outcome, compare, parse_card, value
from tablelog.rulesets.improv.rules.commands import Fate
from tablelog.rulesets.improv.rules.decks import DeckWork, Shuffle
from tablelog.rulesets.improv.rules.state import Conflict, ImprovState, Round

RULE = "tie-breaker cards, bonuses ignored: higher value, then suit"
_MAX_ATTEMPTS = 60  # each attempt takes cards from a 54-card deck; exact ties cannot go on


def settle(
    conflict: Conflict,
    cards: dict[str, str],
    pending: list[list[str]],
    winners: list[str],
    settled: set[str],
) -> tuple[dict[str, str], dict[str, str]]:
    """Where each decided side's card goes: a simple conflict discards every card; an extended
    one puts a winner's card on its victory pile and discards a loser's. Sides still in a
    pending tie wait."""
    victory: dict[str, str] = {}
    discarded: dict[str, str] = {}
    waiting = {side for pair in pending for side in pair}
    for side, card in cards.items():
        if side in settled:
            continue
        if conflict.kind == "simple":
            discarded[side] = card
        elif side in winners:
            victory[side] = card
        elif side not in waiting:
            discarded[side] = card
    return victory, discarded


def pair_outcome(
    state: ImprovState, first: list[str], second: list[str]
) -> tuple[Outcome, int] | None:
    """The first attempt at which two sides' tie-breakers differ, or None (draw again)."""
    jv, order = state.options.joker_value, state.options.suit_order
    for attempt, (a, b) in enumerate(zip(first, second, strict=False)):
        outcome = compare((value(a, jv), a), (value(b, jv), b), suit_order=order)
        if outcome is not Outcome.EXACT_TIE:
            return outcome, attempt
    return None


def _needs_draw(state: ImprovState, rnd: Round, draws: dict[str, list[str]]) -> list[str]:
    """Sides that must draw for the current attempt of an undecided pair."""
    needed: list[str] = []
    for a, b in rnd.fate.pending:
        da, db = draws.get(a, []), draws.get(b, [])
        if pair_outcome(state, da, db) is not None:
            continue
        attempt = min(len(da), len(db))
        for side, drawn in ((a, da), (b, db)):
            if len(drawn) <= attempt and side not in needed:
                needed.append(side)
    return needed


def resolve(
    state: ImprovState, conflict: Conflict, rnd: Round, draws: dict[str, list[str]]
) -> list[Event]:
    """FateResolved for every pending pair its draws now decide, with the cards it settles."""
    events: list[Event] = []
    settled = set(rnd.settled)
    beats: list[tuple[str, str]] = list(rnd.beats)
    losses: dict[str, int] = {}  # side -> Hand-of-Fate losses decided here
    owed: dict[str, int] = {}  # side -> choices it owes for this round
    pending = [list(p) for p in rnd.fate.pending]
    cards = {s: p.card for s, p in rnd.plays.items()}
    for a, b in list(pending):
        da, db = draws.get(a, []), draws.get(b, [])
        decided = pair_outcome(state, da, db)
        if decided is None:
            continue
        outcome, attempt = decided
        winner, loser = (a, b) if outcome is Outcome.FIRST else (b, a)
        pending.remove([a, b])
        beats.append((winner, loser))
        victory, discarded = settle(conflict, cards, pending, opposition.winners(beats), settled)
        settled |= set(victory) | set(discarded)
        used = list(zip(da, db, strict=False))[: attempt + 1]
        events.append(
            FateResolved(
                conflict=conflict.key,
                round=rnd.number,
                winner=winner,
                loser=loser,
                draws=[[x, y] if winner == a else [y, x] for x, y in used],
                rule=RULE,
                victory=victory,
                discarded=discarded,
            )
        )
        if conflict.kind == "extended":
            losses[loser] = losses.get(loser, 0) + 1
            owed[loser] = owed.get(loser, rnd.fate.choices_due.count(loser)) + 1
            if conflict.sides[loser].fate_losses + losses[loser] >= 2:
                # A second loss in the same conflict destroys: there is no choice to make.
                events.extend(_destroyed(conflict, rnd, loser) for _ in range(owed[loser]))
                owed[loser] = 0
    return events


def _destroyed(conflict: Conflict, rnd: Round, side: str) -> FateChosen:
    """The side stayed in after its first loss (an eliminated side plays no more), so its
    second loss finds it still in: destroyed."""
    return FateChosen(
        conflict=conflict.key, round=rnd.number, side=side, choice="stay", outcome="destroyed"
    )


def draw_managed(
    state: ImprovState,
    conflict: Conflict,
    rnd: Round,
    discarded_now: dict[str, str],
    shuffle: Shuffle,
) -> list[Event]:
    """Managed decks: each tied side draws from its own deck until every tie is decided.

    `rnd` is the round as the reveal leaves it; `discarded_now` are the cards the reveal just
    discarded, which a reshuffle during the draws must include.
    """
    work = DeckWork(state, shuffle)
    for side, gone in discarded_now.items():
        play = rnd.plays[side]
        work.discard(play.deck or state.deck_of(lookup.owner(conflict.sides[side])), [gone])
    draws: dict[str, list[str]] = {}
    events: list[Event] = []
    for _attempt in range(_MAX_ATTEMPTS):
        needed = _needs_draw(state, rnd, draws)
        if not needed:
            break
        for side in sorted(needed):  # a fixed order: the log must not depend on dict order
            deck = state.deck_of(lookup.owner(conflict.sides[side]))
            card = work.take(deck)
            if card is None:
                raise RuleViolation(
                    f"the {deck} deck is empty; no tie-breaker can be drawn", code="deck-empty"
                )
            work.discard(deck, [card])  # tie-breaker cards are discarded
            events.extend(work.events)
            work.events.clear()
            events.append(
                FateCardDrawn(
                    conflict=conflict.key, round=rnd.number, side=side, card=card, deck=deck
                )
            )
            draws.setdefault(side, []).append(card)
    return events + resolve(state, conflict, rnd, draws)


def fate(state: ImprovState, cmd: Fate) -> list[Event]:
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
    if not any(side.key in pair for pair in rnd.fate.pending):
        raise RuleViolation(
            f"{side.display} has no exact tie waiting for the Hand of Fate", code="no-fate"
        )
    if side.key not in _needs_draw(state, rnd, rnd.fate.draws):
        raise RuleViolation(
            f"{side.display} already drew its tie-breaker; the other side draws now",
            code="fate-drawn",
        )
    card = parse_card(cmd.draw or "")
    drawn = FateCardDrawn(conflict=conflict.key, round=rnd.number, side=side.key, card=card)
    draws = {k: list(v) for k, v in rnd.fate.draws.items()}
    draws.setdefault(side.key, []).append(card)
    return [drawn, *resolve(state, conflict, rnd, draws)]


def _choose(conflict: Conflict, rnd: Round, side: str, choice: str) -> FateChosen:
    if conflict.kind != "extended":
        raise RuleViolation(
            "the loser's choice exists only in extended conflicts", code="fate-simple"
        )
    if side not in rnd.fate.choices_due:
        if conflict.sides[side].status == "destroyed":
            raise RuleViolation(
                f"{side} was destroyed by a second Hand-of-Fate loss; there is no choice to make",
                code="no-fate",
            )
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
