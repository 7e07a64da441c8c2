"""Beer Run's events (prefix `br.`): dice pools bought with Intensity, the upper hand, pips.

Names of players, characters, abilities and sides are stored as lower-case keys (`display`
keeps the spelling given). Every die face is stored (rolled by tablelog or recorded from the
table), and what the rules compute from them (successes, the upper hand, a die's new size, a
goal reached, a death) is stored in the event that resolves it, so the audit can recompute it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from tablelog.events.base import Event, registered

GoalKind = Literal["standard", "helping", "situational"]
DieSource = Literal["ability", "situation", "penalty"]
AbilityCause = Literal["damage", "outcome", "heal", "gm", "cede"]


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    name: str  # key (lower case)
    display: str
    category: str  # key of one of the campaign's categories
    size: int  # dN; 0 is an ability reduced to zero


class Die(msgspec.Struct, frozen=True, kw_only=True):
    """One die of a pool: an ability's (base or extra), a situation die or a penalty die."""

    source: DieSource
    name: str  # the ability, or the special die's origin ("d8 from cara")
    size: int
    extra: bool = False


class Face(msgspec.Struct, frozen=True, kw_only=True):
    size: int
    value: int


class Pair(msgspec.Struct, frozen=True, kw_only=True):
    a: int
    b: int
    winner: Literal["a", "b", "tie"]


class Side(msgspec.Struct, frozen=True, kw_only=True):
    side_id: str
    members: list[str]


class Allocation(msgspec.Struct, frozen=True, kw_only=True):
    target: str
    ability: str
    pips: int


# --- people --------------------------------------------------------------------------------


@registered
class PlayerJoined(Event, frozen=True, tag="br.player_joined"):
    player: str
    display: str


@registered
class CharacterCreated(Event, frozen=True, tag="br.character_created"):
    character_id: str
    display: str
    player: str  # its player's key; the GM's for an NPC
    abilities: list[Ability]
    intensity: int
    # Static opposition (a cliff, a locked door): the GM's dice for it, any of them in a pool,
    # and its pools cost nothing.
    static: bool = False


@registered
class AbilityChanged(Event, frozen=True, tag="br.ability_changed"):
    character_id: str
    ability: str
    from_: int = msgspec.field(name="from")
    to: int
    cause: AbilityCause
    category: str | None = None  # set when the ability is new to the character
    display: str | None = None
    conflict: str | None = None


@registered
class IntensityAdjusted(Event, frozen=True, tag="br.intensity_adjusted"):
    character_id: str
    delta: int
    reason: str
    conflict: str | None = None


@registered
class OutcomeDieAwarded(Event, frozen=True, tag="br.outcome_die_awarded"):
    character_id: str
    ability: str
    display: str
    category: str
    size: int
    conflict: str | None = None


# --- sessions and scenes -------------------------------------------------------------------


@registered
class SessionStarted(Event, frozen=True, tag="br.session_started"):
    session: int


@registered
class SessionEnded(Event, frozen=True, tag="br.session_ended"):
    ends_session: ClassVar[bool] = True  # the service signs a checkpoint of it
    session: int


@registered
class SceneStarted(Event, frozen=True, tag="br.scene_started"):
    scene: int
    title: str | None = None


@registered
class SceneEnded(Event, frozen=True, tag="br.scene_ended"):
    scene: int


# --- conflicts -----------------------------------------------------------------------------


@registered
class ConflictOpened(Event, frozen=True, tag="br.conflict_opened"):
    conflict: str
    sides: list[Side]


@registered
class RoundStarted(Event, frozen=True, tag="br.round_started"):
    conflict: str
    round: int


@registered
class GoalDeclared(Event, frozen=True, tag="br.goal_declared"):
    conflict: str
    round: int
    actor: str
    kind: GoalKind
    text: str
    target_side: str | None = None  # standard goals: the opposing side
    target: str | None = None  # standard goals: the opposing character compared with
    ability: str | None = None  # standard goals: the target's ability the goal zeroes
    target_die: int | None = None  # helping and situational goals: the die sought
    beneficiary: str | None = None  # helping: the ally; situational: the actor


@registered
class DifficultyPoolSet(Event, frozen=True, tag="br.difficulty_pool_set"):
    conflict: str
    round: int
    against: str
    dice: list[int]  # sizes, after the replacements
    replaced_count: int
    target_size: int


@registered
class PoolAssembled(Event, frozen=True, tag="br.pool_assembled"):
    """A pool bought and paid for. Its dice stay hidden from everyone but the actor's player
    until every pool of the round is in (no one builds a pool knowing another's)."""

    conflict: str
    round: int
    actor: str
    dice: list[Die]
    extras: int
    intensity_cost: int
    salt: str = ""  # see Event.hidden

    hidden: ClassVar[tuple[str, ...]] = ("dice", "extras", "intensity_cost")


