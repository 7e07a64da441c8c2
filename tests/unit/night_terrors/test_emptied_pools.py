"""A pool at 0 mid-conflict: the character leaves at once and "any excess cost is lost"
(rules/night-terrors.md), so nothing it still owed waits for `pay` or drains another pool.

Found by playing the ruleset from the rules file alone: a fallout that emptied Blood under
Clubs left the trump fallout owed, and paying it later took Sweat to 0 as well.
"""

from __future__ import annotations

from tablelog.rules.common import StartSession
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import commands as c
from tests.unit.night_terrors.table import (
    ALICE,
    BOB,
    RECORDED,
    Table,
    Tables,
    all_of,
    draw,
    only,
    open_,
    raise_,
    see,
)


def heavy_see(new: Tables, kind: str, **options: str) -> Table:
    """Pools of 5; Bob raises QC + JS = 20 (trump value 10, at Clubs or Spades alike)."""
    table = new({**RECORDED, "pool_size": "5", "hand_size": "1", "conflict_draw": "3", **options})
    table.given(ALICE, BOB, StartSession(), draw("Alice", "2C"), draw("Bob", "2H"))
    table.given(open_(kind, "Bob", "Alice"))
    extra = ["3D"] if kind == "guns" else []  # Spades is Alice's suit: she draws one more
    table.given(draw("Alice", "9H", "AD", "10D", *extra), draw("Bob", "QC", "JS", "3H"))
    table.given(raise_("Bob", "QC", "JS"))
    return table


def test_a_payment_that_empties_a_pool_drops_the_rest_owed(new: Tables) -> None:
    table = heavy_see(new, "melee")
    # 9H + AD + 10D = 20: fallout 9 (the middle card) and, with no trump, trump fallout 10.
    answered = only(table.when(see("Alice", "9H", "AD", "10D")), ev.RaiseAnswered)
    assert (answered.fallout, answered.trump_fallout) == (9, 10)
    assert [cost.amount for cost in table.state.costs["alice"]] == [9, 10]

    events = table.when(c.Pay(character="Alice", blood=5, sweat=4))
    assert only(events, ev.PoolEmptied).consequence == "shock"
    assert only(events, ev.ParticipantLeft).reason == "incapacitated"
    assert only(events, ev.ConflictEnded).winners == ["bob"]
    assert "alice" not in table.state.costs  # the trump fallout 10 is lost, not owed
    assert (table.who("Alice").blood, table.who("Alice").sweat) == (0, 1)
    table.refuse(c.Pay(character="Alice", sweat=1, blood=9), "nt-nothing-owed")


def test_a_forced_payment_is_not_made_after_the_pool_it_emptied(new: Tables) -> None:
    table = heavy_see(new, "guns")
    events = table.when(see("Alice", "9H", "AD", "10D"))
    # Spades: Blood only, and a King cannot trade Blood, so the fallout is paid at once;
    # it empties Blood, and the trump fallout 10 is lost.
    assert only(events, ev.RaiseAnswered).trump_fallout == 10
    assert [paid.cause for paid in all_of(events, ev.CostPaid)] == ["fallout"]
    assert only(events, ev.PoolEmptied).pool == "blood"
    assert "alice" not in table.state.costs
