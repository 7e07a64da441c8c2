"""The Bid & Challenge audit: a log the rules wrote audits clean, and each edited decision (a
total, the winner, where a card went, whether the power applied) is named by its seq and field.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablelog.commands.audit import account_of
from tablelog.events.base import Event
from tablelog.rulesets.bid_and_challenge import events as ev
from tests.unit.beer_run.test_audit import edited
from tests.unit.bid_and_challenge.table import (
    RECORDED,
    Table,
    Tables,
    bid,
    challenge,
    pass_,
    push,
    roll,
    seated,
)


def bc1(new: Tables) -> Table:
    return new(RECORDED).given(
        seated(),
        bid("Anna", "Brawn", "Sword"),
        pass_("Cara"),
        challenge("Ben", "Dodge", universe=["Storm"]),
        push("Anna", "QuickWits"),
        roll([4, 2, 1], [5, 6]),
    )


def test_a_log_the_rules_wrote_audits_clean(new: Tables) -> None:
    account = account_of(bc1(new).log())
    assert account.discrepancies == []
    notes = [n.text for c in account.conflicts for s in c.sections for n in s.notes]
    assert (
        "ben wins: ben 12 beats anna 10; the cards in Play return to their origin "
        "decks, but anna's pushed cards go to Discard (the bid lost)"
    ) in notes
    assert "anna (active) rolls 4+2+1+3 = 10" in notes
    assert "quickwits goes from anna's Play to Discard (push lost)" in notes
    assert (
        'anna pushes "I push on", rotating QuickWits = 1d6 (1 extra card, at most Flow 3); lost '
        "if the bid loses"
    ) in notes
    # Each side's row adds up on its own: faces, then the cards' mods, then the total.
    (table,) = [s.table for c in account.conflicts for s in c.sections if s.table]
    assert table.columns == ["side", "character", "cards", "faces", "mods", "total"]
    assert table.rows == [
        ["active", "anna", "brawn, sword, quickwits", "4 2 1", "+3", "10"],
        ["challenger", "ben", "dodge, storm", "5 6", "+1", "12"],
    ]


def _first(kind: type[Event], reason: str | None = None) -> Any:
    def pick(event: Event) -> bool:
        return isinstance(event, kind) and reason in (None, getattr(event, "reason", None))

    return pick


@pytest.mark.parametrize(
    ("pick", "changes", "field"),
    [
        (_first(ev.DiceRolled), {"total": 11}, "total"),
        (_first(ev.RoundResolved), {"winner": "anna", "loser": "ben"}, "winner"),
        (_first(ev.RoundResolved), {"power_applied": True}, "power_applied"),
        # QuickWits, pushed by the loser, back to the Deck instead of the Discard.
        (_first(ev.CardMoved, "push_lost"), {"to": "deck", "reason": "return"}, "event"),
    ],
)
def test_an_edited_decision_is_named_by_seq_and_field(
    new: Tables, pick: Any, changes: dict[str, Any], field: str
) -> None:
    log = bc1(new).log()
    at = next(i for i, envelope in enumerate(log) if pick(envelope.event()))
    edited_part, seq = edited(log[at:], type(log[at].event()), **changes)
    found = account_of([*log[:at], *edited_part]).discrepancies
    assert (found[0].seq, found[0].field) == (seq, field)
