"""Abandoning a conflict (rules/improv.md §2): the GM's way out of one that cannot go on.

Nobody wins. The face-down cards of an unfinished round are turned up, and every played card
not yet settled and every victory card is discarded. Tokens on those cards go where a round's
clean-up sends them (§3: the GM's to the pool, a player's to the bank when its card matches its
direct opponent's in colour, else out of play), and the bank's tokens from this conflict go to
the GM as at any close. Managed hands are refilled as at any close. The conflict is then closed:
the session can end.
"""

from __future__ import annotations

from tablelog.errors import RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.improv.events import ConflictClosed, TokenMove
from tablelog.rulesets.improv.rules import lookup
from tablelog.rulesets.improv.rules.commands import Abandon
from tablelog.rulesets.improv.rules.decks import DeckWork, Shuffle
from tablelog.rulesets.improv.rules.finale import rounds_done
from tablelog.rulesets.improv.rules.reveal import token_moves
from tablelog.rulesets.improv.rules.state import Conflict, ImprovState


def abandon(state: ImprovState, cmd: Abandon, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    reason = lookup.text_of(cmd.reason, "the reason for abandoning")
    if conflict.stakes_closed and rounds_done(conflict):
        raise RuleViolation(
            f"conflict {conflict.key} has played all its rounds and can be closed; "
            f"`tablelog improv close {conflict.key}` decides its outcome",
            code="abandon-finished",
        )
    rnd = conflict.current
    turned_up: dict[str, str] = {}
    moves: list[TokenMove] = []
    if rnd is not None and not rnd.revealed:
        # A sealed card nobody opened stays unknown: it is not turned up (sealed.py).
        turned_up = {side: play.card for side, play in rnd.plays.items() if play.card}
        moves = token_moves(state, conflict, rnd, turned_up)
    banked = conflict.banked + sum(m.count for m in moves if m.to == "bank")
    if banked:
        moves.append(
            TokenMove(
                source="bank",
                to="gm",
                count=banked,
                reason=f"conflict {conflict.key}'s banked tokens go to the GM",
            )
        )
    gone = _discarded(state, conflict)
    events: list[Event] = [
        ConflictClosed(
            conflict=conflict.key,
            beats=[],
            token_moves=moves,
            abandoned=True,
            reason=reason,
            cards=turned_up,
            discarded={side: [card for _deck, card in cards] for side, cards in gone.items()},
        )
    ]
    if state.managed and conflict.stakes_closed:
        events.extend(_refill(state, conflict, gone, shuffle))
    return events


def _discarded(state: ImprovState, conflict: Conflict) -> dict[str, list[tuple[str, str]]]:
    """Every card the abandon discards, per side, with the deck it goes back to: the victory
    piles, then the played cards no reveal has settled (an unfinished round, a pending tie)."""
    gone: dict[str, list[tuple[str, str]]] = {}
    for side in conflict.sides.values():
        home = state.deck_of(lookup.owner(side))
        for pile_card in side.victory:
            gone.setdefault(side.key, []).append((pile_card.deck or home, pile_card.card))
    for rnd in conflict.rounds:
        for key, play in rnd.plays.items():
            if key not in rnd.settled and play.card:
                home = state.deck_of(lookup.owner(conflict.sides[key]))
                gone.setdefault(key, []).append((play.deck or home, play.card))
    return gone


def _refill(
    state: ImprovState,
    conflict: Conflict,
    gone: dict[str, list[tuple[str, str]]],
    shuffle: Shuffle,
) -> list[Event]:
    work = DeckWork(state, shuffle)
    for cards in gone.values():
        for deck, card in cards:
            work.discard(deck, [card])
    owners = sorted({lookup.owner(conflict.sides[s]) for r in conflict.rounds for s in r.plays})
    for owner in owners:
        missing = state.hand_size(owner) - len(state.hands.get(owner, []))
        if missing > 0:
            work.deal(state.deck_of(owner), owner, missing, reason="refill")
    return work.events
