"""An Ace of Cards campaign as the rules see it: characters with HP and MP, the Aces' decks,
skill levels, and each conflict's party, enemies, actions and Checks.

A deck, a hand and a discard pile exist only while their Ace is in a conflict (`Pile`); the
deck's order is top first, the discard pile's bottom first (the order it was laid down in).
"""

from __future__ import annotations

import msgspec

from tablelog.rules.table import Table
from tablelog.rulesets.ace_of_cards.rules.options import AceOfCardsOptions

SKILL_TITLES = {
    "magic_cards": "Magic Cards",
    "mulligan": "Mulligan",
    "trap_card": "Trap Card",
    "double_or_nothing": "Double or Nothing",
    "high_or_low": "High or Low",
}
SKILLS = tuple(SKILL_TITLES)
# Skills every Ace used before issue 26; taken (one level each) under class_skills=taken.
CLASS_SKILLS = ("double_or_nothing", "high_or_low")


class Pile(msgspec.Struct):
    deck: list[str]
    hand: list[str] = msgspec.field(default_factory=list)
    discard: list[str] = msgspec.field(default_factory=list)


class Character(msgspec.Struct):
    key: str
    display: str
    player: str
    max_hp: int
    max_mp: int
    hp: int
    mp: int
    skills: dict[str, int] = msgspec.field(default_factory=dict)
    # The Ace of Cards class: the deck's cards and its suits' damage types (None: no deck).
    cards: list[str] | None = None
    suit_types: dict[str, str] | None = None
    benefit: str | None = None
    conflict: str | None = None  # the open conflict it is in
    pile: Pile | None = None  # only during a conflict
    mulligan_done: bool = False  # Mulligan taken, and no action of its own since
    high_or_low: str | None = None  # the check whose critical or fumble opened the window
    owes_discard: str | None = None  # High or Low drew for this check: 1 discard is owed
    drew: str | None = None  # the card High or Low drew
    trap_window: str | None = None  # the action whose Trap Card hit: a free spell may follow
    trapped: list[str] = msgspec.field(default_factory=list)  # actions answered this conflict
    free_attack: int | None = None  # its Magic Pair (the set's index) whose attack may follow

    def sl(self, skill: str) -> int:
        return self.skills.get(skill, 0)


class Action(msgspec.Struct):
    action_id: str
    actor: str
    enemy: bool
    visible: bool
    text: str


class Check(msgspec.Struct):
    check_id: str
    character_id: str
    kind: str
    offensive: bool
    sizes: list[int]
    modifier: int
    dl: int
    damage: int | None = None
    target: str | None = None
    magic_pair: int | None = None  # the free attack of this set (its index) of the conflict
    damage_type: str | None = None  # a Magic Pair's attack that dealt damage: its type
    double: bool = False
    values: list[int] | None = None  # rolled
    success: bool | None = None
    dealt: int | None = None
    sections: int | None = None
    rule: str = ""


class SetPlayed(msgspec.Struct):
    seq_index: int  # its place among the conflict's sets
    character_id: str
    mp_spent: int
    cards: list[str]
    set: str | None
    amount: int | None = None
    damage_type: str | None = None
    targets: list[str] = msgspec.field(default_factory=list)
    statuses: list[str] = msgspec.field(default_factory=list)  # Full Status
    cured: bool | None = None  # Full Status: the party cured (True) or the enemies afflicted
    attack: str | None = None  # Magic Pair: the Check of its free attack, once called


class Reaction(msgspec.Struct):
    """A card play outside an action, as the table sees it (face up; a draw only counted):
    a Trap Card (`trap-card`), its free spell (`free-spell`), a Mulligan (`mulligan`), or
    High or Low (`high-or-low`)."""

    kind: str
    character_id: str
    action: str | None = None  # Trap Card: the enemy's action answered
    suit: str | None = None  # Trap Card: the suit named
    card: str | None = None  # Trap Card: the bottom card; High or Low: the card discarded
    hit: bool | None = None  # Trap Card
    spell: str | None = None  # the free spell
    mp: int | None = None  # its MP paid
    check: str | None = None  # High or Low: the Check whose critical or fumble opened it
    discarded: list[str] = msgspec.field(default_factory=list)  # Mulligan
    drawn: int | None = None  # Mulligan, High or Low: how many cards were drawn (never which)


class Conflict(msgspec.Struct):
    key: str
    party: list[str]
    enemies: list[str]
    status: str = "open"
    actions: list[Action] = msgspec.field(default_factory=list)
    checks: dict[str, Check] = msgspec.field(default_factory=dict)
    sets: list[SetPlayed] = msgspec.field(default_factory=list)
    reactions: list[Reaction] = msgspec.field(default_factory=list)
    # [dealer, enemy] for every enemy a set or a Check dealt damage to (what whatif compares).
    beats: list[list[str]] = msgspec.field(default_factory=list)
    # What happened, in order, for `show`: [kind, ref] with kind action (ref its id), set
    # (its index), check (its id) or reaction (its index).
    order: list[list[str]] = msgspec.field(default_factory=list)


class AceState(msgspec.Struct):
    campaign: str
    gm: str
    options: AceOfCardsOptions
    table: Table = msgspec.field(default_factory=Table)
    players: dict[str, str] = msgspec.field(default_factory=dict)  # key -> display
    characters: dict[str, Character] = msgspec.field(default_factory=dict)
    conflicts: dict[str, Conflict] = msgspec.field(default_factory=dict)

    def open_conflicts(self) -> list[Conflict]:
        return [c for c in self.conflicts.values() if c.status == "open"]
