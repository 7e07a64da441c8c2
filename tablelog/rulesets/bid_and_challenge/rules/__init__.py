"""Bid & Challenge (seed 003, the 6d6 RPG wiki): decks of Nd6+M cards, bid / challenge / push.

`decide(state, command, shuffle)` checks a command against the campaign's state and returns the
events it causes, or raises a RuleViolation naming the rule, the value and the limit. What a
command sets in motion (the resolution once the last player declines the challenge or the dice
are rolled, the next round, the scene's end once every player passed in a row) is decided in
the same call.
"""

from __future__ import annotations

from typing import assert_never

from tablelog.events.base import Event
from tablelog.rules.common import EndScene, EndSession, JoinPlayer, StartScene, StartSession
from tablelog.rules.contract import Ruleset, commands_of, lazy
from tablelog.rules.table import decide_table
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import narration, people, resolve, rounds
from tablelog.rulesets.bid_and_challenge.rules.cast import CAST
from tablelog.rulesets.bid_and_challenge.rules.evolve import BidAndChallengeEvent, evolve, initial
from tablelog.rulesets.bid_and_challenge.rules.options import BidAndChallengeOptions
from tablelog.rulesets.bid_and_challenge.rules.resolve import Shuffle
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState

BidAndChallengeCommand = (
    JoinPlayer
    | StartSession
    | EndSession
    | StartScene
    | EndScene
    | c.RegisterDeck
    | c.AddUniverseCard
    | c.KillCharacter
    | c.OpenScene
    | c.Bid
    | c.Pass
    | c.Challenge
    | c.Push
    | c.Roll
    | c.CloseScene
    | c.Narrate
)


def decide(
    state: BidAndChallengeState, command: BidAndChallengeCommand, shuffle: Shuffle
) -> list[Event]:
    match command:
        case JoinPlayer():
            return people.join(state, command)
        case StartSession() | EndSession() | StartScene() | EndScene():
            return decide_table(state.table, command)
        case c.RegisterDeck():
            return people.register_deck(state, command)
        case c.AddUniverseCard():
            return people.add_universe_card(state, command)
        case c.KillCharacter():
            return people.kill(state, command)
        case c.OpenScene():
            return rounds.open_scene(state, command)
        case c.Bid():
            return rounds.bid(state, command)
        case c.Pass():
            return rounds.pass_(state, command)
        case c.Challenge():
            return rounds.challenge(state, command)
        case c.Push():
            return rounds.push(state, command)
        case c.Roll():
            return resolve.roll(state, command, shuffle)
        case c.CloseScene():
            return rounds.close_scene(state, command)
        case c.Narrate():
            return narration.narrate(state, command)
        case _:
            assert_never(command)


RULESET = Ruleset[BidAndChallengeState](
    name="bid-and-challenge",
    options_type=BidAndChallengeOptions,
    state_type=BidAndChallengeState,
    initial=initial,
    evolve=evolve,
    decide=decide,
    cast=CAST,
    table=lambda state: state.table,
    commands=commands_of(BidAndChallengeCommand),
    # 2: the winner's narration in its round; option empty_deck (a state without it was
    # folded from a campaign created before it, whose rule is active-may-pass)
    version=2,
    demo=lazy("tablelog.rulesets.bid_and_challenge.rules.demo", "demo"),
)

__all__ = [
    "RULESET",
    "BidAndChallengeCommand",
    "BidAndChallengeEvent",
    "BidAndChallengeState",
    "decide",
    "evolve",
]
