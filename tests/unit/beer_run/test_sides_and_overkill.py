"""A goal is won by its side, and overkill (rules/beer-run.md, Zero and Overkill; issue 14,
items 8 and 9).

When any ability of a character goes to 0 by pips, every goal of every member of the side
that spent those pips, aimed at that character, is won, whichever ability the goal named and
whichever ally placed the last pip. The pips spent equal the kept successes: more pips than a
die has left put it to 0 and the excess is lost; only when every opposing die is at 0 already
may fewer be spent.
"""

from __future__ import annotations

import pytest

from tablelog.commands.audit import account_of
from tablelog.events.base import Event
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tests.unit.beer_run.table import (
    Table,
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


def won(events: list[Event]) -> list[tuple[str, str, str | None]]:
    return [(e.actor, e.goal, e.target) for e in all_of(events, ev.GoalAchieved)]


# --- overkill -------------------------------------------------------------------------------


def alice_keeps_three(new: Tables, options: dict[str, str]) -> Table:
    """Alice [8,7,6] against Bob [1,1,1]: the upper hand and 3 kept; Bob keeps none."""
    return new({**RECORDED, **options}).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d8", "Kit:Kit:d8"),
        character(
            "Bob", "Body:Body:d6", "Mind:Mind:d6", "Kit:Kit:d6", "Health:Body:d2", player="gm"
        ),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
        goal("Alice", "Bob", text="Bob goes down"),
        goal("Bob", "Alice"),
        pool("Alice", "Body", "Mind", "Kit"),
        pool("Bob", "Body", "Mind", "Kit"),
        roll("Alice", 8, 7, 6),
        roll("Bob", 1, 1, 1),
    )


@pytest.mark.parametrize("pips", ["faces", "steps"])
def test_more_pips_than_a_die_has_put_it_to_zero_and_the_excess_is_lost(
    new: Tables, pips: str
) -> None:
    table = alice_keeps_three(new, {"pips": pips})
    # Fewer pips than kept successes, while Bob has dice left: refused.
    error = table.refuse(allocate("Alice", "Bob", Health=2), "pips-total")
    assert error.message == "allocation totals 2 pips but Alice kept 3 successes"
    events = table.when(allocate("Alice", "Bob", Health=3))
    assert only(events, ev.DamageAllocated).allocations == [
        ev.Allocation(target="bob", ability="health", pips=3)
    ]
    change = only(events, ev.AbilityChanged)
    assert (change.ability, change.from_, change.to) == ("health", 2, 0)
    assert only(events, ev.CharacterDied).character_id == "bob"
    assert won(events) == [("alice", "Bob goes down", "bob")]
    assert [table.size("Bob", a) for a in ("Body", "Mind", "Kit")] == [6, 6, 6]
    assert account_of(table.log()).discrepancies == []


def test_overkill_may_be_split_over_several_dice(new: Tables) -> None:
    table = alice_keeps_three(new, {})
    events = table.when(allocate("Alice", "Bob", Health=2, Kit=1))
    assert [(e.ability, e.to) for e in all_of(events, ev.AbilityChanged)] == [
        ("health", 0),
        ("kit", 5),
    ]
    # Bob is dead and kept nothing: the round is over, and with it the conflict.
    assert only(events, ev.ConflictEnded).remaining == ["a"]


def test_nothing_is_owed_against_an_opponent_with_every_die_at_zero(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d8"),
        character("Carol", "Body:Body:d8"),
        character("Bob", "Body:Body:d2", player="gm"),
        c.OpenConflict(conflict="c1", sides={"crew": ["Alice", "Carol"], "bob": ["Bob"]}),
        goal("Alice", "Bob", text="Bob is out"),
        goal("Carol", "Bob", text="Bob is tied up"),
        goal("Bob", "Alice"),
        pool("Alice", "Body", "Mind"),
        pool("Carol", "Body"),
        pool("Bob", "Body"),
        roll("Alice", 8, 8),
        roll("Carol", 8),
        roll("Bob", 1),  # Alice keeps 2, Carol 1
    )
    events = table.when(allocate("Alice", "Bob", Body=2))
    assert only(events, ev.AbilityChanged).to == 0
    # Carol kept 1, but Bob's only die is at 0: fewer pips (none) are spent, the round is over.
    table.refuse(allocate("Carol", "Bob", Body=1), "wrong-phase")
    state = table.state
    assert flow.phase(state, state.conflicts["c1"]) == "done"
    assert account_of(table.log()).discrepancies == []


# --- a goal is won by its side ----------------------------------------------------------------


