"""Refusals as a table: given these commands, this command is refused with this code, its
message carries these words, and the log (and its head seq) is unchanged.

The first rows are the example errors of rules/night-terrors.md, word for word (characters'
keys are lower case, so the messages read as the rules write them).
"""

from __future__ import annotations

import pytest

from tablelog.rules.common import Command, StartScene, StartSession
from tablelog.rulesets.night_terrors.rules import commands as c
from tests.unit.night_terrors.table import (
    ALICE,
    BOB,
    CAROL,
    RECORDED,
    Tables,
    draw,
    open_,
    push,
    raise_,
    see,
)

DEALT: list[Command] = [
    ALICE,
    BOB,
    CAROL,
    StartSession(),
    draw("Alice", "6D", "KS", "2C", "3C"),
    draw("Bob", "7C", "5H", "2D", "3D"),
    draw("Carol", "4D", "5D", "9D", "10D"),
]
# Guns: Alice against Bob, cards drawn; Alice raises 6D + KS = 12 (trump value 6).
OPENED = [
    *DEALT,
    open_("guns", "Alice", "Bob"),
    draw("Alice", "4C", "5C", "6C", "8C", "9C"),
    draw("Bob", "2H", "3H", "4H", "6H"),
]
RAISED = [*OPENED, raise_("Alice", "6D", "KS")]
# The same with Carol in too (she draws 4: Clubs is her suit, not Spades).
THREE = [
    *DEALT,
    open_("guns", "Alice", "Bob", "Carol"),
    draw("Alice", "4C", "5C", "6C", "8C", "9C"),
    draw("Bob", "2H", "3H", "4H", "6H"),
    draw("Carol", "8S", "9S", "10S", "AH"),
    raise_("Alice", "6D", "KS"),
]
# Hearts (Tears or Sweat): Bob raises 7H + 8C = 15, Alice pushes 5H + 6C: she owes 4.
PUSHED = [
    ALICE,
    BOB,
    CAROL,
    StartSession(),
    draw("Alice", "5H", "6C", "AC", "AD"),
    draw("Bob", "7H", "8C", "2D", "3D"),
    draw("Carol", "4S", "5S", "6S", "7S"),
    open_("physical", "Bob", "Alice"),
    draw("Alice", "AH", "AS", "2C", "2S"),
    draw("Bob", "2H", "3H", "4H", "6H", "7D"),
    raise_("Bob", "7H", "8C"),
    push("Alice", "5H", "6C"),
]
# Clubs: Bob raises 3H + 4S = 7; Alice's single 8D is a reversal.
MELEE = [
    *DEALT,
    open_("melee", "Bob", "Alice"),
    draw("Alice", "8D", "9H", "2S", "10C"),
    draw("Bob", "3H", "4S", "AC", "AH"),
    raise_("Bob", "3H", "4S"),
]
ENDED = [*RAISED, c.Give(conflict="c1", character="Bob")]
ASK = {"pay": "ask"}
FREE = {"cannot_see": "free"}  # PUSHED: Alice pushes although her hand could see

