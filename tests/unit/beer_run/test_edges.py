"""Beyond the vectors: ceding, situational goals, managed rolls of every pool, and option
`damage=conflict`.
"""

from __future__ import annotations

from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tests.unit.beer_run.table import (
    Faces,
    Tables,
    all_of,
    allocate,
    character,
    goal,
    only,
    pool,
    roll,
)

RECORDED = {"dice": "recorded"}


def test_cede_gives_the_opposition_its_goal_and_the_targeted_die(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d6", "Health:Body:d6"),
        character("Bob", "Body:Body:d6", "Nerve:Mind:d4", player="gm"),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
        goal("Alice", "Bob", ability="Nerve"),
        goal("Bob", "Alice", text="Alice goes down", ability="Health"),
        pool("Alice", "Body"),
        pool("Bob", "Body", "Nerve"),
        roll("Alice", 3),
        roll("Bob", 3, 1),  # all ties: the round is over at once
    )
    events = table.when(c.Cede(conflict="c1", actor="Alice"))
    assert only(events, ev.Ceded).actor == "alice"
    achieved = only(events, ev.GoalAchieved)
    assert (achieved.actor, achieved.goal, achieved.target, achieved.how) == (
        "bob",
        "Alice goes down",
        "alice",
        "ceded",
    )
    change = only(events, ev.AbilityChanged)
    assert (change.ability, change.from_, change.to, change.cause) == ("health", 6, 0, "cede")
    assert only(events, ev.CharacterDied).character_id == "alice"
    assert only(events, ev.ConflictEnded).remaining == ["b"]
    table.refuse(c.Cede(conflict="c1", actor="Bob"), "conflict-over")


def test_cede_to_two_goals_on_one_ability(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d8"),
        character("Carol", "Body:Body:d8"),
        character("Bob", "Body:Body:d6", "Nerve:Mind:d4", player="gm"),
        c.OpenConflict(conflict="c1", sides={"crew": ["Alice", "Carol"], "bob": ["Bob"]}),
        goal("Alice", "Bob", text="Bob runs", ability="Nerve"),
        goal("Carol", "Bob", text="Bob gives up", ability="Nerve"),
        goal("Bob", "Alice"),
        pool("Alice", "Body"),
        pool("Carol", "Body"),
        pool("Bob", "Body", "Nerve"),
        roll("Alice", 5),
        roll("Carol", 5),
        roll("Bob", 5, 1),  # all ties
    )
    events = table.when(c.Cede(conflict="c1", actor="Bob"))
    assert {e.actor for e in all_of(events, ev.GoalAchieved)} == {"alice", "carol"}
    change = only(events, ev.AbilityChanged)
    assert (change.ability, change.from_, change.to) == ("nerve", 4, 0)
    assert table.size("Bob", "Nerve") == 0


def test_situational_success_is_a_die_for_later_rounds(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d8"),
        character("Bob", "Body:Body:d6", "Nerve:Mind:d4", player="gm"),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
        c.DeclareGoal(
            conflict="c1", actor="Alice", kind="situational", text="find cover", die="d10"
        ),
        goal("Bob", "Alice"),
        c.SetDifficulty(conflict="c1", against="Alice", dice=["d6", "d6", "d6"], replace=0),
        pool("Alice", "Body", "Mind"),
        pool("Bob", "Body", "Nerve"),
    )
    # Rolled with the other pools: nothing is compared before every pool is rolled.
    events = table.when(roll("Alice", 8, 5, difficulty=[6, 1, 1]))
    assert not all_of(events, ev.RollsCompared)
    events = table.when(roll("Bob", 1, 1))
    by_pair = {(e.a, e.b): e for e in all_of(events, ev.RollsCompared)}
    assert by_pair["alice", "difficulty"].kept == {"alice": 2, "difficulty": 0}
    granted = only(events, ev.SituationDieGranted)
    assert (granted.character_id, granted.size, granted.uses) == ("alice", 10, 2)
    assert not all_of(events, ev.PenaltyDieImposed)
    # Bob's goal against Alice compares their pools too: Alice's 2 successes are pips on Bob.
    assert by_pair["bob", "alice"].kept == {"alice": 2, "bob": 0}
    table.given(allocate("Alice", "Bob", Body=2), goal("Alice", "Bob"), goal("Bob", "Alice"))
    events = table.when(pool("Alice", "Body", "Mind"))
    assert [d.source for d in only(events, ev.PoolAssembled).dice] == [
        "ability",
        "ability",
        "situation",
    ]
    assert only(events, ev.SpecialDieUsed).uses_left == 1
    assert [(d.kind, d.size, d.uses) for d in table.who("Alice").special] == [("situation", 10, 1)]


def test_managed_roll_of_every_ready_pool(new: Tables) -> None:
    faces = Faces(3, 4, 5, 2)
    table = new({}, shuffle=faces).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d8"),
        character("Bob", "Body:Body:d6", "Nerve:Mind:d4", player="gm"),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
        goal("Alice", "Bob"),
        goal("Bob", "Alice"),
        pool("Bob", "Body", "Nerve"),
        pool("Alice", "Body", "Mind"),
    )
    events = table.when(c.Roll(conflict="c1"))
    assert [(r.actor, [f.value for f in r.results]) for r in all_of(events, ev.PoolRolled)] == [
        ("alice", [3, 4]),
        ("bob", [5, 2]),
    ]  # in the order the goals were declared
    compared = only(events, ev.RollsCompared)
    assert (compared.a_values, compared.b_values) == ([4, 3], [5, 2])
    assert compared.upper_hand == "bob"
    assert compared.kept == {"alice": 1, "bob": 1}
    assert faces.queue == []


