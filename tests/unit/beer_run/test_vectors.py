"""The test vectors BR-1 .. BR-6 of rules/beer-run.md, each played as a transcript through the
command layer (`execute` on a real SQLite file), checking the numbers the stored events carry.

Categories are the placeholders Body, Mind, Kit (the option's default). Unless a test says
otherwise dice are recorded (`dice=recorded`): a Roll gives the faces in the order of the pool's
dice (base abilities in the order given, then extras, then situation and penalty dice).
"""

from __future__ import annotations

import pytest

from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules.dice import extras_cost, round_cost
from tests.unit.beer_run.table import (
    Faces,
    Table,
    Tables,
    all_of,
    allocate,
    character,
    goal,
    only,
    pool,
    roll,
    winners,
)

RECORDED = {"dice": "recorded"}


def duel(table: Table, a: str, b: str) -> None:
    """Open c1 with `a` against `b`, each with a standard goal against the other."""
    table.given(
        c.OpenConflict(conflict="c1", sides={a.lower(): [a], b.lower(): [b]}),
        goal(a, b),
        goal(b, a),
    )


# --- BR-1 cost table ------------------------------------------------------------------------

SPENDER = character(
    "Alice",
    "Body:Body:d8",
    "Mind:Mind:d6",
    "Kit:Kit:d4",
    "Brawl:Body:d10",
    "Talk:Mind:d6",
    "Rope:Kit:d6",
    "Run:Body:d4",
    "Hide:Mind:d8",
    intensity=16,
)
BOB = character("Bob", "Body:Body:d8", "Kit:Kit:d8", "Resolve:Mind:d6", player="gm")
EXTRAS = ["Brawl", "Talk", "Rope", "Run", "Hide"]
EXTRA_SPECS = ("Brawl:Body:d10", "Talk:Mind:d6", "Rope:Kit:d6")


@pytest.mark.parametrize(("extras", "total"), [(0, 1), (1, 2), (2, 4), (3, 7), (4, 11), (5, 16)])
def test_br1_cost_table(new: Tables, extras: int, total: int) -> None:
    assert round_cost(extras) == total
    assert extras_cost(extras) == total - 1
    table = new(RECORDED).given(SPENDER, BOB)
    duel(table, "Alice", "Bob")
    events = table.when(pool("Alice", "Body", "Mind", "Kit", extras=EXTRAS[:extras]))
    bought = only(events, ev.PoolAssembled)
    assert bought.intensity_cost == total
    assert bought.extras == extras
    assert [d.extra for d in bought.dice] == [False] * 3 + [True] * extras
    assert [d.source for d in bought.dice] == ["ability"] * (3 + extras)
    assert table.intensity("Alice") == 16 - total


def test_br1_three_extras_with_five_intensity_are_refused(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", *EXTRA_SPECS, intensity=5),
        BOB,
    )
    duel(table, "Alice", "Bob")
    error = table.refuse(pool("Alice", "Body", "Mind", "Kit", extras=EXTRAS[:3]), "intensity")
    assert error.message == "3 extra dice cost 1+2+3 = 6, round total 7 Intensity; Alice has 5"
    assert table.intensity("Alice") == 5
    # Two extras (1 + 1+2 = 4) fit in the same 5.
    bought = only(
        table.when(pool("Alice", "Body", "Mind", "Kit", extras=EXTRAS[:2])), ev.PoolAssembled
    )
    assert bought.intensity_cost == 4
    assert table.intensity("Alice") == 1


def test_br1_exact_budget_leaves_zero(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", *EXTRA_SPECS, intensity=7),
        BOB,
    )
    duel(table, "Alice", "Bob")
    table.given(pool("Alice", "Body", "Mind", "Kit", extras=EXTRAS[:3]))
    assert table.intensity("Alice") == 0


# --- BR-2 plain comparison ------------------------------------------------------------------

ALICE_2 = character(
    "Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Brawl:Body:d10", "Health:Body:d6"
)
BOB_2 = character("Bob", "Body:Body:d8", "Kit:Kit:d8", "Resolve:Mind:d6", player="gm")


