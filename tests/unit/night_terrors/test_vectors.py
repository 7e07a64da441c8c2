"""The test vectors NT-1 .. NT-5 of rules/night-terrors.md, each played as a transcript
through the command layer (`execute` on a real SQLite file), checking the numbers the stored
events carry and the pools and hands that follow.

Cast: Alice = King of Spades, Bob = Queen of Hearts, full pools, 4-card session hands. The deck
is recorded (`deck=recorded`), so each vector's cards are dealt with `draw`.
"""

from __future__ import annotations

import pytest

from tablelog.rules.common import StartSession
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules.cards import DECK
from tablelog.rulesets.night_terrors.rules.demo import demo
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
    push,
    raise_,
    see,
)


def cast(new: Tables, alice: list[str], bob: list[str], **options: str) -> Table:
    """Alice and Bob, a session started and their 4-card hands dealt."""
    return new({**RECORDED, **options}).given(
        ALICE, BOB, StartSession(), draw("Alice", *alice), draw("Bob", *bob)
    )


def test_nt1_face_doubling_and_trump_carry_over(new: Tables) -> None:
    table = cast(new, ["6D", "KS", "2C", "3C"], ["7C", "5H", "2D", "3D"])
    table.given(open_("guns", "Alice", "Bob"))
    assert table.state.draws["alice"].count == 5  # her suit is the trump
    assert table.state.draws["bob"].count == 4
    table.given(draw("Alice", "4C", "5C", "6C", "8C", "9C"), draw("Bob", "2H", "3H", "4H", "6H"))
    assert (len(table.who("Alice").hand), len(table.who("Bob").hand)) == (9, 8)

    raised = only(table.when(raise_("Alice", "6D", "KS")), ev.RaiseMade)
    assert (raised.value, raised.trump_value, raised.trump_at_raise) == (12, 6, "S")

    events = table.when(see("Bob", "7C", "5H"))
    answered = only(events, ev.RaiseAnswered)
    assert (answered.total, answered.outcome) == (12, "see")
    assert (answered.fallout, answered.trump_fallout, answered.price) == (0, 6, 0)
    paid = only(events, ev.CostPaid)  # Spades: Blood only, and a Queen cannot trade Blood
    assert (paid.cause, paid.blood, paid.sweat, paid.tears, paid.traded) == (
        "trump_fallout",
        6,
        0,
        0,
        0,
    )
    assert table.who("Bob").blood == 14
    assert (len(table.who("Alice").hand), len(table.who("Bob").hand)) == (7, 6)


def test_nt2_three_card_see_takes_the_middle_card(new: Tables) -> None:
    table = cast(new, ["4D", "3S", "10H", "2C"], ["9C", "8D", "2D", "3D"])
    table.given(
        open_("talk", "Bob", "Alice"),
        draw("Alice", "4C", "5C", "6C", "7C"),
        draw("Bob", "2H", "3H", "4H", "6H"),
    )
    raised = only(table.when(raise_("Bob", "9C", "8D")), ev.RaiseMade)
    assert (raised.value, raised.trump_value) == (17, 8)

    events = table.when(see("Alice", "4D", "3S", "10H"))
    answered = only(events, ev.RaiseAnswered)
    assert (answered.total, answered.outcome, answered.fallout, answered.trump_fallout) == (
        17,
        "heavy_see",
        4,
        0,
    )
    paid = only(events, ev.CostPaid)  # Diamonds: Tears; a King trades only Sweat
    assert (paid.tears, paid.blood, paid.sweat) == (4, 0, 0)
    assert table.who("Alice").tears == 16


@pytest.mark.parametrize(("middle", "fallout", "blood"), [("sorted", 9, 1), ("positional", 1, 9)])
def test_nt3_two_faces_and_the_middle_card_option(
    new: Tables, middle: str, fallout: int, blood: int
) -> None:
    table = cast(new, ["9H", "AD", "10C", "2C"], ["QC", "JS", "2D", "3D"], middle=middle)
    table.given(
        open_("guns", "Bob", "Alice"),
        draw("Alice", "4C", "5C", "6C", "7C", "8C"),
        draw("Bob", "2H", "3H", "4H", "6H"),
    )
    raised = only(table.when(raise_("Bob", "QC", "JS")), ev.RaiseMade)
    assert (raised.value, raised.trump_value) == (20, 10)

    events = table.when(see("Alice", "9H", "AD", "10C"))
    answered = only(events, ev.RaiseAnswered)
    assert (answered.total, answered.fallout, answered.trump_fallout) == (20, fallout, 10)
    assert [(p.cause, p.blood) for p in all_of(events, ev.CostPaid)] == [
        ("fallout", fallout),
        ("trump_fallout", 10),
    ]
    assert table.who("Alice").blood == blood


