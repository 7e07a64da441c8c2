"""Improv's sealed plays (option `sealed_plays`): a face-down card stored as a commitment,
opened by its owner once every side of the round has played, checked against the commitment
(rules/sealing.py), and only then revealed.

Stated rule for a missing opening: the GM may set a deadline for the round's openings
(`improv deadline`); once it has passed, the GM may declare a side that has not opened its
card forfeit (`improv forfeit`): its card counts as the lowest card there is (a 2 of the
lowest suit of `suit_order`), so it loses every comparison its bonuses do not turn. Before
the deadline, or without one, the forfeit is refused: no campaign waits forever, and no
player loses a round to a GM in a hurry.
"""

from __future__ import annotations

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules import sealing
from tablelog.rulesets.improv.events import (
    CardOpened,
    CardSealed,
    OpeningDeadlineSet,
    OpeningForfeited,
)
from tablelog.rulesets.improv.rules import lookup
from tablelog.rulesets.improv.rules.cards import parse_card
from tablelog.rulesets.improv.rules.commands import (
    ForfeitOpening,
    OpenCard,
    PlayCard,
    SetOpeningDeadline,
)
from tablelog.rulesets.improv.rules.evolve_conflict import round_of
from tablelog.rulesets.improv.rules.state import Conflict, ImprovState, Play, Round, Side

MAX_MINUTES = sealing.MAX_DEADLINE_MINUTES


def lowest_card(state: ImprovState) -> str:
    return f"2{state.options.suit_order[0]}"


def seal(state: ImprovState, conflict: Conflict, side: Side, number: int, cmd: PlayCard) -> Event:
    """The sealed form of a recorded play: the commitment, never the card."""
    if cmd.card is not None or cmd.from_deck:
        raise InvalidInput(
            "this campaign seals its plays: send the card's commitment (the CLI makes it), "
            "never the card, until the reveal",
            code="sealed-play",
        )
    if cmd.commitment is None:
        raise InvalidInput(
            "this campaign seals its plays: a play carries the card's commitment",
            code="commitment-required",
        )
    commitment = sealing.parse_commitment(cmd.commitment)
    if cmd.round != number:
        raise RuleViolation(
            f"the sealed play was made for round {cmd.round} of {conflict.key}, whose card now "
            f"goes to round {number}; seal it again",
            code="round-moved",
        )
    return CardSealed(conflict=conflict.key, round=number, side=side.key, commitment=commitment)


def unopened(rnd: Round) -> list[str]:
    """The sides of `rnd` whose sealed card is neither opened nor forfeited."""
    return [key for key, play in rnd.plays.items() if play.sealed and not play.card]


def _sealed_round(state: ImprovState, given: str | None) -> tuple[Conflict, Round]:
    conflict = lookup.conflict(state, given)
    rnd = conflict.current
    if rnd is None or rnd.revealed or not any(p.sealed for p in rnd.plays.values()):
        raise RuleViolation(
            f"conflict {conflict.key} has no sealed card waiting to be opened",
            code="nothing-sealed",
        )
    return conflict, rnd


def open_card(state: ImprovState, cmd: OpenCard) -> list[Event]:
    """Check an opening against its commitment; refused before every side has played, so
    every card is committed before any card is opened."""
    conflict, rnd = _sealed_round(state, cmd.conflict)
    side = lookup.side(conflict, cmd.side)
    play = rnd.plays.get(side.key)
    if play is None or not play.sealed:
        raise RuleViolation(
            f"{side.display} has no sealed card in round {rnd.number} of {conflict.key}",
            code="nothing-sealed",
        )
    if play.card:
        raise RuleViolation(
            f"{side.display}'s card of round {rnd.number} is already "
            f"{'forfeit' if play.forfeited else 'open'}",
            code="already-open",
        )
    waiting = [s.display for s in conflict.still_to_play(rnd)]
    if waiting:
        raise RuleViolation(
            f"cards are opened once every side has played; still to play: {', '.join(waiting)}",
            code="open-too-early",
        )
    card = parse_card(cmd.card)
    salt = sealing.parse_salt(cmd.salt)
    sealing.check_opening(
        play.commitment, state.campaign, conflict.key, rnd.number, side.key, card, salt
    )
    return [
        CardOpened(
            conflict=conflict.key, round=rnd.number, side=side.key, card=card, salt_hex=salt.hex()
        )
    ]


def set_deadline(state: ImprovState, cmd: SetOpeningDeadline) -> list[Event]:
    conflict, rnd = _sealed_round(state, cmd.conflict)
    deadline = sealing.deadline_after(cmd.now, cmd.minutes)
    return [OpeningDeadlineSet(conflict=conflict.key, round=rnd.number, deadline=deadline)]


def forfeit(state: ImprovState, cmd: ForfeitOpening) -> list[Event]:
    conflict, rnd = _sealed_round(state, cmd.conflict)
    side = lookup.side(conflict, cmd.side)
    if side.key not in unopened(rnd):
        raise RuleViolation(
            f"{side.display} has no unopened sealed card in round {rnd.number}",
            code="nothing-to-forfeit",
        )
    set_one = f"`tablelog improv deadline {conflict.key} MINUTES`"
    sealing.check_deadline_passed(rnd.deadline, cmd.now, rnd.number, set_one)
    assert rnd.deadline is not None
    return [
        OpeningForfeited(
            conflict=conflict.key,
            round=rnd.number,
            side=side.key,
            deadline=rnd.deadline,
            at=cmd.now,
        )
    ]


# --- evolve -------------------------------------------------------------------------------


def card_sealed(state: ImprovState, event: CardSealed) -> None:
    rnd = round_of(state.conflicts[event.conflict], event.round)
    rnd.plays[event.side] = Play(card="", sealed=True, commitment=event.commitment)


def card_opened(state: ImprovState, event: CardOpened) -> None:
    rnd = state.conflicts[event.conflict].rounds[event.round - 1]
    rnd.plays[event.side].card = event.card


def deadline_set(state: ImprovState, event: OpeningDeadlineSet) -> None:
    state.conflicts[event.conflict].rounds[event.round - 1].deadline = event.deadline


def opening_forfeited(state: ImprovState, event: OpeningForfeited) -> None:
    play = state.conflicts[event.conflict].rounds[event.round - 1].plays[event.side]
    play.card, play.forfeited = lowest_card(state), True