@pytest.mark.parametrize(
    ("pips", "health_after", "resolve_after"), [("faces", 4, 5), ("steps", 2, 4)]
)
@pytest.mark.parametrize("dice", ["recorded", "managed"])
def test_br2_plain_comparison(
    new: Tables, pips: str, health_after: int, resolve_after: int, dice: str
) -> None:
    faces = Faces(7, 5, 3, 2, 7, 4, 6)
    table = new({"pips": pips, "dice": dice}, shuffle=faces).given(ALICE_2, BOB_2)
    duel(table, "Alice", "Bob")
    alice = only(
        table.when(pool("Alice", "Body", "Mind", "Kit", extras=["Brawl"])), ev.PoolAssembled
    )
    assert [d.size for d in alice.dice] == [8, 6, 4, 10]
    assert (alice.extras, alice.intensity_cost) == (1, 2)
    bob = only(table.when(pool("Bob", "Body", "Kit", "Resolve")), ev.PoolAssembled)
    assert [d.size for d in bob.dice] == [8, 8, 6]
    assert (bob.extras, bob.intensity_cost) == (0, 1)

    if dice == "recorded":
        table.given(roll("Alice", 7, 5, 3, 2))
        events = table.when(roll("Bob", 7, 4, 6))
    else:
        table.given(c.Roll(conflict=None, actor="Alice"))
        events = table.when(c.Roll(conflict=None, actor="Bob"))
        assert faces.rolled == [(8, 7), (6, 5), (4, 3), (10, 2), (8, 7), (8, 4), (6, 6)]
    rolled = only(events, ev.PoolRolled)
    assert [(f.size, f.value) for f in rolled.results] == [(8, 7), (8, 4), (6, 6)]
    assert rolled.generated == (dice == "managed")

    compared = only(events, ev.RollsCompared)
    assert (compared.a, compared.b) == ("alice", "bob")
    assert compared.a_values == [7, 5, 3, 2]
    assert compared.b_values == [7, 6, 4, 1]  # padded with a d1 showing 1
    assert [(p.a, p.b) for p in compared.pairs] == [(7, 7), (5, 6), (3, 4), (2, 1)]
    assert winners(compared) == ["tie", "b", "b", "a"]
    assert compared.upper_hand == "bob"
    assert compared.raw == {"alice": 1, "bob": 2}
    assert compared.kept == {"alice": 1, "bob": 2}

    # The upper hand allocates first.
    error = table.refuse(allocate("Alice", "Bob", Resolve=1), "upper-hand-first")
    assert error.message == "Bob (upper hand) allocates first"

    events = table.when(allocate("Bob", "Alice", Health=2))
    assert only(events, ev.DamageAllocated).allocations == [
        ev.Allocation(target="alice", ability="health", pips=2)
    ]
    change = only(events, ev.AbilityChanged)
    assert (change.character_id, change.ability, change.cause) == ("alice", "health", "damage")
    assert (change.from_, change.to) == (6, health_after)

    events = table.when(allocate("Alice", "Bob", Resolve=1))
    change = only(events, ev.AbilityChanged)
    assert (change.character_id, change.ability) == ("bob", "resolve")
    assert (change.from_, change.to) == (6, resolve_after)
    assert not all_of(events, ev.GoalAchieved)
    assert not all_of(events, ev.ConflictEnded)

    assert table.size("Alice", "Health") == health_after
    assert table.size("Bob", "Resolve") == resolve_after
    assert (table.intensity("Alice"), table.intensity("Bob")) == (8, 9)
    assert table.state.conflicts["c1"].status == "open"
    # Nobody ceded: the next goal starts round 2.
    started = only(table.when(goal("Alice", "Bob")), ev.RoundStarted)
    assert started.round == 2


# --- BR-3 every-other discard ---------------------------------------------------------------


