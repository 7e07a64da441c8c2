"""Improv's events: everything that happens at an Improv table, as the log records it.

Names of players, characters and sides are stored as lower-case keys (`display` keeps the
spelling given). What the rules compute when something resolves (totals, ranking, winners,
token dispositions, final victory) is stored in the event that resolves it, so the audit can
recompute it and compare. Every random fact (a shuffle order, a card drawn) is stored too.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from tablelog.events.base import Event, registered

Holder = str
"""A token holder: `gm`, `pool`, `bank`, `out_of_play`, `table` (on cards) or a player key."""


class TokenMove(msgspec.Struct, frozen=True, kw_only=True):
    source: Holder
    to: Holder
    count: int
    reason: str


# --- people --------------------------------------------------------------------------------


@registered
class PlayerJoined(Event, frozen=True, tag="improv.player_joined"):
    player: str
    display: str


@registered
class CharacterCreated(Event, frozen=True, tag="improv.character_created"):
    player: str
    character: str
    display: str
    talents: dict[str, str]  # key -> spelling given


# --- sessions and scenes -------------------------------------------------------------------


@registered
class SessionStarted(Event, frozen=True, tag="improv.session_started"):
    session: int
    players: list[str]  # the players with characters: P in every formula
    gm_tokens: int
    pool: int
    player_tokens: dict[str, int]
    # Tokens that stop existing at the reset (the ledger's sum changes only here).
    cleared: dict[Holder, int] = {}


@registered
class SessionEnded(Event, frozen=True, tag="improv.session_ended"):
    ends_session: ClassVar[bool] = True  # the service signs a checkpoint of it
    session: int


@registered
class SceneStarted(Event, frozen=True, tag="improv.scene_started"):
    scene: int
    title: str | None = None


@registered
class SceneEnded(Event, frozen=True, tag="improv.scene_ended"):
    scene: int


# --- managed decks -------------------------------------------------------------------------


@registered
class DeckShuffled(Event, frozen=True, tag="improv.deck_shuffled"):
    """A deck's draw pile, top card first, after a shuffle (a new deck, a session, a reshuffle
    of its discards). The order came from the service's RNG and is never rolled again."""

    deck: str
    order: list[str]
    reason: str
    salt: str = ""  # see Event.hidden

    hidden: ClassVar[tuple[str, ...]] = ("order",)


@registered
class CardsDrawn(Event, frozen=True, tag="improv.cards_drawn"):
    """Cards taken from the top of `deck` into `owner`'s hand (private to the owner)."""

    deck: str
    owner: str
    cards: list[str]
    reason: str
    salt: str = ""  # see Event.hidden

    hidden: ClassVar[tuple[str, ...]] = ("cards",)


@registered
class CardsDiscarded(Event, frozen=True, tag="improv.cards_discarded"):
    owner: str
    cards: list[str]
    reason: str
    salt: str = ""  # see Event.hidden

    hidden: ClassVar[tuple[str, ...]] = ("cards",)


# --- conflicts -----------------------------------------------------------------------------


@registered
class ConflictOpened(Event, frozen=True, tag="improv.conflict_opened"):
    conflict: str
    kind: Literal["simple", "extended"]
    rounds: int
    gm_tokens_at_open: int


@registered
class StakeSet(Event, frozen=True, tag="improv.stake_set"):
    conflict: str
    side: str
    display: str
    gm: bool
    text: str
    opposes: str | None = None
    player: str | None = None  # the protagonist's player; None for a GM stake


@registered
class CardPlayed(Event, frozen=True, tag="improv.card_played"):
    """A face-down card: hidden from everyone but its owner until the round is revealed."""

    conflict: str
    round: int
    side: str
    card: str
    from_deck: bool = False
    deck: str | None = None  # managed mode: the deck a blind card came from
    # Managed mode, played blind because its owner's hand was empty: nobody sees it, its
    # owner included, until the reveal.
    unseen: bool = False
    salt: str = ""  # see Event.hidden

    hidden: ClassVar[tuple[str, ...]] = ("card",)


@registered
class CardSealed(Event, frozen=True, tag="improv.card_sealed"):
    """A face-down card of a campaign with sealed plays: only its commitment is stored (see
    rules/sealing.py); nobody, the operator included, learns the card until it is opened."""

    sealing: ClassVar[bool] = True
    conflict: str
    round: int
    side: str
    commitment: str  # 64 hex digits


@registered
class CardOpened(Event, frozen=True, tag="improv.card_opened"):
    """A sealed card opened: card and salt match the commitment (checked before appending),
    after every side of the round had played."""

    sealing: ClassVar[bool] = True
    conflict: str
    round: int
    side: str
    card: str
    salt_hex: str  # the owner's 256-bit salt: anyone can recompute the commitment