DAMAGED = [
    character("Alice", "Body:Body:d8", "Mind:Mind:d8", "Health:Body:d3"),
    character("Bob", "Body:Body:d6", "Nerve:Mind:d4", player="gm"),
    c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
    goal("Alice", "Bob"),
    goal("Bob", "Alice"),
    pool("Alice", "Body", "Mind"),
    pool("Bob", "Body", "Nerve"),
    roll("Alice", 1, 1),
    roll("Bob", 6, 1),  # Bob keeps 1; Alice none
    allocate("Bob", "Alice", Health=1),
]


def test_damage_conflict_restores_damage_when_the_conflict_ends(new: Tables) -> None:
    table = new({"dice": "recorded", "damage": "conflict"}).given(DAMAGED)
    assert table.size("Alice", "Health") == 2
    events = table.when(c.EndConflict(conflict="c1"))
    change = only(events, ev.AbilityChanged)
    assert (change.ability, change.from_, change.to, change.cause) == ("health", 2, 3, "heal")
    assert table.size("Alice", "Health") == 3


def test_damage_conflict_keeps_an_outcome_die_awarded_during_it(new: Tables) -> None:
    table = new({"dice": "recorded", "damage": "conflict"}).given(
        DAMAGED[:-1],
        allocate("Bob", "Alice", Body=1),  # Body d8 -> d7
        c.AwardOutcomeDie(character="Alice", ability="Body", size="d12", conflict="c1"),
        c.EndConflict(conflict="c1"),
    )
    assert table.size("Alice", "Body") == 12


def test_damage_conflict_keeps_a_heal_given_during_it(new: Tables) -> None:
    table = new({"dice": "recorded", "damage": "conflict"}).given(
        DAMAGED,
        c.SetAbility(character="Alice", ability="Health", size="d8", cause="heal"),
    )
    events = table.when(c.EndConflict(conflict="c1"))
    assert all(e.to >= e.from_ for e in all_of(events, ev.AbilityChanged))
    assert table.size("Alice", "Health") == 8


def test_a_cede_as_a_round_begins_voids_the_goals_with_it(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d6"),
        character("Carol", "Body:Body:d6"),
        character("Bob", "Body:Body:d6", "Nerve:Mind:d4", player="gm"),
        c.OpenConflict(conflict="c1", sides={"crew": ["Alice", "Carol"], "bob": ["Bob"]}),
        goal("Alice", "Bob", ability="Nerve"),
        goal("Carol", "Bob"),
        goal("Bob", "Alice"),
        pool("Alice", "Body"),
        pool("Carol", "Body"),
        pool("Bob", "Body", "Nerve"),
        roll("Alice", 3),
        roll("Carol", 3),
        roll("Bob", 3, 1),  # all ties: round 1 is over
        goal("Alice", "Bob", text="Bob runs"),  # round 2 begins
    )
    # Before any pool of round 2 is bought Bob may still cede: this round's goal against him
    # is reached, and his own goal (none yet) is void.
    events = table.when(c.Cede(conflict="c1", actor="Bob"))
    assert [e.actor for e in all_of(events, ev.GoalAchieved)] == ["alice"]
    assert all_of(events, ev.AbilityChanged) == []  # this round's goal names no ability
    assert only(events, ev.ConflictEnded).remaining == ["crew"]


def test_health_set_to_zero_by_the_gm_is_death(new: Tables) -> None:
    table = new(RECORDED).given(character("Alice", "Body:Body:d6", "Health:Body:d6"))
    events = table.when(c.SetAbility(character="Alice", ability="Health", size="d0"))
    assert only(events, ev.CharacterDied).character_id == "alice"
    assert table.who("Alice").dead


def test_no_goal_without_a_die_or_the_intensity_for_a_base_pool(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d6", intensity=0),
        character("Bob", "Body:Body:d6", player="gm"),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
    )
    table.refuse(goal("Alice", "Bob"), "intensity")
    table.given(c.SetAbility(character="Bob", ability="Body", size="d0"))
    table.refuse(goal("Bob", "Alice"), "no-dice")


def test_static_opposition_rolls_any_of_its_dice_for_free(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d6", "Mind:Mind:d6"),
        c.CreateCharacter(
            player="gm",
            character="Cliff",
            abilities=[
                c.AbilitySpec(name="Height", category="Body", size="d10"),
                c.AbilitySpec(name="Wind", category="Body", size="d6"),
            ],
            static=True,
        ),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "cliff": ["Cliff"]}),
        goal("Alice", "Cliff", ability="Height"),
        goal("Cliff", "Alice"),
    )
    events = table.when(pool("Cliff", "Height", "Wind"))  # two Body dice: no category rule
    bought = only(events, ev.PoolAssembled)
    assert (bought.intensity_cost, [d.size for d in bought.dice]) == (0, [10, 6])
    table.refuse(
        c.CreateCharacter(
            player="ann",
            character="Wall",
            abilities=[c.AbilitySpec(name="Height", category="Body", size="d8")],
            static=True,
        ),
        "static-not-gm",
    )
