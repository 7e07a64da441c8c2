"""Beer Run's demo: rules/beer-run.md's BR-2 (a plain comparison) played out as a whole
conflict, with recorded dice so the faces are the vector's: Bob takes the upper hand, the
pips go on Health and Resolve, and between rounds Bob cedes, so Alice gets her goal."""

from __future__ import annotations

from tablelog.rules.common import Command, StartSession
from tablelog.rules.contract import Demo
from tablelog.rulesets.beer_run.rules import commands as c


def _dice(*specs: str) -> list[c.AbilitySpec]:
    found = []
    for spec in specs:
        name, category, size = spec.split(":")
        found.append(c.AbilitySpec(name=name, category=category, size=size))
    return found


PUB = "c1"

PLAY: list[Command] = [
    c.CreateCharacter(
        player="ann",
        character="Alice",
        abilities=_dice(
            "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Health:Body:d6", "Brawl:Body:d10"
        ),
    ),
    c.CreateCharacter(
        player="gm",
        character="Bob",
        abilities=_dice("Body:Body:d8", "Wits:Mind:d8", "Kit:Kit:d6", "Resolve:Mind:d6"),
    ),
    StartSession(),
    c.OpenConflict(sides={"heroes": ["Alice"], "thugs": ["Bob"]}, conflict=PUB),
    c.DeclareGoal(conflict=PUB, actor="Alice", text="Bob backs down", ability="Resolve"),
    c.DeclareGoal(conflict=PUB, actor="Bob", text="Alice is beaten"),
    # Alice: one die a category and an extra (1 + 1 = 2 Intensity); Bob: the base pool (1).
    c.AssemblePool(conflict=PUB, actor="Alice", base=["Body", "Mind", "Kit"], extras=["Brawl"]),
    c.AssemblePool(conflict=PUB, actor="Bob", base=["Body", "Wits", "Kit"]),
    c.Roll(conflict=PUB, actor="Alice", values=[7, 5, 3, 2]),
    c.Roll(conflict=PUB, actor="Bob", values=[7, 4, 6]),
    # 7-7 tie; 5<6 Bob (upper hand); 3<4 Bob; 2>1 Alice: Bob keeps 2, Alice 1.
    c.Allocate(conflict=PUB, by="Bob", against="Alice", pips={"Health": 2}),
    c.Allocate(conflict=PUB, by="Alice", against="Bob", pips={"Resolve": 1}),
    c.Cede(conflict=PUB, actor="Bob"),
]


def demo() -> Demo:
    return Demo(
        commands=PLAY,
        conflict=PUB,
        name="pub",
        options={"dice": "recorded"},
        about="rules/beer-run.md's BR-2, played out to a cede",
        shown=frozenset(
            {
                "br.conflict_opened",
                "br.pool_rolled",
                "br.rolls_compared",
                "br.damage_allocated",
                "br.ability_changed",
                "br.ceded",
                "br.goal_achieved",
                "br.conflict_ended",
            }
        ),
    )
