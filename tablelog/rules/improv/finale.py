"""Deciding a conflict's end: victory-card gifts, narration, closing and the final victory."""

from __future__ import annotations

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.events.improv import ConflictClosed, FinalPair, Narrated, TokenMove, VictoryCardGiven
from tablelog.rules.improv import lookup, opposition
from tablelog.rules.improv.cards import card_key, parse_card, pretty
from tablelog.rules.improv.commands import Close, Give, Narrate
from tablelog.rules.improv.decks import DeckWork, Shuffle
from tablelog.rules.improv.state import GM, Conflict, ImprovState, Side


def _rounds_done(conflict: Conflict) -> bool:
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
    if not _rounds_done(conflict):
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
    """Between direct opponents: the larger pile wins; equal sizes compare cards from the
    highest down (unmodified value, then suit); all equal: nobody beats anybody."""
    options = state.options
    pairs: list[FinalPair] = []
    for a, b in opposition.direct_pairs(conflict):
        side_a, side_b = conflict.sides[a], conflict.sides[b]
        pile_a = sorted(
            (p.card for p in side_a.victory),
            reverse=True,
            key=lambda c: card_key(
                c, joker_value=options.joker_value, suit_order=options.suit_order
            ),
        )
        pile_b = sorted(
            (p.card for p in side_b.victory),
            reverse=True,
            key=lambda c: card_key(
                c, joker_value=options.joker_value, suit_order=options.suit_order
            ),
        )
        winner: str | None
        if side_a.status != "in" or side_b.status != "in":
            out = [s for s in (side_a, side_b) if s.status != "in"]
            winner = None if len(out) == 2 else (b if side_a.status != "in" else a)
            rule = f"{out[0].key} is {out[0].status}: it loses its stakes"
        elif len(pile_a) != len(pile_b):
            winner = a if len(pile_a) > len(pile_b) else b
            rule = (
                f"larger victory pile: {max(len(pile_a), len(pile_b))} cards to "
                f"{min(len(pile_a), len(pile_b))}"
            )
        else:
            winner, rule = None, f"equal piles of {len(pile_a)}, every card equal: nobody wins"
            for card_a, card_b in zip(pile_a, pile_b, strict=True):
                key_a = card_key(
                    card_a, joker_value=options.joker_value, suit_order=options.suit_order
                )
                key_b = card_key(
                    card_b, joker_value=options.joker_value, suit_order=options.suit_order
                )
                if key_a != key_b:
                    winner = a if key_a > key_b else b
                    rule = (
                        f"equal piles of {len(pile_a)}: highest differing card "
                        f"{pretty(card_a if winner == a else card_b)} beats "
                        f"{pretty(card_b if winner == a else card_a)}"
                    )
                    break
        pairs.append(
            FinalPair(
                first=a, second=b, first_pile=pile_a, second_pile=pile_b, winner=winner, rule=rule
            )
        )
    return pairs


def close(state: ImprovState, cmd: Close, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    if not conflict.stakes_closed:
        # No card is down yet: the conflict simply ends (opened by mistake, stakes to redo).
        return [ConflictClosed(conflict=conflict.key, beats=[], abandoned=True)]
    if not _rounds_done(conflict):
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
    owners = sorted(
        {
            lookup.owner(conflict.sides[s])
            for r in conflict.rounds
            for s, p in r.plays.items()
            if not p.from_deck
        }
        | ({GM} if any(p.from_deck for r in conflict.rounds for p in r.plays.values()) else set())
    )
    for owner in owners:
        missing = state.hand_size(owner) - len(state.hands.get(owner, []))
        if missing > 0:
            work.deal(state.deck_of(owner), owner, missing, reason="refill")
    return work.events
