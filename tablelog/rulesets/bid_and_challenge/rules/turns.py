"""Whose turn it is: the next active player after a round, the starting player, and when a
scene ends because every player passed in a row or nobody can be active.

The seed: "While you have no deck, you cannot be an active player." With option
`empty_deck=passed-over` (the default) the turn passes over a seat whose Deck is empty, and
only the seats that can be active count toward "all players pass consecutively"; with
`active-may-pass` (campaigns created before issue 26) such a seat is active and may only pass.
What is decided here is recorded in the events (`RoundStarted.active`, `Passed.passes`,
`SceneEnded`), and the audit decides it again with the same functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tablelog.events.base import Event
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Scene, next_active

ALL_PASSED = "every player passed in a row"
ALL_ABLE_PASSED = "every player with a Deck passed in a row"
NO_DECK = "no seated player has a card in Deck"


def passed_over(state: BidAndChallengeState) -> bool:
    return state.options.empty_deck == "passed-over"


def with_deck(
    state: BidAndChallengeState, seats: Iterable[str], moves: Sequence[Event] = ()
) -> set[str]:
    """The seats with a card in Deck once `moves` (card moves not yet folded in) are made."""
    zones = {key: dict(state.characters[key].zones) for key in seats}
    for move in moves:
        if isinstance(move, ev.CardMoved) and move.owner in zones:
            zones[move.owner][move.card_id] = move.to
    return {key for key, where in zones.items() if "deck" in where.values()}


def first_able(
    seating: Sequence[str], after: str, able: set[str], *, inclusive: bool
) -> str | None:
    """The first seat with a Deck going left (down the list) from `after`, or None."""
    at = seating.index(after)
    steps = range(0, len(seating)) if inclusive else range(1, len(seating) + 1)
    return next((s for k in steps if (s := seating[(at + k) % len(seating)]) in able), None)


def starting(state: BidAndChallengeState, seating: Sequence[str], asked: str) -> str | None:
    """Who starts a scene when `asked` should: `asked`, else (its Deck empty, option
    passed-over) the next seat with a Deck; None when no seat has one."""
    if not passed_over(state):
        return asked
    return first_able(seating, asked, with_deck(state, seating), inclusive=True)


def after_round(
    state: BidAndChallengeState, scene: Scene, moves: Sequence[Event]
) -> ev.RoundStarted | ev.SceneEnded:
    """What follows a decided round, its cards moved by `moves`: the next round, with the
    player on the active player's left (the next with a Deck), or the scene's end."""
    rnd = scene.current
    if not passed_over(state):
        following = next_active(scene.seating, rnd.active)
    else:
        able = with_deck(state, scene.seating, moves)
        found = first_able(scene.seating, rnd.active, able, inclusive=False)
        if found is None:
            return ev.SceneEnded(conflict=scene.key, reason=NO_DECK)
        following = found
    return ev.RoundStarted(conflict=scene.key, round=rnd.number + 1, active=following)


def after_pass(state: BidAndChallengeState, scene: Scene, player: str) -> list[Event]:
    """The active player's pass (`passes`: in a row, this one included) and what follows it:
    the next round, or the scene's end once every player who can be active has passed."""
    rnd = scene.current
    if not passed_over(state):
        passes = scene.passes + 1
        passed = ev.Passed(conflict=scene.key, round=rnd.number, player=player, passes=passes)
        if passes >= len(scene.seating):
            return [passed, ev.SceneEnded(conflict=scene.key, reason=ALL_PASSED)]
        following = next_active(scene.seating, rnd.active)
        return [passed, ev.RoundStarted(conflict=scene.key, round=rnd.number + 1, active=following)]
    able = with_deck(state, scene.seating)
    # A seat whose Deck another scene emptied while it was active passes, but cannot be
    # active: its pass does not count.
    passes = scene.passes + (1 if player in able else 0)
    passed = ev.Passed(conflict=scene.key, round=rnd.number, player=player, passes=passes)
    found = first_able(scene.seating, rnd.active, able, inclusive=False)
    if found is None:
        return [passed, ev.SceneEnded(conflict=scene.key, reason=NO_DECK)]
    if passes >= len(able):
        return [passed, ev.SceneEnded(conflict=scene.key, reason=ALL_ABLE_PASSED)]
    return [passed, ev.RoundStarted(conflict=scene.key, round=rnd.number + 1, active=found)]
