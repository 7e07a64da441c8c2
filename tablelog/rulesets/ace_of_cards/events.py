"""Ace of Cards' events (prefix `ac.`): a 30-card deck per Ace, exact sets, Mind Points.

Names of players and characters are stored as lower-case keys (`display` keeps the spelling
given). Cards are codes: a value 1-7 and a suit letter (`3C`, `5H`), or a joker (`JK1`,
`JK2`). Every random fact (a shuffle's order, a card drawn, a die's face) is stored, whether
tablelog drew it or the table recorded it, and what the rules decide from them (the set a
hand forms, its effect's numbers, a Check's result) is stored in the event that resolves it,
so the audit can recompute it and a replay never draws again.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from tablelog.events.base import Event, registered

DrawReason = Literal["opening", "set_refill", "mulligan", "high_or_low"]
CheckKind = Literal["accuracy", "magic", "clock", "other"]


class JokerAs(msgspec.Struct, frozen=True, kw_only=True):
    """A joker resolved as a suit and a value of its owner's choice."""

    card: str  # JK1 or JK2
    suit: str  # C, D, H or S
    value: int  # 1-7


class Recovery(msgspec.Struct, frozen=True, kw_only=True):
    """HP and MP one character regains from a set (capped at its maximum)."""

    character_id: str
    hp: int
    mp: int


class Die(msgspec.Struct, frozen=True, kw_only=True):
    size: int
    value: int


# --- people --------------------------------------------------------------------------------


@registered
class PlayerJoined(Event, frozen=True, tag="ac.player_joined"):
    player: str
    display: str


@registered
class CharacterCreated(Event, frozen=True, tag="ac.character_created"):
    character_id: str
    display: str
    player: str  # its player's key; the GM's for an NPC ally
    max_hp: int
    max_mp: int


@registered
class DeckBuilt(Event, frozen=True, tag="ac.deck_built"):
    """The Ace of Cards class taken: its free benefit (+5 max HP or MP) and its deck."""

    character_id: str
    suit_types: dict[str, str]  # suit letter -> damage type (air, earth, fire, ice)
    cards: list[str]  # the 30 cards
    benefit: Literal["hp", "mp"]


@registered
class SkillLevelSet(Event, frozen=True, tag="ac.skill_level_set"):
    character_id: str
    # Double or Nothing and High or Low since issue 26 (one level each; option class_skills)
    skill: Literal["magic_cards", "mulligan", "trap_card", "double_or_nothing", "high_or_low"]
    sl: int


@registered
class HPChanged(Event, frozen=True, tag="ac.hp_changed"):
    character_id: str
    delta: int
    reason: str = ""
    conflict: str | None = None


@registered
class MPChanged(Event, frozen=True, tag="ac.mp_changed"):
    character_id: str
    delta: int
    reason: str = ""
    conflict: str | None = None


# --- conflicts -----------------------------------------------------------------------------


@registered
class ConflictStarted(Event, frozen=True, tag="ac.conflict_started"):
    conflict: str
    party: list[str]  # characters on the Aces' side (Aces and allies)
    enemies: list[str]  # names of the enemies present (keys)


@registered
class DeckShuffled(Event, frozen=True, tag="ac.deck_shuffled"):
    """All 30 cards shuffled face down as a conflict begins. `order` is top first; with a
    recorded deck the table's order is unknown and `order` lists the cards sorted."""

    hidden: ClassVar[tuple[str, ...]] = ("order",)

    conflict: str
    character_id: str
    order: list[str]
    salt: str = ""


@registered
class CardsDrawn(Event, frozen=True, tag="ac.cards_drawn"):
    hidden: ClassVar[tuple[str, ...]] = ("cards",)

    conflict: str
    character_id: str
    cards: list[str]
    reason: DrawReason
    salt: str = ""


@registered
class DiscardShuffledIntoDeck(Event, frozen=True, tag="ac.discard_shuffled_into_deck"):
    hidden: ClassVar[tuple[str, ...]] = ("order",)

    conflict: str
    character_id: str
    order: list[str]
    salt: str = ""


@registered
class CardsDiscarded(Event, frozen=True, tag="ac.cards_discarded"):
    """Cards put face up on the discard pile, in this order (which never changes after)."""

    conflict: str
    character_id: str
    cards: list[str]
    reason: Literal["set", "mulligan", "high_or_low"]