def test_a_goal_naming_one_die_is_won_when_another_goes_to_zero(new: Tables) -> None:
    # Issue 14, item 8: Alice's goal names Nerve; her pips put Kit to 0: her goal is won.
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d10", "Mind:Mind:d10"),
        character("Kit", "Body:Body:d6", "Nerve:Mind:d4", "Gear:Body:d2", player="gm"),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "k": ["Kit"]}),
        goal("Alice", "Kit", text="Kit backs off", ability="Nerve"),
        goal("Kit", "Alice"),
        pool("Alice", "Body", "Mind"),
        pool("Kit", "Body", "Nerve"),
        roll("Alice", 9, 9),
        roll("Kit", 1, 1),  # Alice keeps 2
    )
    events = table.when(allocate("Alice", "Kit", Gear=2))
    assert [(e.ability, e.to) for e in all_of(events, ev.AbilityChanged)] == [("gear", 0)]
    assert won(events) == [("alice", "Kit backs off", "kit")]
    assert only(events, ev.GoalAchieved).how == "zeroed"
    assert table.size("Kit", "Nerve") == 4  # the named die is what a cede zeroes, nothing more
    assert table.state.conflicts["c1"].achieved == [("alice", "kit", "Kit backs off")]


def test_a_goal_is_not_won_while_no_die_of_its_target_is_at_zero(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d10"),
        character("Dan", "Body:Body:d2", "Nerve:Mind:d4", player="gm"),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "d": ["Dan"]}),
        goal("Alice", "Dan", ability="Nerve"),
        goal("Dan", "Alice"),
        pool("Alice", "Body"),
        pool("Dan", "Body", "Nerve"),
        roll("Alice", 9),
        roll("Dan", 1, 1),  # 9>1, then d1 pad 1=1: Alice keeps 1
    )
    events = table.when(allocate("Alice", "Dan", Body=1))
    assert only(events, ev.AbilityChanged).to == 1
    assert won(events) == []


SIDES = [
    character("Alice", "Body:Body:d8"),
    character("Carol", "Body:Body:d8"),
    character("Dave", "Body:Body:d8"),
    character("Bob", "Body:Body:d4", "Nerve:Body:d1", "Kit:Body:d1", player="gm"),
    character("Eve", "Body:Body:d4", player="gm"),
    c.OpenConflict(
        conflict="c1", sides={"crew": ["Alice", "Carol", "Dave"], "thugs": ["Bob", "Eve"]}
    ),
    goal("Alice", "Bob", text="Bob runs", ability="Nerve"),
    goal("Carol", "Bob", text="Bob gives up", ability="Nerve"),
    goal("Dave", "Eve", text="Eve is out"),
    goal("Bob", "Alice", text="Alice is beaten"),
    goal("Eve", "Dave", text="Dave is beaten"),
    *(pool(who, "Body") for who in ("Alice", "Carol", "Dave", "Bob", "Eve")),
    roll("Alice", 8),
    roll("Carol", 8),
    roll("Dave", 8),
    roll("Bob", 1),
    roll("Eve", 1),  # each of the crew keeps 1 against its opponent; the thugs keep none
]


def test_an_ally_zeroing_a_die_wins_every_goal_of_the_side_aimed_at_that_character(
    new: Tables,
) -> None:
    table = new(RECORDED).given(SIDES)
    # Carol's pip puts Nerve to 0: Carol's goal and Alice's (aimed at Bob) are won; Dave's
    # (aimed at Eve) is not, nor Bob's own goal.
    events = table.when(allocate("Carol", "Bob", Nerve=1))
    assert won(events) == [("alice", "Bob runs", "bob"), ("carol", "Bob gives up", "bob")]
    # Alice's pip then zeroes Kit: both goals are won already, once each.
    events = table.when(allocate("Alice", "Bob", Kit=1))
    assert only(events, ev.AbilityChanged).to == 0
    assert won(events) == []
    events = table.when(allocate("Dave", "Eve", Body=1))
    assert won(events) == []
    state = table.state
    assert state.conflicts["c1"].achieved == [
        ("alice", "bob", "Bob runs"),
        ("carol", "bob", "Bob gives up"),
    ]
    # Bob cedes: the goals won are not won again; Dave's (against Eve) is not his to give.
    events = table.when(c.Cede(conflict="c1", actor="Bob"))
    assert won(events) == []
    assert account_of(table.log()).discrepancies == []


def test_a_goal_won_in_one_round_can_be_won_again_as_a_new_goal(new: Tables) -> None:
    table = new(RECORDED).given(
        character("Alice", "Body:Body:d8"),
        character("Bob", "Body:Body:d4", "Nerve:Body:d1", "Kit:Body:d1", player="gm"),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
        goal("Alice", "Bob", text="Bob runs"),
        goal("Bob", "Alice"),
        pool("Alice", "Body"),
        pool("Bob", "Body"),
        roll("Alice", 8),
        roll("Bob", 1),
        allocate("Alice", "Bob", Nerve=1),
        goal("Alice", "Bob", text="Bob runs"),  # round 2, the same words
        goal("Bob", "Alice"),
        pool("Alice", "Body"),
        pool("Bob", "Body"),
        roll("Alice", 8),
        roll("Bob", 1),
    )
    events = table.when(allocate("Alice", "Bob", Kit=1))
    assert [(e.round, e.actor) for e in all_of(events, ev.GoalAchieved)] == [(2, "alice")]
    assert account_of(table.log()).discrepancies == []
