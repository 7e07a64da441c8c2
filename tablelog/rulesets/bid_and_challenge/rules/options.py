"""Bid & Challenge's options: each REC of rules/bid-and-challenge.md as a named option with that
default, recorded in the campaign's creation event.

Options whose REC admits one behaviour only are still recorded: a campaign keeps the meaning it
began with if a later tablelog offers others.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec


class BidAndChallengeOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    # REC: a card is (n d6, +m); a side's total is the sum of every face plus every mod.
    card_value: Literal["nd6+m"] = "nd6+m"
    # REC: after the round every card returns to its origin deck (universe cards to the
    # universe deck), except a losing active player's pushed cards, which go to Discard.
    after_round: Literal["return-to-origin"] = "return-to-origin"
    # REC: a bid nobody challenges succeeds with no roll.
    unchallenged: Literal["succeeds"] = "succeeds"
    # REC: only the first player to accept the offer challenges; the rest are not asked.
    challengers: Literal["first"] = "first"
    # REC: the challenger's win is narrative only; true lets a challenge name one power.
    challenger_power: bool = False
    # REC: a bid commits at least this many cards (an empty deck bars bidding anyway).
    min_bid: Annotated[int, msgspec.Meta(ge=0, le=20)] = 1
    # REC: any card of the Deck may be chosen (6d6 decks are owned sets, not draw piles).
    card_choice: Literal["choose"] = "choose"
    # REC: "rotate" is a `pushed` flag on the card for this round.
    rotate: Literal["pushed-flag"] = "pushed-flag"
    # REC: an ordered seating list; the next active is the next in the list, the challenge
    # offer goes the other way, starting beside the active player.
    seating: Literal["list"] = "list"
    # The seed: "While you have no deck, you cannot be an active player." `passed-over`: the
    # turn passes over a seat whose Deck is empty, a scene starts with the next seat that has
    # one, only the seats that can be active count toward "every player passed in a row", and
    # a scene where no seat has a Deck ends. `active-may-pass`: such a seat is active and may
    # only pass (every seat counts): the rule of every campaign created before issue 26, whose
    # creation event does not name this option (`LEGACY`).
    empty_deck: Literal["passed-over", "active-may-pass"] = "passed-over"
    # Dice are rolled by tablelog (`managed`) or recorded from the table (`recorded`).
    dice: Literal["managed", "recorded"] = "managed"


# What a campaign created before an option existed played by (its creation event lacks it).
LEGACY: dict[str, object] = {"empty_deck": "active-may-pass"}