def test_br3_every_other_discard(new: Tables) -> None:
    table = new(RECORDED).given(
        character(
            "Alice",
            "Body:Body:d8",
            "Mind:Mind:d6",
            "Kit:Kit:d4",
            "Brawl:Body:d10",
            "Run:Mind:d6",
            "Health:Body:d6",
        ),
        character(
            "Bob",
            "Body:Body:d10",
            "Resolve:Mind:d6",
            "Kit:Kit:d4",
            "Shoot:Kit:d8",
            "Health:Body:d6",
            player="gm",
        ),
    )
    duel(table, "Alice", "Bob")
    alice = only(
        table.when(pool("Alice", "Body", "Mind", "Kit", extras=["Brawl", "Run"])),
        ev.PoolAssembled,
    )
    assert (len(alice.dice), alice.extras, alice.intensity_cost) == (5, 2, 4)
    bob = only(
        table.when(pool("Bob", "Body", "Resolve", "Kit", extras=["Shoot"])), ev.PoolAssembled
    )
    assert (len(bob.dice), bob.extras, bob.intensity_cost) == (4, 1, 2)
    table.given(roll("Alice", 5, 6, 2, 6, 4))
    compared = only(table.when(roll("Bob", 10, 3, 1, 3)), ev.RollsCompared)
    assert compared.a_values == [6, 6, 5, 4, 2]
    assert compared.b_values == [10, 3, 3, 1, 1]
    assert winners(compared) == ["b", "a", "a", "a", "a"]
    assert compared.upper_hand == "bob"
    assert compared.raw == {"alice": 4, "bob": 1}
    assert compared.kept == {"alice": 2, "bob": 1}  # Alice keeps her 1st and 3rd

    table.refuse(allocate("Alice", "Bob", Resolve=2), "upper-hand-first")
    table.refuse(allocate("Bob", "Alice", Health=2), "pips-total")
    change = only(table.when(allocate("Bob", "Alice", Health=1)), ev.AbilityChanged)
    assert (change.from_, change.to) == (6, 5)
    error = table.refuse(allocate("Alice", "Bob", Resolve=3), "pips-total")
    assert error.message == "allocation totals 3 pips but Alice kept 2 successes"
    events = table.when(allocate("Alice", "Bob", Resolve=1, Shoot=1))
    assert [(e.ability, e.from_, e.to) for e in all_of(events, ev.AbilityChanged)] == [
        ("resolve", 6, 5),
        ("shoot", 8, 7),
    ]
    assert (table.intensity("Alice"), table.intensity("Bob")) == (6, 8)


# --- BR-4 helping ---------------------------------------------------------------------------

ALICE_4 = character("Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Health:Body:d6")
CARA_4 = character("Cara", "Body:Body:d6", "Mind:Mind:d6", "Kit:Kit:d4", "Health:Body:d6")
DAN_4 = character(
    "Dan", "Body:Body:d10", "Resolve:Mind:d10", "Kit:Kit:d10", "Health:Body:d10", player="gm"
)