ROWS: list[tuple[str, dict[str, str], list[Command], Command, str, str]] = [
    # --- the rules file's example errors ---
    (
        "ownership",
        {},
        RAISED,
        see("Bob", "7C", "9C"),
        "nt-not-in-hand",
        "card 9C is not in Bob's hand",
    ),
    (
        "raise shape",
        {},
        OPENED,
        raise_("Alice", "6D", "KS", "2C"),
        "nt-raise-shape",
        "a raise uses exactly 2 cards (3 only with your own held reversal card); got 3",
    ),
    ("turn", {}, OPENED, raise_("Bob", "7C", "5H"), "nt-not-your-raise", "it is Alice's raise"),
    (
        "answered twice",
        {},
        [*THREE, see("Bob", "7C", "5H")],
        see("Bob", "2H", "3H"),
        "nt-answered",
        "Bob already answered this raise",
    ),
    (
        "does not meet",
        FREE,
        PUSHED[:-1],
        see("Alice", "5H", "6C"),
        "nt-does-not-meet",
        "11 does not meet the raise of 15; push (price 4), escalate or give",
    ),
    (  # cannot_see=strict: push and escalate would be refused, so they are not offered
        "does not meet, the hand can",
        {},
        PUSHED[:-1],
        see("Alice", "5H", "6C"),
        "nt-does-not-meet",
        "11 does not meet the raise of 15; your hand can meet it: play more cards, or give",
    ),
    (
        "short reversal",
        {},
        RAISED,
        see("Bob", "7C"),
        "nt-does-not-meet",
        "7 does not meet the raise of 12; your hand can meet it: play more cards, or give",
    ),
    (
        "pay Spades in Tears",
        ASK,
        [*RAISED, see("Bob", "7C", "5H")],
        c.Pay(character="Bob", tears=6),
        "nt-payment-pool",
        "Spades costs are paid in Blood only (only a Jack may trade Blood); Tears 6 given",
    ),
    (
        "payment total",
        FREE,
        PUSHED,
        c.Pay(character="Alice", sweat=3),
        "nt-payment-total",
        "payment 3 does not equal amount due 4",
    ),
    (
        "king trade",
        FREE,
        PUSHED,
        c.Pay(character="Alice", sweat=1, blood=3),
        "nt-trade-limit",
        "a King may move at most 2 of the 4 Sweat",
    ),
    (
        "escalate at Spades",
        {},
        RAISED,
        c.Escalate(conflict="c1", character="Bob"),
        "nt-at-spades",
        "conflict c1 is already at Spades",
    ),
    (
        "escalate down",
        {},
        MELEE,
        c.Escalate(conflict="c1", character="Alice", to="physical"),
        "nt-escalate-down",
        "escalation only goes up (Clubs to Hearts refused)",
    ),
    (
        "membership",
        {},
        RAISED,
        see("Carol", "4S", "5S"),
        "nt-not-in",
        "Carol is not in conflict c1",
    ),
    (
        "ended",
        {},
        ENDED,
        raise_("Alice", "2C", "3C", conflict="c1"),
        "nt-conflict-ended",
        "conflict c1 has ended",
    ),
    # --- the project's own checks ---
    (
        "push when one can see",
        {},
        RAISED,
        push("Bob", "2H"),
        "nt-can-see",
        "Bob can meet the raise of 12 with cards in hand",
    ),
    (
        "push that meets",
        {},
        RAISED,
        push("Bob", "7C", "5H"),
        "nt-push-meets",
        "12 meets the raise of 12; see it instead of pushing",
    ),
    (
        "escalate when one can see",
        {},
        MELEE,
        c.Escalate(conflict="c1", character="Alice"),
        "nt-can-see",
        "Alice can meet the raise of 7",
    ),
    (
        "pay first",
        ASK,
        [*THREE, see("Bob", "7C", "5H"), see("Carol", "8S", "9S")],
        raise_("Bob", "2H", "3H"),
        "nt-pay-first",
        "Bob owes 6 (trump fallout); pay it first",
    ),
    (
        "draw first",
        {},
        [*DEALT, open_("guns", "Alice", "Bob")],
        raise_("Alice", "6D", "KS"),
        "nt-draw-first",
        "Alice still draws 5 cards",
    ),
    (
        "answers owed",
        {},
        RAISED,
        raise_("Alice", "4C", "5C"),
        "nt-answers-owed",
        "Bob has not answered the raise of 12 yet",
    ),
    (
        "own raise",
        {},
        RAISED,
        see("Alice", "4C", "5C"),
        "nt-own-raise",
        "Alice made this raise; the others answer it",
    ),
    (
        "no raise yet",
        {},
        OPENED,
        see("Bob", "7C", "5H"),
        "nt-no-raise",
        "there is no raise to answer in c1; it is Alice's raise",
    ),
    (
        "give out of turn",
        {},
        THREE,
        c.Give(conflict="c1", character="Alice"),
        "nt-raise-waits",
        "Alice's raise of 12 still waits for Bob, Carol",
    ),
    (
        "face card taken",
        {},
        DEALT,
        c.CreateCharacter(player="dan", character="Dan", card="ks"),
        "nt-card-taken",
        "the King of Spades is already Alice",
    ),
    (
        "not a face",
        {},
        DEALT,
        c.CreateCharacter(player="dan", character="Dan", card="7S"),
        "nt-not-a-face",
        "a character is a face card",
    ),
    ("bad card", {}, RAISED, see("Bob", "11C", "5H"), "bad-card", "'11C' is not a card"),
    ("card twice", {}, RAISED, see("Bob", "7C", "7c"), "nt-card-twice", "card 7C is given twice"),
    (
        "bad type",
        {},
        DEALT,
        open_("poetry", "Alice", "Bob"),
        "nt-bad-type",
        "conflict type 'poetry' is not one of talk (Diamonds)",
    ),
    ("alone", {}, DEALT, open_("talk", "Alice"), "nt-too-few", "at least 2 characters"),
    (
        "busy",
        {},
        OPENED,
        open_("talk", "Carol", "Alice", conflict="c2"),
        "nt-busy",
        "Alice is already in conflict c1",
    ),
    (
        "scene mid-conflict",
        {},
        OPENED,
        StartScene(),
        "nt-conflict-open",
        "conflict c1 is still open",
    ),
    (
        "draw on a managed deck",
        {"deck": "managed"},
        [ALICE],
        draw("Alice", "2C"),
        "nt-managed-deck",
        "tablelog deals the cards",
    ),
    (
        "nothing to draw",
        {},
        OPENED,
        draw("Alice", "7D"),
        "nt-no-draw-owed",
        "Alice owes no cards to draw",
    ),
    (
        "draw count",
        {},
        DEALT[:4],
        draw("Alice", "2C"),
        "nt-draw-count",
        "Alice draws 4 cards (session); 1 given",
    ),
    (
        "not in the deck",
        {},
        DEALT[:5],
        draw("Bob", "KS", "2H", "3H", "4H"),
        "nt-not-in-deck",
        "card KS is not in the deck",
    ),
    (
        "refresh mid-conflict",
        {},
        OPENED,
        c.Refresh(character="Carol", cards=["4D"]),
        "nt-no-reset",
        "hands are refreshed only at a hand reset",
    ),
    (
        "refresh twice",
        {},
        [*DEALT, c.Refresh(character="Carol", cards=["4D"]), draw("Carol", "8S")],
        c.Refresh(character="Carol", cards=["5D"]),
        "nt-refreshed",
        "Carol has already refreshed",
    ),
    (
        "nothing to discard",
        {},
        DEALT,
        c.Discard(character="Alice", cards=["2C"]),
        "nt-no-discard-owed",
        "Alice holds 4 cards and has nothing to discard down",
    ),
    (
        "narrate while open",
        {},
        RAISED,
        c.Narrate(conflict="c1", character="Alice", text="won"),
        "nt-still-open",
        "conflict c1 is still open",
    ),
    (
        "narrate as the loser",
        {},
        ENDED,
        c.Narrate(conflict="c1", character="Bob", text="won"),
        "nt-not-winner",
        "only Alice decides the stakes of c1; Bob is out",
    ),
    (
        "nothing owed",
        {},
        RAISED,
        c.Pay(character="Bob", blood=1),
        "nt-nothing-owed",
        "Bob owes nothing",
    ),
    (
        "unknown character",
        {},
        RAISED,
        see("Dave", "7C"),
        "unknown-character",
        "there is no character Dave",
    ),
    (
        "unknown conflict",
        {},
        RAISED,
        see("Bob", "7C", conflict="c9"),
        "unknown-conflict",
        "there is no conflict c9",
    ),
]


