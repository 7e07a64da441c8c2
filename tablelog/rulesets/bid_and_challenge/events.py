"""Bid & Challenge's events (prefix `bc.`): decks of Nd6+M cards, bids, challenges, pushes.

Names of players, characters, cards and details are stored as lower-case keys (`name` keeps the
spelling given). Every die face is stored (rolled by tablelog or recorded from the table), and
what the rules compute from them (each side's total, the winner, where every card goes, the
bid power applied) is stored in the events that resolve the round, so the audit can recompute
it. Nothing is hidden: cards go into Play face up and every roll is public.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from tablelog.events.base import Event, registered

UNIVERSE = "universe"  # the owner of the universe deck's cards
Zone = Literal["deck", "play", "discard"]
MoveReason = Literal["commit", "return", "push_lost", "bid_power"]
PowerType = Literal["restore", "strike", "detail", "universe_card"]
SideName = Literal["active", "challenger"]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """A card prints a dice value: `dice` d6 plus `mod`."""

    card_id: str  # key (lower case), unique within its owner's cards
    name: str
    dice: int
    mod: int


class Power(msgspec.Struct, frozen=True, kw_only=True):
    """The one listed power a bid names, applied if the bid wins.

    restore: `cards` of `target`'s Discard go back to its Deck (at most the bidder's Flow);
    strike: `cards` (one) of `target`'s Deck goes to its Discard; detail: `detail_id` is
    defined as `text`; universe_card: `card` joins the universe deck."""

    type: PowerType
    target: str | None = None
    cards: list[str] = []
    detail_id: str | None = None
    text: str | None = None
    card: Card | None = None


class Committed(msgspec.Struct, frozen=True, kw_only=True):
    card_id: str
    source: Literal["own", "universe"]


class CardRoll(msgspec.Struct, frozen=True, kw_only=True):
    card_id: str
    owner: str
    faces: list[int]
    mod: int


# --- decks and players ---------------------------------------------------------------------


@registered
class PlayerJoined(Event, frozen=True, tag="bc.player_joined"):
    player: str
    display: str


@registered
class DeckRegistered(Event, frozen=True, tag="bc.deck_registered"):
    character_id: str
    name: str
    player_id: str
    flow: int
    cards: list[Card]


@registered
class UniverseCardCreated(Event, frozen=True, tag="bc.universe_card_created"):
    card_id: str
    name: str
    dice: int
    mod: int
    by: str
    via_round: int | None = None
    conflict: str | None = None  # the scene whose bid created it


@registered
class CharacterDied(Event, frozen=True, tag="bc.character_died"):
    character_id: str
    text: str = ""


# --- scenes and rounds ---------------------------------------------------------------------


@registered
class SceneStarted(Event, frozen=True, tag="bc.scene_started"):
    conflict: str  # the scene's id (s1, s2, ...): a scene is this ruleset's conflict
    seating: list[str]  # characters, clockwise: the next active is the next in the list
    starting_player: str
    requested_by: str
    premise: str = ""


@registered
class RoundStarted(Event, frozen=True, tag="bc.round_started"):
    conflict: str
    round: int
    active: str


@registered
class BidMade(Event, frozen=True, tag="bc.bid_made"):
    conflict: str
    round: int
    active: str
    description: str
    power: Power
    cards: list[str]


@registered
class Passed(Event, frozen=True, tag="bc.passed"):
    conflict: str
    round: int
    player: str
    passes: int  # passes in a row, this one included


@registered
class ChallengeDeclined(Event, frozen=True, tag="bc.challenge_declined"):
    conflict: str
    round: int
    player: str


@registered
class ChallengeMade(Event, frozen=True, tag="bc.challenge_made"):
    conflict: str
    round: int
    challenger: str
    description: str
    cards: list[Committed]
    power: Power | None = None  # only with option challenger_power


@registered
class Pushed(Event, frozen=True, tag="bc.pushed"):
    conflict: str
    round: int
    active: str
    revised_description: str
    cards: list[str]


@registered
class DiceRolled(Event, frozen=True, tag="bc.dice_rolled"):
    conflict: str
    round: int
    side: SideName
    character: str
    rolls: list[CardRoll]
    total: int


@registered
class RoundResolved(Event, frozen=True, tag="bc.round_resolved"):
    conflict: str
    round: int
    winner: str
    loser: str | None  # None: the bid was not challenged
    active_total: int | None
    challenger_total: int | None
    rule: str  # the rule that decided it, in words
    power_applied: bool
    # What of the winner's power could not be done, in words ("" when all of it was): another
    # open scene moved its card, or defined its detail or universe card, since the bid.
    power_void: str = ""


@registered
class CardMoved(Event, frozen=True, tag="bc.card_moved"):
    conflict: str
    card_id: str
    owner: str  # a character, or `universe`
    from_: Zone = msgspec.field(name="from")
    to: Zone
    reason: MoveReason


@registered
class DetailDefined(Event, frozen=True, tag="bc.detail_defined"):
    conflict: str
    detail_id: str
    text: str
    by: str


@registered
class Narrated(Event, frozen=True, tag="bc.narrated"):
    """The winner of a decided round says what happens ("The winner narrates the details")."""

    conflict: str
    round: int
    player: str  # the winning character
    text: str


@registered
class SceneEnded(Event, frozen=True, tag="bc.scene_ended"):
    conflict: str
    reason: str  # "all passed", or the GM's words
