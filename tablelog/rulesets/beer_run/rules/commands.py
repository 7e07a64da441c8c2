"""What a Beer Run table can ask for: one typed command per action of rules/beer-run.md.

Names are given as typed (`decide` matches them case-insensitively); dice as `d8` or `8`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from tablelog.rules.common import Clocked, Command


class AbilitySpec(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    category: str
    size: str  # d8, 8


class CreateCharacter(Command, frozen=True):
    """A character and its ability dice; `player` is the GM's key for an NPC."""

    player: str
    character: str
    abilities: list[AbilitySpec]
    intensity: int | None = None
    static: bool = False  # static opposition: the GM's, free pools of any of its dice


class SetAbility(Command, frozen=True):
    """The GM heals, damages or adds an ability outside the round's effects."""

    character: str
    ability: str
    size: str
    category: str | None = None  # required for a new ability
    cause: Literal["heal", "gm"] = "gm"


class AdjustIntensity(Command, frozen=True):
    character: str
    delta: int
    reason: str = ""


class AwardOutcomeDie(Command, frozen=True):
    """A contest's permanent result: a new (or larger) ability die, e.g. gear or a ritual."""

    character: str
    ability: str
    size: str
    category: str | None = None
    conflict: str | None = None


class OpenConflict(Command, frozen=True):
    sides: dict[str, list[str]]  # side name -> characters
    conflict: str | None = None


class DeclareGoal(Command, frozen=True):
    conflict: str | None
    actor: str
    text: str
    kind: Literal["standard", "helping", "situational"] = "standard"
    against: str | None = None  # standard: the opposing character (default: the only one)
    ability: str | None = None  # standard: the target's ability the goal would zero
    ally: str | None = None  # helping: the ally gaining the die
    die: str | None = None  # helping and situational: the die sought


class SetDifficulty(Command, frozen=True):
    """The GM's difficulty pool against a helping or situational actor."""

    conflict: str | None
    against: str
    dice: list[str] | None = None  # default: the option's d2 x 4
    replace: int | None = None  # default: the option's maximum (3)


class AssemblePool(Command, frozen=True):
    conflict: str | None
    actor: str
    base: list[str] = []  # one ability per category (none when sealed: see `commitment`)
    extras: list[str] = []
    # With the option sealed_plays (a pool bought in the pools phase): the commitment over
    # the pool's content (rules/beer_run/sealed.py), never the content, and the round it binds.
    commitment: str | None = None
    round: int | None = None


class OpenPool(Command, frozen=True):
    """Open a sealed pool: its content and the salt its commitment was made with."""

    conflict: str | None
    actor: str
    base: list[str]
    salt: str  # 64 hex digits
    extras: list[str] = []


class SetPoolDeadline(Clocked, frozen=True):
    """The GM's deadline for the openings of the round's sealed pools (minutes from `now`)."""

    conflict: str | None
    minutes: int


class ForfeitPool(Clocked, frozen=True):
    """After the deadline: a sealed pool never opened counts as an empty pool."""

    conflict: str | None
    actor: str


class Roll(Command, frozen=True):
    """Roll a pool (managed dice), or record its faces (recorded dice), in its dice' order.
    Without `actor`, every pool the round is waiting for (managed dice only)."""

    conflict: str | None
    actor: str | None = None
    values: list[int] | None = None
    difficulty: list[int] | None = None


class Allocate(Command, frozen=True):
    """Spend kept successes as pips off the opponent's abilities: {ability: pips}."""

    conflict: str | None
    by: str
    against: str
    pips: dict[str, int]


class Cede(Command, frozen=True):
    conflict: str | None
    actor: str


class EndConflict(Command, frozen=True):
    conflict: str | None
    result: str = ""