@pytest.mark.parametrize(
    ("options", "given", "command", "code", "words"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_refused(
    new: Tables,
    options: dict[str, str],
    given: list[Command],
    command: Command,
    code: str,
    words: str,
) -> None:
    table = new({**RECORDED, **options}).given(given)
    refused = table.refuse(command, code)
    assert words in refused.message


def test_only_a_queen_trades_tears(new: Tables) -> None:
    """Diamonds costs are Tears: a King paying Sweat is refused (with pay=ask; by default a
    payment with no choice is made at once)."""
    table = new({**RECORDED, **ASK}).given(
        ALICE,
        BOB,
        StartSession(),
        draw("Alice", "4D", "3S", "10H", "2C"),
        draw("Bob", "9C", "8D", "2D", "3D"),
        open_("talk", "Bob", "Alice"),
        draw("Alice", "4C", "5C", "6C", "7C"),
        draw("Bob", "2H", "3H", "4H", "6H"),
        raise_("Bob", "9C", "8D"),
        see("Alice", "4D", "3S", "10H"),
    )
    refused = table.refuse(c.Pay(character="Alice", sweat=4), "nt-payment-pool")
    assert refused.message == (
        "Diamonds costs are paid in Tears only (only a Queen may trade Tears); Sweat 4 given"
    )
    table.given(c.Pay(character="Alice", tears=4))
    assert table.who("Alice").tears == 16