@registered
class PoolSealed(Event, frozen=True, tag="br.pool_sealed"):
    """A pool bought hidden in a campaign with sealed plays: only the commitment over its
    content (rules/sealing.py; the choice is `rules/beer_run/sealed.py`'s `pool_choice`) is
    stored. Nobody, the operator included, learns the pool, nor its price, until it is opened."""

    sealing: ClassVar[bool] = True
    conflict: str
    round: int
    actor: str
    commitment: str  # 64 hex digits


@registered
class PoolOpened(Event, frozen=True, tag="br.pool_opened"):
    """A sealed pool opened once every pool of the round was in: `choice` and the salt give
    its commitment; it buys the pool as `PoolAssembled` does (hidden until it is rolled), or,
    when the rules refuse that pool, an empty one (`refused`)."""

    sealing: ClassVar[bool] = True
    conflict: str
    round: int
    actor: str
    choice: str
    salt_hex: str
    dice: list[Die]
    extras: int
    intensity_cost: int
    # The rule the pool breaks when the rules refuse what was sealed (a name mistyped, too
    # little Intensity): the opening holds, and the pool counts as empty (no die, nothing paid).
    refused: str = ""
    salt: str = ""  # see Event.hidden

    hidden: ClassVar[tuple[str, ...]] = (
        "choice",
        "salt_hex",
        "dice",
        "extras",
        "intensity_cost",
        "refused",
    )


@registered
class PoolDeadlineSet(Event, frozen=True, tag="br.pool_deadline_set"):
    """The GM's deadline (microseconds UTC, the service's clock) for the round's openings."""

    conflict: str
    round: int
    deadline: int


@registered
class PoolForfeited(Event, frozen=True, tag="br.pool_forfeited"):
    """The deadline passed without this sealed pool's opening: it counts as an empty pool,
    rolled at once (no die: every pair against it is the padding d1 = 1); nothing is paid."""

    sealing: ClassVar[bool] = True
    conflict: str
    round: int
    actor: str
    deadline: int
    at: int


@registered
class PoolRolled(Event, frozen=True, tag="br.pool_rolled"):
    """The faces of a pool, in the order of its dice. `difficulty` marks the GM's difficulty
    pool against a helping or situational actor."""

    conflict: str
    round: int
    actor: str
    results: list[Face]
    difficulty: bool = False
    generated: bool = True  # rolled by tablelog; False: recorded from the table


@registered
class RollsCompared(Event, frozen=True, tag="br.rolls_compared"):
    """One comparison: `a` and `b` are characters, or `difficulty` against a helping or
    situational actor. `raw` and `kept` count successes; `pads` counts the d1s added."""

    conflict: str
    round: int
    a: str
    b: str
    a_values: list[int]  # sorted high to low, padded
    b_values: list[int]
    pairs: list[Pair]
    upper_hand: str | None
    raw: dict[str, int]
    kept: dict[str, int]


@registered
class SpecialDieUsed(Event, frozen=True, tag="br.special_die_used"):
    conflict: str
    round: int
    character_id: str
    kind: Literal["situation", "penalty"]
    size: int
    uses_left: int
    source: str = ""


@registered
class SituationDieGranted(Event, frozen=True, tag="br.situation_die_granted"):
    conflict: str
    round: int
    character_id: str
    size: int
    uses: int
    source: str  # the actor whose helping or situational goal earned it


@registered
class PenaltyDieImposed(Event, frozen=True, tag="br.penalty_die_imposed"):
    conflict: str
    round: int
    character_id: str
    size: int
    uses: int


@registered
class DamageAllocated(Event, frozen=True, tag="br.damage_allocated"):
    conflict: str
    round: int
    by: str
    against: str  # the opponent of this comparison
    allocations: list[Allocation]


@registered
class GoalAchieved(Event, frozen=True, tag="br.goal_achieved"):
    conflict: str
    round: int
    actor: str
    goal: str
    target: str | None = None
    how: Literal["zeroed", "ceded"] = "zeroed"


@registered
class CharacterDied(Event, frozen=True, tag="br.character_died"):
    character_id: str
    conflict: str | None = None


@registered
class Ceded(Event, frozen=True, tag="br.ceded"):
    conflict: str
    round: int
    actor: str


@registered
class ConflictEnded(Event, frozen=True, tag="br.conflict_ended"):
    conflict: str
    result: str
    remaining: list[str]  # sides with members still in