def test_nt4_push_with_the_king_trade(new: Tables) -> None:
    # `cannot_see=free`: the vector gives Alice only 5H + 6C to answer with, whatever else
    # her hand holds.
    table = cast(new, ["5H", "6C", "9C", "10C"], ["7H", "8C", "2D", "3D"], cannot_see="free")
    table.given(
        open_("physical", "Bob", "Alice"),
        draw("Alice", "4C", "5C", "6D", "7C"),
        draw("Bob", "2H", "3H", "4H", "6H", "7D"),  # Hearts is Bob's suit: 5
    )
    raised = only(table.when(raise_("Bob", "7H", "8C")), ev.RaiseMade)
    assert (raised.value, raised.trump_value) == (15, 7)

    answered = only(table.when(push("Alice", "5H", "6C")), ev.RaiseAnswered)
    assert (answered.outcome, answered.total, answered.price, answered.trump_fallout) == (
        "push",
        11,
        4,
        0,
    )
    assert table.state.costs["alice"][0].amount == 4  # a choice: she pays it herself

    refused = table.refuse(c.Pay(character="Alice", sweat=1, blood=3), "nt-trade-limit")
    assert refused.message == "a King may move at most 2 of the 4 Sweat"

    paid = only(table.when(c.Pay(character="Alice", sweat=2, blood=2)), ev.CostPaid)
    assert (paid.traded_from, paid.traded) == ("sweat", 2)
    assert (table.who("Alice").sweat, table.who("Alice").blood) == (18, 18)


def test_nt5_reversal_three_card_raise_and_escalation(new: Tables) -> None:
    played = demo()
    commands = list(played.commands)
    table = new(dict(played.options))
    bobs_see = next(
        i for i, x in enumerate(commands) if isinstance(x, c.See) and x.character == "Bob"
    )
    table.given(commands[: commands.index(next(x for x in commands if isinstance(x, c.Raise)))])

    raised = only(table.when(commands[8]), ev.RaiseMade)  # Bob: 3H + 4S under Clubs
    assert (raised.value, raised.trump_value, raised.trump_at_raise) == (7, None, "C")

    reversal = only(table.when(commands[9]), ev.RaiseAnswered)  # Alice: the single 8D
    assert (reversal.outcome, reversal.total) == ("reversal", 8)
    alice = table.who("Alice")
    assert "8D" in alice.hand
    assert alice.held == "8D"

    bob_three = c.Raise(conflict="c1", character="Bob", cards=["5C", "6H", "3D"])
    table.refuse(bob_three, "nt-not-your-raise")
    three = only(table.when(commands[10]), ev.RaiseMade)  # 9H + 2D + 8D
    assert (three.value, three.reversal_card, three.trump_value) == (19, "8D", None)
    assert table.who("Alice").held is None
    assert "8D" not in table.who("Alice").hand

    escalated = only(table.when(commands[11]), ev.ConflictEscalated)
    assert (escalated.from_trump, escalated.to_trump) == ("C", "S")
    assert table.state.draws["alice"].count == 5
    assert table.state.draws["bob"].count == 4
    table.given(commands[12:14])

    seen = only(table.when(commands[bobs_see]), ev.RaiseAnswered)  # JD + 10S
    assert (seen.total, seen.outcome, seen.trump_fallout) == (20, "see", 0)

    # Bob raises next; he holds no reversal card, so 3 cards are refused.
    refused = table.refuse(
        c.Raise(conflict="c1", character="Bob", cards=["6H", "5C", "AC"]), "nt-raise-shape"
    )
    assert refused.message == (
        "a raise uses exactly 2 cards (3 only with your own held reversal card); got 3"
    )
    table.given(raise_("Bob", "6H", "5C"))
    refused = table.refuse(c.Escalate(conflict="c1", character="Alice"), "nt-at-spades")
    assert "already at Spades" in refused.message


def test_the_demo_plays_to_the_end(new: Tables) -> None:
    played = demo()
    table = new(dict(played.options)).given(played.commands)
    ended = only(table.events(), ev.ConflictEnded)
    assert ended.winners == ["alice"]
    assert table.who("Bob").blood == 3  # the push: price 8 and trump fallout 9
    assert table.state.conflicts["c1"].narrations == [("alice", "Alice keeps the ledger.")]


def test_a_deck_run_short_takes_the_set_aside_pile_then_comes_up_short(new: Tables) -> None:
    """REC: the set-aside pile is shuffled in under what is left; with both empty the draw
    comes up short (and owes nothing more), and no card is lost or doubled."""
    options = {"hand_size": "13", "conflict_draw": "13", "cannot_see": "free"}
    table = new(options).given(ALICE, BOB, StartSession(), open_("talk", "Alice", "Bob"))
    assert table.state.deck == []
    raised = only(table.when(raise_("Alice", *table.who("Alice").hand[:2])), ev.RaiseMade)
    events = table.when(c.Escalate(conflict="c1", character="Bob"))  # Hearts: Bob's suit
    shuffled = only(events, ev.DeckShuffled)
    assert (shuffled.reason, sorted(shuffled.order)) == ("ran_out", sorted(raised.cards))
    drawn = all_of(events, ev.CardsDrawn)
    assert [(d.character_id, len(d.cards), d.short) for d in drawn] == [
        ("alice", 2, True),
        ("bob", 0, True),
    ]
    state = table.state
    assert state.draws == {}
    held = [card for who in state.characters.values() for card in who.hand]
    assert sorted(held + state.deck + state.set_aside) == sorted(DECK)
