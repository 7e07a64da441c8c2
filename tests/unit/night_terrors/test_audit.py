"""The Night Terrors audit: a clean log audits clean and explains each outcome with its
numbers, and each recorded decision edited into the log (a stored number the rules do not
reach) is named by seq and field."""

from __future__ import annotations

from typing import Any

import pytest

from tablelog.commands.audit import account_of
from tablelog.events import night_terrors as ev
from tablelog.events.base import Event
from tablelog.rules.night_terrors.demo import demo
from tests.unit.beer_run.test_audit import edited
from tests.unit.night_terrors.table import Table, Tables


def played(new: Tables) -> Table:
    """The demo: NT-5 played to the end (a reversal, an escalation, a push, a give)."""
    whole = demo()
    return new(dict(whole.options)).given(whole.commands)


def test_a_log_the_rules_wrote_audits_clean(new: Tables) -> None:
    account = account_of(played(new).store.read("t"))
    assert account.discrepancies == []
    notes = [n.text for conflict in account.conflicts for s in conflict.sections for n in s.notes]
    assert any("alice raises 9H + 2D + 8D = 19" in n and "held reversal" in n for n in notes)
    assert any("push: price 19 - 11 = 8" in n and "trump fallout 9" in n for n in notes)
    assert any(n == "bob pays 8 (price) under Spades: blood 8" for n in notes)
    assert any("alice decide(s) the stakes" in n for n in notes)


@pytest.mark.parametrize(
    ("kind", "changes", "field"),
    [
        (ev.RaiseMade, {"value": 8}, "value"),
        (ev.RaiseMade, {"trump_value": 3}, "trump_value"),
        (ev.RaiseAnswered, {"outcome": "see"}, "outcome"),
        (ev.RaiseAnswered, {"total": 9}, "total"),
        (ev.CostPaid, {"blood": 4, "tears": 5}, "split"),
        (ev.ConflictEnded, {"winners": ["bob"]}, "winners"),
    ],
)
def test_an_edited_decision_is_named_by_seq_and_field(
    new: Tables, kind: type[Event], changes: dict[str, Any], field: str
) -> None:
    log, seq = edited(played(new).store.read("t"), kind, **changes)
    found = account_of(log).discrepancies
    assert (found[0].seq, found[0].field) == (seq, field)
