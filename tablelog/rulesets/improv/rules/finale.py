"""Deciding a conflict's end: victory-card gifts, narration, closing and the final victory."""

from __future__ import annotations

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.improv.events import (
    ConflictClosed,
    FinalPair,
    Narrated,
    TokenMove,
    VictoryCardGiven,
)
from tablelog.rulesets.improv.rules import lookup, opposition
from tablelog.rulesets.improv.rules.cards import card_key, parse_card, pretty, value
from tablelog.rulesets.improv.rules.commands import Close, Give, Narrate
from tablelog.rulesets.improv.rules.decks import DeckWork, Shuffle
from tablelog.rulesets.improv.rules.state import Conflict, ImprovState, Side


def rounds_done(conflict: Conflict) -> bool:
    last = conflict.current
    return (
        last is not None
        and last.revealed
        and last.number >= conflict.planned_rounds
        and not last.fate.pending
        and not last.fate.choices_due
    )


def give(state: ImprovState, cmd: Give, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    if conflict.kind != "extended":
        raise RuleViolation(
            "victory cards are given only in extended conflicts", code="give-simple"
        )
    if not rounds_done(conflict):
        raise RuleViolation(
            f"victory cards are given after the last round of conflict {conflict.key} is "
            "revealed and settled",
            code="give-timing",
        )
    giver, receiver = lookup.side(conflict, cmd.giver), lookup.side(conflict, cmd.receiver)
    if giver.key == receiver.key:
        raise RuleViolation(f"{giver.display} cannot give a card to itself", code="give-self")
    if receiver.status != "in":
        raise RuleViolation(
            f"{receiver.display} is {receiver.status} and left the conflict", code="side-out"
        )
    if giver.final_narration:
        raise RuleViolation(
            f"{giver.display} has narrated its final outcome and may no longer give",
            code="give-after-narration",
        )
    if giver.status == "eliminated":
        raise RuleViolation(
            f"{giver.display} was eliminated with its victory cards", code="side-out"
        )
    destroyed = giver.status == "destroyed"
    if not destroyed and giver.gifts_given:
        raise RuleViolation(
            f"{giver.display} already gave a victory card; each participant gives exactly one",
            code="give-once",
        )
    if cmd.random:
        return _random_gift(state, conflict, giver, receiver, cmd, shuffle)
    if cmd.card is None:
        raise InvalidInput("name the victory card to give, or --random", code="card-required")
    card = parse_card(cmd.card)
    if not giver.victory:
        why = (
            "a destroyed side with none gives one card from its deck with --random"
            if destroyed
            else "a side keeps its card only when it beats a direct opponent"
        )
        raise RuleViolation(
            f"{giver.display} holds no victory card ({why}); nothing to give",
            code="no-victory-card",
        )
    pile = [p for p in giver.victory if p.card == card]
    if not pile:
        held = ", ".join(p.card for p in giver.victory) or "none"
        raise RuleViolation(
            f"{card} is not in {giver.display}'s victory pile ({held})", code="not-in-pile"
        )
    if not destroyed and not any(p.own for p in pile):
        raise RuleViolation(
            f"{giver.display} received {card}; only a card it won itself may be given",
            code="give-received",
        )
    return [
        VictoryCardGiven(conflict=conflict.key, giver=giver.key, receiver=receiver.key, card=card)
    ]


def _random_gift(
    state: ImprovState,
    conflict: Conflict,
    giver: Side,
    receiver: Side,
    cmd: Give,
    shuffle: Shuffle,
) -> list[Event]:
    """A destroyed side with no victory cards gives one card from the top of its deck."""
    if giver.status != "destroyed" or giver.victory or giver.gifts_given:
        raise RuleViolation(
            "only a destroyed side with no victory cards gives a random card from its deck, once",
            code="give-random",
        )
    events: list[Event] = []
    if state.managed:
        work = DeckWork(state, shuffle)
        card = work.take(state.deck_of(lookup.owner(giver)))
        if card is None:
            raise RuleViolation("the deck is empty; no random card can be given", code="deck-empty")
        events.extend(work.events)  # a reshuffle the draw needed comes first
    else:
        if cmd.card is None:
            raise InvalidInput(
                "recorded mode: name the card drawn at the table", code="card-required"
            )
        card = parse_card(cmd.card)
    events.append(
        VictoryCardGiven(
            conflict=conflict.key, giver=giver.key, receiver=receiver.key, card=card, random=True
        )
    )
    return events


def narrate(state: ImprovState, cmd: Narrate) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    side = lookup.side(conflict, cmd.side)
    text = lookup.text_of(cmd.text, "narration")
    return [Narrated(conflict=conflict.key, side=side.key, text=text, final=cmd.final)]


def final_pairs(state: ImprovState, conflict: Conflict) -> list[FinalPair]:
    """Between direct opponents: the larger pile wins; equal sizes compare the unmodified card
    values from the highest down ("the high card-values in each set determines the winner":
    K, 5 beats K, 4 whatever the suits); only when every value is equal do suits decide,
    highest card first; all equal: nobody beats anybody."""
    pairs: list[FinalPair] = []
    for a, b in opposition.direct_pairs(conflict):
        side_a, side_b = conflict.sides[a], conflict.sides[b]
        pile_a, pile_b = _ordered(state, side_a), _ordered(state, side_b)
        winner: str | None
        if side_a.status != "in" or side_b.status != "in":
            out = [s for s in (side_a, side_b) if s.status != "in"]
            winner = None if len(out) == 2 else (b if side_a.status != "in" else a)
            rule = f"{out[0].key} is {out[0].status}: it loses its stakes"
        elif len(pile_a) != len(pile_b):
            winner = a if len(pile_a) > len(pile_b) else b
            more, fewer = max(len(pile_a), len(pile_b)), min(len(pile_a), len(pile_b))
            rule = f"larger victory pile: {more} card{'s' if more != 1 else ''} to {fewer}"
        else:
            first, rule = _equal_piles(state, pile_a, pile_b)
            winner = None if first is None else a if first else b
        pairs.append(
            FinalPair(
                first=a, second=b, first_pile=pile_a, second_pile=pile_b, winner=winner, rule=rule
            )
        )
    return pairs


def _ordered(state: ImprovState, side: Side) -> list[str]:
    """A victory pile from its highest card down (value, then suit)."""
    o = state.options
    return sorted(
        (p.card for p in side.victory),
        reverse=True,
        key=lambda c: card_key(c, joker_value=o.joker_value, suit_order=o.suit_order),
    )


def _equal_piles(
    state: ImprovState, pile_a: list[str], pile_b: list[str]
) -> tuple[bool | None, str]:
    """(True: the first pile wins, False: the second, None: nobody) and the rule that said so."""
    o = state.options
    size = f"equal piles of {len(pile_a)}"
    values_a = [value(c, o.joker_value) for c in pile_a]
    values_b = [value(c, o.joker_value) for c in pile_b]
    for card_a, card_b, value_a, value_b in zip(pile_a, pile_b, values_a, values_b, strict=True):
        if value_a != value_b:
            won, lost = (card_a, card_b) if value_a > value_b else (card_b, card_a)
            return value_a > value_b, (
                f"{size}: card values compared from the highest, {pretty(won)} "
                f"({max(value_a, value_b)}) beats {pretty(lost)} ({min(value_a, value_b)}); "
                "suits count only when every value is equal"
            )
    for card_a, card_b in zip(pile_a, pile_b, strict=True):
        key_a = card_key(card_a, joker_value=o.joker_value, suit_order=o.suit_order)
        key_b = card_key(card_b, joker_value=o.joker_value, suit_order=o.suit_order)
        if key_a != key_b:
            won, lost = (card_a, card_b) if key_a > key_b else (card_b, card_a)
            return key_a > key_b, (
                f"{size}, every value equal: {pretty(won)} beats {pretty(lost)} on suit "
                f"(order {o.suit_order}, a Joker above every suit)"
            )
    return None, f"{size}, every card equal"


def close(state: ImprovState, cmd: Close, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    if not conflict.stakes_closed:
        # No card is down yet: the conflict simply ends (opened by mistake, stakes to redo).
        return [ConflictClosed(conflict=conflict.key, beats=[], abandoned=True)]
    if not rounds_done(conflict):
        done = sum(
            1
            for r in conflict.rounds
            if r.revealed and not r.fate.pending and not r.fate.choices_due
        )
        raise RuleViolation(
            f"conflict {conflict.key} is not finished: {done} of {conflict.planned_rounds} "
            "round(s) revealed and settled",
            code="close-timing",
        )
    final: list[FinalPair] = []
    beats = [list(b) for b in conflict.beats]
    if conflict.kind == "extended":
        final = final_pairs(state, conflict)
        beats = [
            [p.winner, p.second if p.winner == p.first else p.first]
            for p in final
            if p.winner is not None
        ]
    moves = []
    if conflict.banked:
        # Only this conflict's tokens: another open conflict's stay in the bank until it closes.
        moves.append(
            TokenMove(
                source="bank",
                to="gm",
                count=conflict.banked,
                reason=f"conflict {conflict.key}'s banked tokens go to the GM",
            )
        )
    events: list[Event] = [
        ConflictClosed(conflict=conflict.key, beats=beats, final=final, token_moves=moves)
    ]
    if state.managed:
        events.extend(_refill(state, conflict, shuffle))
    return events


def _refill(state: ImprovState, conflict: Conflict, shuffle: Shuffle) -> list[Event]:
    """Every participant who played draws back to a full hand."""
    work = DeckWork(state, shuffle)
    for side in conflict.sides.values():  # the piles are discarded by the close itself
        for pile_card in side.victory:
            if pile_card.deck is not None:
                work.discard(pile_card.deck, [pile_card.card])
    # Whoever played, from hand or blind (a blind card comes from its owner's deck).
    owners = sorted({lookup.owner(conflict.sides[s]) for r in conflict.rounds for s in r.plays})
    for owner in owners:
        missing = state.hand_size(owner) - len(state.hands.get(owner, []))
        if missing > 0:
            work.deal(state.deck_of(owner), owner, missing, reason="refill")
    return work.events