@registered
class OpeningForfeited(Event, frozen=True, tag="improv.opening_forfeited"):
    """The GM's deadline passed without this side's opening: the side forfeits the round
    (its card counts as the lowest card there is; see rules/improv/sealed.py)."""

    sealing: ClassVar[bool] = True
    conflict: str
    round: int
    side: str
    deadline: int  # microseconds UTC, as the GM set it
    at: int  # the service's clock when the GM claimed the forfeit


@registered
class OpeningDeadlineSet(Event, frozen=True, tag="improv.opening_deadline_set"):
    conflict: str
    round: int
    deadline: int  # microseconds UTC


@registered
class BonusPlaced(Event, frozen=True, tag="improv.bonus_placed"):
    conflict: str
    round: int
    on: str  # the side whose card gets the bonus
    by: str  # a character key or `gm`
    player: str  # who pays: the character's player, or the GM
    kind: Literal["token", "talent"]
    count: int = 1
    talent: str | None = None
    assist: str | None = None


class PairResult(msgspec.Struct, frozen=True, kw_only=True):
    """One comparison between direct opponents, as decided at the reveal."""

    first: str
    second: str
    first_total: int
    second_total: int
    winner: str | None  # None: an exact tie, waiting for the Hand of Fate
    rule: str


@registered
class RoundRevealed(Event, frozen=True, tag="improv.round_revealed"):
    conflict: str
    round: int
    cards: dict[str, str]
    totals: dict[str, int]
    ranking: list[str]  # highest first
    pairs: list[PairResult]
    beats: list[list[str]]  # [winner, loser] between direct opponents
    winners: list[str]
    unopposed: list[str]
    ties: list[list[str]]  # exact ties: the Hand of Fate decides them
    token_moves: list[TokenMove]
    victory: dict[str, str] = {}  # extended: side -> card added to its victory pile
    discarded: dict[str, str] = {}  # side -> card discarded


@registered
class FateCardDrawn(Event, frozen=True, tag="improv.fate_card_drawn"):
    conflict: str
    round: int
    side: str
    card: str
    deck: str | None = None  # managed mode: drawn from this deck


@registered
class FateResolved(Event, frozen=True, tag="improv.fate_resolved"):
    conflict: str
    round: int
    winner: str
    loser: str
    draws: list[list[str]]  # each draw: [winner's card, loser's card], the last one decides
    rule: str
    # Extended conflicts: round cards whose fate this result settled (pile or discard).
    victory: dict[str, str] = {}
    discarded: dict[str, str] = {}


@registered
class FateChosen(Event, frozen=True, tag="improv.fate_chosen"):
    """In an extended conflict, the Hand of Fate loser's choice (a second loss destroys)."""

    conflict: str
    round: int
    side: str
    choice: Literal["eliminate", "stay"]
    outcome: Literal["eliminated", "stayed", "destroyed"]


@registered
class VictoryCardGiven(Event, frozen=True, tag="improv.victory_card_given"):
    conflict: str
    giver: str
    receiver: str
    card: str
    random: bool = False  # a destroyed side with no cards gives a card from its deck


@registered
class TokenAwarded(Event, frozen=True, tag="improv.token_awarded"):
    giver: str
    receiver: str
    source: Holder
    conflict: str | None = None
    round: int | None = None
    scene: int = 0
    session: int = 0
    in_scene: bool = True  # False: between scenes (after one ended, before the next)


@registered
class TokenSpent(Event, frozen=True, tag="improv.token_spent"):
    """A redraw or a bribe: a token leaves `player` for `to`, for `purpose`."""

    player: str
    to: Holder
    purpose: Literal["redraw", "bribe"]
    conflict: str | None = None
    cards: list[str] = []
    salt: str = ""  # see Event.hidden

    hidden: ClassVar[tuple[str, ...]] = ("cards",)


@registered
class Narrated(Event, frozen=True, tag="improv.narrated"):
    conflict: str
    side: str
    text: str
    final: bool = False


class FinalPair(msgspec.Struct, frozen=True, kw_only=True):
    first: str
    second: str
    first_pile: list[str]
    second_pile: list[str]
    winner: str | None
    rule: str


@registered
class ConflictClosed(Event, frozen=True, tag="improv.conflict_closed"):
    conflict: str
    beats: list[list[str]]
    final: list[FinalPair] = []
    token_moves: list[TokenMove] = []
    # No outcome: closed before any card was played, or abandoned by the GM (`improv abandon`,
    # which records its `reason`): nobody wins, played and victory cards are discarded.
    abandoned: bool = False
    reason: str | None = None  # the GM's reason for abandoning
    cards: dict[str, str] = {}  # abandoned: the face-down cards it turned up (side -> card)
    discarded: dict[str, list[str]] = {}  # abandoned: every card it discarded, per side
