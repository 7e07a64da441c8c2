"""The Ace of Cards audit: a log the rules wrote audits clean and explains each outcome with
its numbers and rule; each recorded decision edited into the log (a number or a verdict the
rules do not reach) is named by seq and field."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.events.base import Event
from tablelog.events.codec import encode
from tablelog.events.envelope import Envelope
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tests.unit.ace_of_cards.table import Table, Tables, ace, magic, open_


def played(new: Tables) -> Table:
    """AC-1's Magic Flush, AC-8's Trap Card hit, AC-6 (a)'s doubled critical, AC-2's Triple
    Support (managed deck, recorded dice)."""
    table = new({"dice": "recorded"})
    table.shuffle.deck("3C", "4C", "5C", "6C", "JK1", "5D", "5S", bottom=["3H"])
    return table.given(
        ace("kit", magic_cards=2, trap_card=2),
        c.AdjustHP(character="kit", delta=-30),
        open_(["kit"], ["goblin", "ogre"]),
        magic("kit", 20, "3C", "4C", "5C", "6C", set="magic-flush"),
        c.TakeAction(conflict=None, actor="goblin", text="claws"),
        c.TrapCard(conflict=None, character="kit", suit="hearts"),
        c.CallCheck(
            conflict=None,
            character="kit",
            kind="accuracy",
            dice=[8, 10],
            dl=9,
            damage=5,
            target="ogre",
            double=True,
        ),
        c.RollCheck(conflict=None, check="k1", values=[7, 7]),
        magic("kit", 15, "5D", "5S", "JK1", jokers={"JK1": "5H"}),
    )


def edited(
    log: list[Envelope], kind: type[Event], nth: int = 0, **changes: Any
) -> tuple[list[Envelope], int]:
    """The log with the nth event of `kind` changed (the chain is `verify`'s business)."""
    seen = 0
    for i, envelope in enumerate(log):
        event = envelope.event()
        if isinstance(event, kind):
            if seen == nth:
                changed = msgspec.structs.replace(event, **changes)
                log = [
                    *log[:i],
                    msgspec.structs.replace(envelope, payload=encode(changed)),
                    *log[i + 1 :],
                ]
                return log, envelope.seq
            seen += 1
    raise AssertionError(f"no {kind.__name__} in the log")


def test_a_log_the_rules_wrote_audits_clean_with_its_numbers(new: Tables) -> None:
    account = account_of(played(new).log())
    assert account.discrepancies == []
    notes = [n.text for conflict in account.conflicts for s in conflict.sections for n in s.notes]
    assert any(
        "Magic Flush: 43 fire damage to goblin, ogre (25 + (3 + 4 + 5 + 6) = 43)" in n
        for n in notes
    )
    assert any("bottom card is 3H (a joker or the named suit hits)" in n for n in notes)
    assert any("(7 + 5 = 12, x 2 = 24" in n or "HR 7 + 5 = 12, x 2 = 24" in n for n in notes)
    assert any("(5 + 5 + 5) x 3 = 45 HP and MP" in n for n in notes)


@pytest.mark.parametrize(
    ("kind", "nth", "changes", "field"),
    [
        (ev.SetEffectApplied, 0, {"amount": 50}, "amount"),
        (ev.SetEffectApplied, 0, {"damage_type": "ice"}, "damage_type"),
        (
            ev.SetEffectApplied,
            1,
            {"recovered": [ev.Recovery(character_id="kit", hp=45, mp=45)]},
            "recovered",
        ),
        (ev.MagicCardsUsed, 0, {"fits": ["magic-flush"]}, "fits"),
        (ev.MagicCardsUsed, 1, {"set": None}, "set"),
        (ev.TrapCardRevealed, 0, {"hit": False}, "hit"),
        (ev.CheckRolled, 0, {"result": 13}, "result"),
        (ev.CheckResolved, 0, {"damage": 12}, "damage"),
        (ev.CheckResolved, 0, {"doubled": False}, "doubled"),
        (ev.CardsDrawn, 1, {"cards": ["1C", "2C", "7C", "2D"]}, "cards"),
    ],
)
def test_an_edited_decision_is_named_by_seq_and_field(
    new: Tables, kind: type[Event], nth: int, changes: dict[str, Any], field: str
) -> None:
    log, seq = edited(played(new).log(), kind, nth, **changes)
    found = account_of(log).discrepancies
    assert (found[0].seq, found[0].field) == (seq, field)
