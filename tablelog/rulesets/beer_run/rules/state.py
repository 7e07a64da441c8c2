"""A Beer Run campaign as the rules see it: characters with ability dice and Intensity, special
dice with uses left, and each conflict's rounds (goals, pools, rolls, comparisons, effects)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules.options import BeerRunOptions

DIFFICULTY = "difficulty"  # the `a`/`b` of a comparison against a GM difficulty pool

Phase = Literal["goals", "helping", "pools", "rolling", "effects", "done"]


@dataclass
class AbilityDie:
    name: str
    display: str
    category: str
    size: int


@dataclass
class SpecialDie:
    kind: Literal["situation", "penalty"]
    size: int
    uses: int
    source: str = ""


@dataclass
class Character:
    key: str
    display: str
    player: str
    abilities: dict[str, AbilityDie]
    intensity: int
    static: bool = False
    dead: bool = False
    special: list[SpecialDie] = field(default_factory=list)
    # Sizes before the current conflict's damage (option damage=conflict restores them).
    before: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass
class Goal:
    actor: str
    kind: ev.GoalKind
    text: str
    target_side: str | None
    target: str | None
    ability: str | None
    target_die: int | None
    beneficiary: str | None
    won: bool = False  # a GoalAchieved names it (won by its side, or the target ceded)


@dataclass
class Compared:
    """A comparison of a round; `a` is the character (or the helper), `b` the other."""

    event: ev.RollsCompared
    allocated: set[str] = field(default_factory=set)  # sides (a or b keys) that allocated

    def kept(self, who: str) -> int:
        return self.event.kept.get(who, 0)

    def opponent(self, who: str) -> str:
        return self.event.b if who == self.event.a else self.event.a


@dataclass
class Round:
    number: int
    goals: dict[str, Goal] = field(default_factory=dict)
    difficulty: dict[str, ev.DifficultyPoolSet] = field(default_factory=dict)
    pools: dict[str, ev.PoolAssembled] = field(default_factory=dict)
    rolls: dict[str, list[ev.Face]] = field(default_factory=dict)
    difficulty_rolls: dict[str, list[ev.Face]] = field(default_factory=dict)
    compared: list[Compared] = field(default_factory=list)
    helping_done: bool = False
    sealed: dict[str, str] = field(default_factory=dict)  # actor -> commitment (sealed_plays)
    forfeited: list[str] = field(default_factory=list)  # sealed pools never opened
    deadline: int | None = None  # for the openings, microseconds UTC


@dataclass
class Conflict:
    key: str
    sides: dict[str, list[str]]  # side -> member characters, in order
    rounds: list[Round] = field(default_factory=list)
    ceded: list[str] = field(default_factory=list)
    status: Literal["open", "ended"] = "open"
    result: str | None = None
    achieved: list[tuple[str, str | None, str]] = field(default_factory=list)  # actor, target, goal

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    def side_of(self, character: str) -> str | None:
        for side, members in self.sides.items():
            if character in members:
                return side
        return None


@dataclass
class BeerRunState:
    campaign: str
    gm: str
    options: BeerRunOptions
    categories: dict[str, str]  # key -> spelling given
    health: str  # the key of the ability whose zero is death
    players: dict[str, str] = field(default_factory=dict)  # key -> display
    characters: dict[str, Character] = field(default_factory=dict)
    conflicts: dict[str, Conflict] = field(default_factory=dict)
    session: int = 0
    session_open: bool = False
    scene: int = 0
    scene_open: bool = False

    def open_conflicts(self) -> list[Conflict]:
        return [c for c in self.conflicts.values() if c.status == "open"]
