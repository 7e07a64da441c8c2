"""Final victory between direct opponents (rules/improv.md §5; issue 14, item 2): the larger
pile wins; equal piles compare card values from the highest down, and only when every value
is equal do suits decide. Each row builds the two piles round by round, then closes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.rules.common import Command
from tablelog.rulesets.improv.events import ConflictClosed
from tablelog.rulesets.improv.rules import commands as c
from tests.unit.improv.table import KIT, Tables, only

LOW = "2C"  # the card a round's loser plays: below every card of the rows


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def fight(kit: list[str], riso: list[str]) -> list[Command]:
    """An extended conflict Kit against Riso in which Kit wins a round with each of `kit`'s
    cards and Riso with each of `riso`'s."""
    rounds = [(card, LOW) for card in kit] + [(LOW, card) for card in riso]
    commands: list[Command] = [
        KIT,
        c.StartSession(),
        c.OpenConflict(conflict="f", extended=True, rounds=len(rounds)),
        c.SetStake(conflict="f", side="Riso", gm=True, text="Riso gets away"),
        c.SetStake(conflict="f", side="Kit", opposes="Riso", text="Kit captures Riso"),
    ]
    for kit_card, riso_card in rounds:
        commands += [
            c.PlayCard(conflict="f", side="Kit", card=kit_card),
            c.PlayCard(conflict="f", side="Riso", card=riso_card),
            c.Reveal(conflict="f"),
        ]
    return commands


@pytest.mark.parametrize(
    ("kit", "riso", "beats", "rule"),
    [
        pytest.param(
            ["KH", "5C"],
            ["KS", "4C"],
            [["kit", "riso"]],
            "equal piles of 2: card values compared from the highest, 5♣ (5) beats 4♣ (4); "
            "suits count only when every value is equal",
            id="values-before-suits",
        ),
        pytest.param(
            ["KS", "4C"],
            ["KH", "5C"],
            [["riso", "kit"]],
            "equal piles of 2: card values compared from the highest, 5♣ (5) beats 4♣ (4); "
            "suits count only when every value is equal",
            id="values-before-suits-mirrored",
        ),
        pytest.param(
            ["JK", "10D"],
            ["AS", "KS"],
            [["kit", "riso"]],
            "equal piles of 2: card values compared from the highest, Joker (15) beats A♠ (14); "
            "suits count only when every value is equal",
            id="joker-highest-value",
        ),
        pytest.param(
            ["KH", "5C"],
            ["KS", "5D"],
            [["riso", "kit"]],
            "equal piles of 2, every value equal: K♠ beats K♥ on suit (order CDHS, a Joker "
            "above every suit)",
            id="equal-values-suit-of-highest-card",
        ),
        pytest.param(
            ["JK", "AH"],
            ["JK", "AS"],
            [["riso", "kit"]],
            "equal piles of 2, every value equal: A♠ beats A♥ on suit (order CDHS, a Joker "
            "above every suit)",
            id="equal-jokers-then-suits",
        ),
        pytest.param(
            ["QH", "3D"],
            ["QH", "3D"],
            [],
            "equal piles of 2, every card equal",
            id="all-equal-nobody",
        ),
        pytest.param(
            ["AH"],
            ["3C", "3D"],
            [["riso", "kit"]],
            "larger victory pile: 2 cards to 1",
            id="larger-pile",
        ),
    ],
)
def test_final_victory(
    new: Tables, kit: list[str], riso: list[str], beats: list[list[str]], rule: str
) -> None:
    table = new().given(fight(kit, riso))

    closed = only(table.when(c.Close(conflict="f")), ConflictClosed)

    [pair] = closed.final
    assert (pair.rule, closed.beats) == (rule, beats)
    assert table.view()["conflicts"]["f"]["beats"] == beats
    [note] = table.notes("final")
    who = "nobody wins" if not beats else f"{beats[0][0].title()} wins"
    assert note.endswith(f": {rule}; {who}")
    assert table.audit().discrepancies == []


def test_the_audit_never_says_nobody_wins_twice(new: Tables) -> None:
    table = new().given(fight(["QH"], ["QH"]), c.Close(conflict="f"))

    [note] = table.notes("final")

    assert note == "Kit (Q♥) vs Riso (Q♥): equal piles of 1, every card equal; nobody wins"
