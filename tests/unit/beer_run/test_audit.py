"""The Beer Run audit: a clean log audits clean, and each recorded decision edited into the
log (a stored number the rules do not reach) is named by seq and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.commands.importing import import_jsonl
from tablelog.events.base import Event
from tablelog.events.codec import encode
from tablelog.events.envelope import Envelope
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tests.unit.beer_run.table import (
    Table,
    Tables,
    all_of,
    allocate,
    character,
    goal,
    pool,
    roll,
)


def br2(new: Tables) -> Table:
    """BR-2 with its effects: Bob takes 2 pips off Alice's Health, Alice 1 off his Resolve."""
    return new({"dice": "recorded"}).given(
        character(
            "Alice",
            "Body:Body:d8",
            "Mind:Mind:d6",
            "Kit:Kit:d4",
            "Brawl:Body:d10",
            "Health:Body:d6",
        ),
        character(
            "Bob", "Body:Body:d8", "Mind:Mind:d8", "Kit:Kit:d6", "Resolve:Mind:d6", player="gm"
        ),
        c.OpenConflict(conflict="c1", sides={"a": ["Alice"], "b": ["Bob"]}),
        goal("Alice", "Bob"),
        goal("Bob", "Alice"),
        pool("Alice", "Body", "Mind", "Kit", extras=["Brawl"]),
        pool("Bob", "Body", "Mind", "Kit"),
        roll("Alice", 7, 5, 3, 2),
        roll("Bob", 7, 4, 6),
        allocate("Bob", "Alice", Health=2),
        allocate("Alice", "Bob", Resolve=1),
    )


def edited(log: list[Envelope], kind: type[Event], **changes: Any) -> tuple[list[Envelope], int]:
    """The log with the first event of `kind` changed (the chain is not the point here:
    `verify` finds a broken chain; the audit finds a decision that does not follow)."""
    for i, envelope in enumerate(log):
        event = envelope.event()
        if isinstance(event, kind):
            changed = msgspec.structs.replace(event, **changes)
            log = [
                *log[:i],
                msgspec.structs.replace(envelope, payload=encode(changed)),
                *log[i + 1 :],
            ]
            return log, envelope.seq
    raise AssertionError(f"no {kind.__name__} in the log")


def test_a_log_the_rules_wrote_audits_clean(new: Tables) -> None:
    account = account_of(br2(new).log())
    assert account.discrepancies == []
    notes = [n.text for conflict in account.conflicts for s in conflict.sections for n in s.notes]
    assert any("Bob has the upper hand" in n and "keeps all 2" in n for n in notes)
    assert any("2 on Health d6 -> d4" in n for n in notes)


@pytest.mark.parametrize(
    ("kind", "changes", "field"),
    [
        (ev.RollsCompared, {"kept": {"alice": 1, "bob": 1}}, "kept"),
        (ev.RollsCompared, {"upper_hand": "alice"}, "upper_hand"),
        (ev.PoolAssembled, {"intensity_cost": 1}, "intensity_cost"),
        (ev.AbilityChanged, {"to": 5}, "to"),
    ],
)
def test_an_edited_decision_is_named_by_seq_and_field(
    new: Tables, kind: type[Event], changes: dict[str, Any], field: str
) -> None:
    log, seq = edited(br2(new).log(), kind, **changes)
    found = account_of(log).discrepancies
    assert (found[0].seq, found[0].field) == (seq, field)


def test_an_impossible_face_is_flagged(new: Tables) -> None:
    table = br2(new)
    log = table.log()
    for i, envelope in enumerate(log):
        event = envelope.event()
        if isinstance(event, ev.PoolRolled):
            faces = [ev.Face(size=8, value=9), *event.results[1:]]
            changed = msgspec.structs.replace(event, results=faces)
            log[i] = msgspec.structs.replace(envelope, payload=encode(changed))
            found = account_of(log).discrepancies
            assert found[0].seq == envelope.seq
            assert "impossible on a d8" in str(found[0].expected)
            return
    raise AssertionError("no roll")


# --- goals won by a side, and a log written before issue 14 ---------------------------------

# Exported by the tablelog of commit 7e6ba8a itself (tests/fixtures/README.md): goals were then
# won by the allocating character alone, and kept successes beyond what the opponent's dice
# could take were not spent.
BEFORE_14 = Path(__file__).resolve().parents[2] / "fixtures" / "beer-run-7e6ba8a.jsonl"


def before_14(new: Tables) -> Table:
    """The fixture imported into a fresh SQLite file (a table of a Tables fixture's store)."""
    table = new()
    import_jsonl(table.store, BEFORE_14)
    return Table(table.store, "pub")


