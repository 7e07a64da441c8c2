"""Whom a Bid & Challenge table waits on (the contract's `awaiting`), and the page's "Not
acted yet".

Both come from `steps`, by the round's phase: the active player bids or passes; each player
asked, in the challenge order, challenges or passes; the active player may push, then the
dice are rolled (by the active player's command, or recorded by the GM from the table). Each
step is an `Await` (public: which cards are in a Deck is not said) and the label the page's
waiting line has always given it. A character's player acts for it; the GM for its own.
"""

from __future__ import annotations

from typing import NamedTuple

from tablelog.projections.await_step import Await
from tablelog.rules.table import GM
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Scene


class Step(NamedTuple):
    """One awaited step and its words on the page's waiting line."""

    awaits: Await
    label: str


def awaiting(state: BidAndChallengeState) -> list[Await]:
    return [s.awaits for scene in state.open_scenes() for s in scene_steps(state, scene)]


def waiting_line(state: BidAndChallengeState, scene: Scene) -> list[str]:
    """The page's "Not acted yet" for one scene."""
    return [s.label for s in scene_steps(state, scene)]


def scene_steps(state: BidAndChallengeState, scene: Scene) -> list[Step]:
    if scene.status != "open" or not scene.rounds:
        return []
    rnd = scene.current
    active = rnd.active
    recorded = state.options.dice == "recorded"
    record = Step(
        Await(player=GM, what="record the dice rolled", conflict=scene.key),
        "GM: record the dice rolled",
    )
    match rnd.phase:
        case "bid":
            return [_by(state, scene, active, "bid or pass", "bid or pass")]
        case "challenge":
            bidder = state.characters[active].name
            return [
                _by(state, scene, key, f"challenge {bidder}'s bid or pass", "challenge or pass")
                for key in rnd.offers[len(rnd.declined) :]
            ]
        case "push":
            push = _by(state, scene, active, "push, or let the dice roll", "push", optional=True)
            if recorded:
                return [push, record]
            return [push, _by(state, scene, active, "roll the dice", "or roll")]
        case "roll":
            return [record] if recorded else [_by(state, scene, active, "roll the dice", "roll")]
    return []


def _by(
    state: BidAndChallengeState,
    scene: Scene,
    key: str,
    what: str,
    short: str,
    *,
    optional: bool = False,
) -> Step:
    character = state.characters[key]
    mine = character.player in (GM, state.gm)
    seat = GM if mine else character.player
    label = f"{character.name} ({'GM' if mine else character.player}): {short}"
    awaits = Await(
        player=seat, what=what, character=character.name, conflict=scene.key, optional=optional
    )
    return Step(awaits, label)
