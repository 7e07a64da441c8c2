"""The Beer Run audit: a clean log audits clean, and each recorded decision edited into the
log (a stored number the rules do not reach) is named by seq and field."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.events import beer_run as ev
from tablelog.events.base import Event
from tablelog.events.codec import encode
from tablelog.events.envelope import Envelope
from tablelog.rules.beer_run import commands as c
from tests.unit.beer_run.table import Table, Tables, allocate, character, goal, pool, roll


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