def test_a_goal_the_rules_do_not_win_is_named_by_seq(new: Tables) -> None:
    table = br2(new)
    # Alice's pip zeroes nothing (Resolve d6 -> d5): a goal recorded there does not follow.
    log = table.log()
    forged = ev.GoalAchieved(conflict="c1", round=1, actor="alice", goal="x", target="bob")
    last = log[-1]
    log.append(
        msgspec.structs.replace(
            last, seq=last.seq + 1, type=forged.type_name(), payload=encode(forged)
        )
    )
    found = account_of(log).discrepancies
    assert [(d.seq, d.type) for d in found] == [(last.seq + 1, "br.goal_achieved")]
    assert "no goal of alice against bob is won here" in str(found[0].expected)


def test_a_goal_won_for_an_ally_that_placed_no_pip_audits_clean(new: Tables) -> None:
    table = before_14(new)
    log = table.log()
    account = account_of(log)
    assert account.discrepancies == []
    # Alice's 2 pips on Bob's Nerve (seq 24-26) win Carol's goal too; a goal achieved for Carol
    # there follows from the rules (the log of 7e6ba8a recorded Alice's only).
    carol = ev.GoalAchieved(
        conflict="c1", round=1, actor="carol", goal="Bob drops the bat", target="bob"
    )
    at = next(i for i, e in enumerate(log) if e.seq == 26)
    spliced = [*log[: at + 1], msgspec.structs.replace(log[at], payload=encode(carol))]
    assert account_of(spliced).discrepancies == []
    dave = msgspec.structs.replace(carol, actor="dave", goal="The rat flees")
    spliced = [*log[: at + 1], msgspec.structs.replace(log[at], payload=encode(dave))]
    assert [d.seq for d in account_of(spliced).discrepancies] == [26]


def test_a_log_written_before_issue_14_audits_clean_and_plays_on(new: Tables) -> None:
    table = before_14(new)
    assert account_of(table.log()).discrepancies == []
    # c2 (seq 40): Dave kept 3 against the Rat's two d1s and spent 2, as the rules then said.
    allocation = table.events(ev.DamageAllocated)[-1]
    assert (allocation.by, sum(a.pips for a in allocation.allocations)) == ("dave", 2)
    # Spending fewer than the dice could take never followed: named by its seq.
    log = table.log()
    at = next(i for i, e in enumerate(log) if e.seq == 40)
    short = msgspec.structs.replace(
        allocation, allocations=[ev.Allocation(target="rat", ability="body", pips=1)]
    )
    log[at] = msgspec.structs.replace(log[at], payload=encode(short))
    assert 40 in [d.seq for d in account_of(log).discrepancies]

    assert table.state.conflicts["c1"].achieved == [("alice", "bob", "Bob backs down")]
    # Play on. c2: every die of the Rat is at 0; it cedes and the conflict ends.
    table.given(c.Cede(conflict="c2", actor="Rat"))
    assert table.state.conflicts["c2"].status == "ended"
    # c1 round 2 (Bob: Body d3, Nerve 0, Kit d3): Carol's 3 pips put Body to 0 and
    # win both goals of her side aimed at Bob.
    table.given(
        goal("Alice", "Bob", text="Bob is out"),
        goal("Carol", "Bob", text="Bob is pinned"),
        goal("Bob", "Alice"),
        pool("Alice", "Body", "Mind", "Kit"),
        pool("Carol", "Body", "Mind", "Kit"),
        pool("Bob", "Body", "Kit"),  # Nerve is at 0: Bob's Mind category is missing
        roll("Alice", 1, 1, 1),  # all ties against Bob [1, 1, 1]
        roll("Carol", 8, 8, 8),
        roll("Bob", 1, 1),
    )
    events = table.when(allocate("Carol", "Bob", Body=3))
    assert [(e.actor, e.goal) for e in all_of(events, ev.GoalAchieved)] == [
        ("alice", "Bob is out"),
        ("carol", "Bob is pinned"),
    ]
    assert account_of(table.log()).discrepancies == []


def test_the_account_says_whose_pips_won_an_allies_goal(new: Tables) -> None:
    table = before_14(new)
    table.given(
        c.Cede(conflict="c2", actor="Rat"),
        goal("Alice", "Bob", text="Bob is out"),
        goal("Carol", "Bob", text="Bob is pinned"),
        goal("Bob", "Alice"),
        pool("Alice", "Body", "Mind", "Kit"),
        pool("Carol", "Body", "Mind", "Kit"),
        pool("Bob", "Body", "Kit"),
        roll("Alice", 1, 1, 1),
        roll("Carol", 8, 8, 8),
        roll("Bob", 1, 1),
        allocate("Carol", "Bob", Body=3),
    )
    notes = [
        n.text
        for conflict in account_of(table.log()).conflicts
        if conflict.conflict == "c1"
        for section in conflict.sections
        for n in section.notes
        if n.kind == "goal-achieved"
    ]
    assert notes[-2:] == [
        'Alice achieves its goal "Bob is out": a die of Bob is at 0 by Carol\'s pips (a goal '
        "is won by its side)",
        'Carol achieves its goal "Bob is pinned": a die of Bob is at 0',
    ]