@registered
class ActionTaken(Event, frozen=True, tag="ac.action_taken"):
    """An action that has resolved: an enemy's (what a Trap Card answers) or anyone's."""

    conflict: str
    action_id: str
    actor: str  # a character key or an enemy's key
    enemy: bool
    visible: bool  # whether the Aces could see who acted
    text: str


@registered
class MagicCardsUsed(Event, frozen=True, tag="ac.magic_cards_used"):
    """The Magic Cards action: MP spent, the resolved cards (the set) and the effect chosen
    (None: the set matches no effect, or the Ace applied none of those it fits)."""

    conflict: str
    character_id: str
    mp_spent: int
    cards: list[str]
    jokers: list[JokerAs]
    set: str | None
    fits: list[str]  # every effect the resolved cards match


@registered
class SetEffectApplied(Event, frozen=True, tag="ac.set_effect_applied"):
    conflict: str
    character_id: str
    set: str
    amount: int | None = None  # damage, or the HP and MP regained
    damage_type: str | None = None
    targets: list[str] = []
    statuses: list[str] = []
    cured: bool | None = None  # Full Status: True cures the party, False afflicts the enemies
    recovered: list[Recovery] = []


@registered
class MulliganTaken(Event, frozen=True, tag="ac.mulligan_taken"):
    hidden: ClassVar[tuple[str, ...]] = ("drawn",)

    conflict: str
    character_id: str
    discarded: list[str]
    drawn: list[str]
    salt: str = ""


@registered
class TrapCardRevealed(Event, frozen=True, tag="ac.trap_card_revealed"):
    conflict: str
    character_id: str
    trigger_action_id: str
    named_suit: str
    card: str
    hit: bool


@registered
class FreeSpellCast(Event, frozen=True, tag="ac.free_spell_cast"):
    conflict: str
    character_id: str
    spell: str
    mp_cost: int


@registered
class CheckCalled(Event, frozen=True, tag="ac.check_called"):
    """A Check asked for, not yet rolled: Double or Nothing may be declared until it is."""

    conflict: str
    check_id: str
    character_id: str
    kind: CheckKind
    offensive: bool  # a Magic Check for an offensive spell
    sizes: list[int]  # the two attribute dice
    modifier: int
    dl: int  # Difficulty Level, or the target's Defense / Magic Defense
    damage: int | None = None  # the weapon's or spell's fixed damage (HR + damage on a hit)
    target: str | None = None
    # The free attack of a Magic Pair: that set's index among the conflict's sets (issue 26;
    # before it, a pair's attack was a Check of its own, tied to nothing).
    magic_pair: int | None = None


@registered
class DoubleOrNothingDeclared(Event, frozen=True, tag="ac.double_or_nothing_declared"):
    conflict: str
    check_id: str
    character_id: str


@registered
class CheckRolled(Event, frozen=True, tag="ac.check_rolled"):
    conflict: str
    check_id: str
    character_id: str
    kind: CheckKind
    dice: list[Die]
    modifier: int
    dl: int
    result: int
    crit: bool
    fumble: bool


@registered
class CheckResolved(Event, frozen=True, tag="ac.check_resolved"):
    conflict: str
    check_id: str
    character_id: str
    success: bool
    doubled: bool
    critical_failure: bool  # a fumble, or under don_miss=fumble a Double or Nothing missed
    damage: int | None = None
    sections: int | None = None
    opportunity_on_clock: bool = False
    high_or_low: bool = False  # a critical success, fumble or critical failure: it may draw
    rule: str = ""
    damage_type: str | None = None  # a Magic Pair's free attack that dealt damage: its type


@registered
class HighOrLowUsed(Event, frozen=True, tag="ac.high_or_low_used"):
    hidden: ClassVar[tuple[str, ...]] = ("drawn",)

    conflict: str
    character_id: str
    check_id: str
    drawn: str
    discarded: str
    salt: str = ""


@registered
class ConflictEnded(Event, frozen=True, tag="ac.conflict_ended"):
    """All 30 cards of every Ace go back into the deck and are put away."""

    conflict: str
