"""Night Terrors' events (prefix `nt.`): raise and see with playing cards, Blood/Sweat/Tears.

Names of players and characters are stored as lower-case keys (`display` keeps the spelling
given); cards as canonical codes (`6D`, `10H`, `KS`). Every random fact (a deck's order, the
cards drawn) is stored, and what the rules compute when an action resolves (a raise's value and
trump value, an answer's outcome, fallout and price, a payment's split, who wins) is stored in
the event that resolves it, so the audit can recompute it. A conflict is named by `conflict`
(the field every event of tablelog uses to file an event under its conflict).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from tablelog.events.base import Event, registered

Rank = Literal["K", "Q", "J"]
Suit = Literal["C", "D", "H", "S"]
DrawReason = Literal["session", "scene_reset", "refresh", "conflict", "escalation"]
DiscardReason = Literal["scene_reset", "refresh"]
Outcome = Literal["reversal", "see", "heavy_see", "push"]
Cause = Literal["fallout", "trump_fallout", "price"]
Pool = Literal["blood", "sweat", "tears"]
Consequence = Literal["shock", "crash", "snap"]
LeftReason = Literal["gave", "no_answer", "incapacitated"]


@registered
class PlayerJoined(Event, frozen=True, tag="nt.player_joined"):
    player: str
    display: str


@registered
class CharacterCreated(Event, frozen=True, tag="nt.character_created"):
    """A character is one face card of the deck (which stays in the deck); pools start full."""

    character_id: str
    display: str
    player: str  # its player's key; the GM's for an NPC
    rank: Rank
    suit: Suit


@registered
class DeckShuffled(Event, frozen=True, tag="nt.deck_shuffled"):
    """The deck's new order, top card first: a new deck, the set-aside pile shuffled in when
    the deck ran short, or the pile gone back into the deck at a conflict's end. Nobody but
    the operator sees it (it tells every draw to come)."""

    hidden: ClassVar[tuple[str, ...]] = ("order",)

    order: list[str]
    reason: Literal["new_deck", "ran_out", "conflict_end"]
    salt: str = ""


@registered
class CardsDrawn(Event, frozen=True, tag="nt.cards_drawn"):
    """Cards into a hand (hidden from all but the hand's player). Fewer than owed only when
    the deck and the set-aside pile together held fewer (`short`)."""

    hidden: ClassVar[tuple[str, ...]] = ("cards",)

    character_id: str
    cards: list[str]
    reason: DrawReason
    conflict: str | None = None
    short: bool = False
    salt: str = ""


@registered
class CardsDiscarded(Event, frozen=True, tag="nt.cards_discarded"):
    """Cards out of a hand onto the set-aside pile, face down, at a hand reset."""

    hidden: ClassVar[tuple[str, ...]] = ("cards",)

    character_id: str
    cards: list[str]
    reason: DiscardReason
    salt: str = ""


@registered
class ConflictOpened(Event, frozen=True, tag="nt.conflict_opened"):
    conflict: str
    aggressor: str
    participants: list[str]  # in seat order (clockwise), the aggressor among them
    stakes: str
    place: str
    approach: str
    conflict_type: Literal["talk", "physical", "melee", "guns"]
    trump: Suit


@registered
class RaiseMade(Event, frozen=True, tag="nt.raise_made"):
    conflict: str
    raiser: str
    cards: list[str]
    value: int
    trump_value: int | None  # what an answer without a trump costs; None: no trump in it
    trump_at_raise: Suit
    reversal_card: str | None = None  # the held reversal card played as a third card
    narration: str = ""


@registered
class RaiseAnswered(Event, frozen=True, tag="nt.raise_answered"):
    conflict: str
    answerer: str
    cards: list[str]  # in the order played
    total: int
    raise_value: int
    outcome: Outcome
    fallout: int  # the middle card of a 3+ card see
    trump_fallout: int  # the raise's trump value when the answer holds no trump
    price: int  # a push: the raise minus the total
    narration: str = ""


@registered
class ConflictEscalated(Event, frozen=True, tag="nt.conflict_escalated"):
    conflict: str
    by: str
    from_trump: Suit
    to_trump: Suit
    conflict_type: Literal["talk", "physical", "melee", "guns"]


@registered
class CostPaid(Event, frozen=True, tag="nt.cost_paid"):
    """A fallout or price paid from the pools. `traded` is how much left the trump's pools
    through the character's rank trade (`traded_from`: the pool it was due from)."""

    character_id: str
    conflict: str
    cause: Cause
    amount: int
    trump: Suit  # the trump in force when paid
    blood: int
    sweat: int
    tears: int
    traded_from: Pool | None
    traded: int


@registered
class PoolEmptied(Event, frozen=True, tag="nt.pool_emptied"):
    character_id: str
    pool: Pool
    consequence: Consequence


@registered
class ParticipantLeft(Event, frozen=True, tag="nt.participant_left"):
    conflict: str
    character_id: str
    reason: LeftReason


@registered
class ConflictEnded(Event, frozen=True, tag="nt.conflict_ended"):
    """The conflict is over: `winners` decide the stakes. The set-aside pile goes back into
    the deck."""

    conflict: str
    winners: list[str]
    rule: str  # why it ended, in words
    narration: str = ""
    abandoned: bool = False  # the GM ended it without an outcome (`abandon`): nobody wins


@registered
class OutcomeNarrated(Event, frozen=True, tag="nt.outcome_narrated"):
    """A winner decides the stakes and narrates the outcome."""

    conflict: str
    character_id: str
    text: str