def test_br4_helping(new: Tables) -> None:
    table = new(RECORDED).given(
        ALICE_4,
        CARA_4,
        DAN_4,
        c.OpenConflict(conflict="c1", sides={"crew": ["Alice", "Cara"], "door": ["Dan"]}),
        goal("Alice", "Dan", text="get past the door"),
        c.DeclareGoal(
            conflict="c1",
            actor="Cara",
            kind="helping",
            text="distract him",
            ally="Alice",
            die="d8",
        ),
        goal("Dan", "Alice", text="throw Alice out"),
    )
    # The helping pool is bought and rolled before any other pool.
    table.refuse(pool("Alice", "Body", "Mind", "Kit"), "wrong-phase")

    set_ = only(
        table.when(c.SetDifficulty(conflict="c1", against="cara", replace=3)),
        ev.DifficultyPoolSet,
    )
    assert (set_.against, set_.dice, set_.replaced_count, set_.target_size) == (
        "cara",
        [8, 8, 8, 2],
        3,
        8,
    )
    cara = only(table.when(pool("Cara", "Body", "Mind", "Kit")), ev.PoolAssembled)
    assert (cara.intensity_cost, [d.size for d in cara.dice]) == (1, [6, 6, 4])

    events = table.when(roll("Cara", 6, 5, 2, difficulty=[8, 3, 1, 2]))
    rolled = all_of(events, ev.PoolRolled)
    assert [r.difficulty for r in rolled] == [False, True]
    assert [f.size for f in rolled[1].results] == [8, 8, 8, 2]
    compared = only(events, ev.RollsCompared)
    assert (compared.a, compared.b) == ("cara", "difficulty")
    assert compared.a_values == [6, 5, 2, 1]
    assert compared.b_values == [8, 3, 2, 1]
    assert winners(compared) == ["b", "a", "tie", "tie"]
    assert compared.upper_hand == "difficulty"
    assert compared.raw == {"cara": 1, "difficulty": 1}
    assert compared.kept == {"cara": 1, "difficulty": 1}
    granted = only(events, ev.SituationDieGranted)
    assert (granted.character_id, granted.size, granted.uses, granted.source) == (
        "alice",
        8,
        1,
        "cara",
    )
    penalty = only(events, ev.PenaltyDieImposed)
    assert (penalty.character_id, penalty.size, penalty.uses) == ("cara", 8, 1)

    # Alice's pool this round holds the d8 situation die, free.
    events = table.when(pool("Alice", "Body", "Mind", "Kit"))
    alice = only(events, ev.PoolAssembled)
    assert [(d.source, d.size) for d in alice.dice] == [
        ("ability", 8),
        ("ability", 6),
        ("ability", 4),
        ("situation", 8),
    ]
    assert alice.intensity_cost == 1
    used = only(events, ev.SpecialDieUsed)
    assert (used.character_id, used.kind, used.size, used.uses_left) == ("alice", "situation", 8, 0)
    assert table.who("Alice").special == []
    table.given(pool("Dan", "Body", "Resolve", "Kit"), roll("Alice", 5, 4, 3, 8))
    compared = only(table.when(roll("Dan", 7, 6, 2)), ev.RollsCompared)
    assert (compared.a, compared.b) == ("alice", "dan")
    assert compared.a_values == [8, 5, 4, 3]  # the situation die's 8 wins the first pair
    assert compared.b_values == [7, 6, 2, 1]
    assert winners(compared) == ["a", "b", "a", "a"]
    assert compared.upper_hand == "alice"
    assert compared.kept == {"alice": 3, "dan": 1}
    table.given(allocate("Alice", "Dan", Body=3), allocate("Dan", "Alice", Mind=1))

    # Round 2: Cara's penalty d8 joins her pool and counts for the side opposing her.
    table.given(
        goal("Alice", "Dan"),
        goal("Cara", "Dan"),
        goal("Dan", "Cara"),
        pool("Alice", "Body", "Mind", "Kit"),
    )
    events = table.when(pool("Cara", "Body", "Mind", "Kit"))
    cara = only(events, ev.PoolAssembled)
    assert [(d.source, d.size) for d in cara.dice] == [
        ("ability", 6),
        ("ability", 6),
        ("ability", 4),
        ("penalty", 8),
    ]
    assert cara.intensity_cost == 1
    used = only(events, ev.SpecialDieUsed)
    assert (used.character_id, used.kind, used.size, used.uses_left) == ("cara", "penalty", 8, 0)
    assert table.who("Cara").special == []
    alice2 = [p for p in table.events(ev.PoolAssembled) if (p.actor, p.round) == ("alice", 2)]
    assert [d.source for d in alice2[0].dice] == ["ability"] * 3  # the situation die is spent

    table.given(
        pool("Dan", "Body", "Resolve", "Kit"), roll("Alice", 1, 1, 1), roll("Cara", 4, 4, 3, 8)
    )
    events = table.when(roll("Dan", 5, 3, 2))
    by_pair = {(e.a, e.b): e for e in all_of(events, ev.RollsCompared)}
    assert set(by_pair) == {("alice", "dan"), ("cara", "dan")}
    cara_dan = by_pair["cara", "dan"]
    assert cara_dan.a_values == [4, 4, 3, 1]
    assert cara_dan.b_values == [8, 5, 3, 2]  # Dan's dice and Cara's penalty die
    assert winners(cara_dan) == ["b", "b", "tie", "b"]
    assert cara_dan.upper_hand == "dan"
    assert cara_dan.kept == {"cara": 0, "dan": 3}
    alice_dan = by_pair["alice", "dan"]
    assert alice_dan.b_values == [5, 3, 2]  # Cara's penalty is hers alone
    assert (table.intensity("Alice"), table.intensity("Cara"), table.intensity("Dan")) == (8, 8, 8)


