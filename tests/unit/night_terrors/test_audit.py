"""The Night Terrors audit: a clean log audits clean and explains each outcome with its
numbers, and each recorded decision edited into the log (a stored number the rules do not
reach) is named by seq and field."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.events.base import Event
from tablelog.events.codec import encode
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules.demo import demo
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
    assert any("Alice raises 9H + 2D + 8D = 19" in n and "held reversal" in n for n in notes)
    assert any("push: price 19 - 11 = 8" in n and "trump fallout 9" in n for n in notes)
    assert any(n == "Bob pays 8 (price) under Spades: blood 8" for n in notes)
    assert any("Alice decides the stakes" in n for n in notes)


@pytest.mark.parametrize(
    ("kind", "changes", "field"),
    [
        (ev.RaiseMade, {"value": 8}, "value"),
        (ev.RaiseMade, {"trump_value": 3}, "trump_value"),
        (ev.RaiseAnswered, {"outcome": "see"}, "outcome"),
        (ev.RaiseAnswered, {"total": 9}, "total"),
        (ev.CostPaid, {"blood": 4, "tears": 5}, "split"),
        (ev.ConflictEnded, {"winners": ["bob"]}, "winners"),
        (ev.CostPaid, {"traded": 2}, "traded"),
    ],
)
def test_an_edited_decision_is_named_by_seq_and_field(
    new: Tables, kind: type[Event], changes: dict[str, Any], field: str
) -> None:
    log, seq = edited(played(new).store.read("t"), kind, **changes)
    found = account_of(log).discrepancies
    assert (found[0].seq, found[0].field) == (seq, field)


def test_a_pool_emptied_is_checked_against_the_payment_before_it(new: Tables) -> None:
    whole = demo()
    table = new(dict(whole.options)).given(whole.commands)
    log = table.store.read("t")
    # Bob's Blood goes 20 -> 3 in the demo; a PoolEmptied edited in after his first payment
    # claims a pool that is not empty.
    at = next(i for i, e in enumerate(log) if isinstance(e.event(), ev.CostPaid))
    fake = ev.PoolEmptied(character_id="bob", pool="blood", consequence="snap")
    log[at + 1] = msgspec.structs.replace(log[at + 1], type=fake.type_name(), payload=encode(fake))
    fields = {(d.seq, d.field) for d in account_of(log).discrepancies}
    assert {(log[at + 1].seq, "consequence"), (log[at + 1].seq, "pool")} <= fields
