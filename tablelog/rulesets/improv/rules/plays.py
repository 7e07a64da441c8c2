"""Deciding a face-down card: which round it belongs to, the checks the first card makes,
and where a card comes from (recorded; a managed hand; blind from the top of a deck)."""

from __future__ import annotations

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.improv.events import CardPlayed
from tablelog.rulesets.improv.rules import lookup, opposition, sealed
from tablelog.rulesets.improv.rules.cards import parse_card
from tablelog.rulesets.improv.rules.commands import PlayCard
from tablelog.rulesets.improv.rules.decks import DeckWork, Shuffle
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState, Side


def _round_to_play(conflict: Conflict) -> int:
    rnd = conflict.current
    if rnd is None:
        return 1
    if not rnd.revealed:
        return rnd.number
    if rnd.fate.pending or rnd.fate.choices_due:
        waiting = [f"{a} and {b} draw tie-breakers (--draw CARD)" for a, b in rnd.fate.pending]
        waiting += [_choice_due(conflict, side) for side in rnd.fate.choices_due]
        raise RuleViolation(
            f"round {rnd.number} of conflict {conflict.key} waits for the Hand of Fate: "
            f"{'; '.join(waiting)} (`tablelog improv fate {conflict.key} SIDE ...`)",
            code="fate-pending",
        )
    if rnd.number >= conflict.planned_rounds:
        raise RuleViolation(
            f"conflict {conflict.key} has played all its {conflict.planned_rounds} round(s); "
            "give, narrate and close it",
            code="rounds-done",
        )
    return rnd.number + 1


def _choice_due(conflict: Conflict, side: str) -> str:
    if conflict.sides[side].fate_losses >= 2:
        # Only a log written before second losses destroyed on their own waits like this.
        return f"{side} lost a second time and is destroyed (--stay records it)"
    return f"{side} chooses --eliminate or --stay"


def _close_stakes(state: ImprovState, conflict: Conflict) -> None:
    """Checks made when the first card closes the stake phase."""
    protagonists, gm_stakes = conflict.protagonists(), conflict.gm_stakes()
    if not protagonists:
        raise RuleViolation(
            f"conflict {conflict.key} has no protagonist; every conflict includes at least one",
            code="no-protagonist",
        )
    if len(gm_stakes) > len(protagonists):
        raise RuleViolation(
            f"the GM may have at most {len(protagonists)} stake(s) here (one per "
            f"protagonist taking part); {len(gm_stakes)} set",
            code="gm-stake-limit",
        )
    for side in protagonists:
        if opposition.opponent_of(conflict, side.key) is None:
            raise RuleViolation(
                f"{side.display} opposes no side; set its stake with --opposes",
                code="no-opponent",
            )


def play_card(state: ImprovState, cmd: PlayCard, shuffle: Shuffle) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    side = lookup.side(conflict, cmd.side)
    number = _round_to_play(conflict)
    if number == 1 and not conflict.stakes_closed:
        _close_stakes(state, conflict)
    if side.status != "in":
        raise RuleViolation(
            f"{side.display} is {side.status} and plays no more cards", code="side-out"
        )
    rnd = conflict.rounds[number - 1] if len(conflict.rounds) >= number else None
    if rnd is not None and side.key in rnd.plays:
        raise RuleViolation(
            f"{side.display} already played a card in round {number}; one card per side per round",
            code="second-card",
        )
    if cmd.commitment is not None and not state.options.sealed_plays:
        raise InvalidInput(
            "this campaign does not seal its plays (option sealed_plays); name the card",
            code="not-sealed",
        )
    if state.options.sealed_plays:
        return [sealed.seal(state, conflict, side, number, cmd)]
    if not state.managed:
        if cmd.from_deck and not side.gm:
            raise RuleViolation(
                "only the GM may play blind from the top of the GM deck; a player plays from hand",
                code="player-blind",
            )
        if cmd.card is None:
            raise InvalidInput(
                "name the card played (recorded mode: the card dealt at the table)",
                code="card-required",
            )
        return [
            CardPlayed(
                conflict=conflict.key,
                round=number,
                side=side.key,
                card=parse_card(cmd.card),
                from_deck=cmd.from_deck,
            )
        ]
    return _managed(state, conflict, side, number, cmd, shuffle)


def _managed(
    state: ImprovState, conflict: Conflict, side: Side, number: int, cmd: PlayCard, shuffle: Shuffle
) -> list[Event]:
    """A managed play: a card from the owner's hand, or blind from the top of its deck (the
    GM's `--from-deck`, or anyone whose hand is empty: then nobody sees the card, its owner
    included, until the reveal). An empty hand never leaves a conflict stuck."""
    owner = lookup.owner(side)
    hand = state.hands.get(owner, [])
    deck = state.deck_of(owner)
    play = f"`tablelog improv play {conflict.key} {side.key}`"
    if cmd.from_deck and not side.gm and hand:
        raise RuleViolation(
            f"only the GM may play blind from the top of the GM deck; {_who(owner)} holds "
            f"{len(hand)} card(s) and plays from hand (a player plays blind only when its hand "
            "is empty)",
            code="player-blind",
        )
    if cmd.from_deck or (cmd.card is None and not hand):
        if cmd.card is not None:
            raise InvalidInput("--from-deck plays the top card blind; name no card", code="blind")
        work = DeckWork(state, shuffle)
        card = work.take(deck)
        if card is None:
            raise RuleViolation(
                f"the {deck} deck and its discards are empty; the GM may abandon the conflict "
                f"(`tablelog improv abandon {conflict.key} --reason TEXT`)",
                code="deck-empty",
            )
        return [
            *work.events,
            CardPlayed(
                conflict=conflict.key,
                round=number,
                side=side.key,
                card=card,
                from_deck=True,
                deck=deck,
                unseen=not hand,
            ),
        ]
    if cmd.card is None:
        raise InvalidInput(
            f"name the card to play from {_who(owner)}'s hand ({len(hand)} card(s): "
            f"{', '.join(hand)})",
            code="card-required",
        )
    card = parse_card(cmd.card)
    if not hand:
        raise RuleViolation(
            f"{_who(owner)}'s hand is empty, so {side.display} plays blind: the top card of the "
            f"{deck} deck, face down, unseen by anyone; name no card ({play})",
            code="hand-empty",
        )
    if card not in hand:
        raise RuleViolation(
            f"{card} is not in {_who(owner)}'s hand ({', '.join(hand)})", code="not-in-hand"
        )
    return [CardPlayed(conflict=conflict.key, round=number, side=side.key, card=card)]


def _who(owner: str) -> str:
    return "the GM" if owner == GM else owner