def test_br4_difficulty_pool_without_replacement_is_the_default_d2s(new: Tables) -> None:
    table = new(RECORDED).given(
        ALICE_4,
        CARA_4,
        DAN_4,
        c.OpenConflict(conflict="c1", sides={"crew": ["Alice", "Cara"], "door": ["Dan"]}),
        c.DeclareGoal(
            conflict="c1", actor="Cara", kind="helping", text="distract", ally="Alice", die="d8"
        ),
    )
    set_ = only(
        table.when(c.SetDifficulty(conflict="c1", against="Cara", replace=0)),
        ev.DifficultyPoolSet,
    )
    assert (set_.dice, set_.replaced_count) == ([2, 2, 2, 2], 0)


# --- BR-5 goal by zeroing -------------------------------------------------------------------


@pytest.mark.parametrize(("pips", "nerve_after"), [("faces", 3), ("steps", 2)])
def test_br5_goal_by_zeroing(new: Tables, pips: str, nerve_after: int) -> None:
    table = new({"pips": pips, "dice": "recorded"}).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d8", "Kit:Kit:d8", "Health:Body:d8"),
        character("Dan", "Resolve:Mind:d2", "Nerve:Body:d4", player="gm"),
        c.OpenConflict(conflict="c1", sides={"alice": ["Alice"], "dan": ["Dan"]}),
        goal("Alice", "Dan", text="Dan backs down", ability="Resolve"),
        goal("Dan", "Alice", text="Alice leaves"),
        pool("Alice", "Body", "Mind", "Kit"),
        pool("Dan", "Nerve", "Resolve"),  # Dan has no Kit die: that category is missing
        roll("Alice", 8, 7, 6),
    )
    compared = only(table.when(roll("Dan", 3, 2)), ev.RollsCompared)
    assert compared.b_values == [3, 2, 1]
    assert compared.upper_hand == "alice"
    assert compared.kept == {"alice": 3, "dan": 0}

    events = table.when(allocate("Alice", "Dan", Resolve=2, Nerve=1))
    changes = [(e.ability, e.from_, e.to) for e in all_of(events, ev.AbilityChanged)]
    assert changes == [("resolve", 2, 0), ("nerve", 4, nerve_after)]
    achieved = only(events, ev.GoalAchieved)
    assert (achieved.actor, achieved.goal, achieved.target, achieved.how) == (
        "alice",
        "Dan backs down",
        "dan",
        "zeroed",
    )
    assert not all_of(events, ev.CharacterDied)  # Resolve is not Health
    assert table.size("Dan", "Resolve") == 0
    assert table.size("Dan", "Nerve") == nerve_after
    assert not table.who("Dan").dead
    # The goal is stored as reached; a zeroed die cannot be targeted again.
    assert table.state.conflicts["c1"].achieved == [("alice", "dan", "Dan backs down")]
    table.refuse(goal("Alice", "Dan", ability="Resolve"), "no-such-die")


# --- BR-6 all ties --------------------------------------------------------------------------


def test_br6_all_ties(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d6", "Mind:Mind:d4"),
        character("Bob", "Body:Body:d6", "Mind:Mind:d4", player="gm"),
    )
    duel(table, "Alice", "Bob")
    table.given(pool("Alice", "Body", "Mind"), pool("Bob", "Body", "Mind"), roll("Alice", 5, 3))
    events = table.when(roll("Bob", 5, 3))
    compared = only(events, ev.RollsCompared)
    assert (compared.a_values, compared.b_values) == ([5, 3], [5, 3])
    assert winners(compared) == ["tie", "tie"]
    assert compared.upper_hand is None
    assert compared.raw == {"alice": 0, "bob": 0}
    assert compared.kept == {"alice": 0, "bob": 0}
    assert not all_of(table.events(), ev.DamageAllocated)
    assert not all_of(table.events(), ev.AbilityChanged)
    # No effects: the round is over at once; both still paid.
    table.refuse(allocate("Alice", "Bob", Body=1), "wrong-phase")
    assert [p.intensity_cost for p in table.events(ev.PoolAssembled)] == [1, 1]
    assert (table.intensity("Alice"), table.intensity("Bob")) == (9, 9)
    assert table.state.conflicts["c1"].status == "open"
    assert only(table.when(goal("Bob", "Alice")), ev.RoundStarted).round == 2
