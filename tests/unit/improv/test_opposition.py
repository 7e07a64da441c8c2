"""A side with no opponent in the round beats nobody (rules/improv.md §5, issue 14 item 1).

An unopposed GM stake, or a protagonist whose opponent has left the conflict, is no winner of
a round: its card is discarded, it keeps no victory card and has nothing to give, so it cannot
change a result it had no part in. Transcripts on a real SQLite log, through the command layer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.rules.common import Command
from tablelog.rulesets.improv.events import ConflictClosed, RoundRevealed
from tablelog.rulesets.improv.rules import commands as c
from tests.unit.improv.table import SESSION, Table, Tables, only


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def play(conflict: str, **cards: str) -> list[Command]:
    return [c.PlayCard(conflict=conflict, side=side, card=card) for side, card in cards.items()]


def revealed(table: Table, conflict: str) -> RoundRevealed:
    return only(table.when(c.Reveal(conflict=conflict)), RoundRevealed)


# Extended conflict x of 2 rounds: Kit and Diana oppose Riso; the Goons are unopposed.
GOONS_UNOPPOSED: list[Command] = [
    *SESSION,
    c.OpenConflict(conflict="x", extended=True, rounds=2),
    c.SetStake(conflict="x", side="Riso", gm=True, text="Riso gets away"),
    c.SetStake(conflict="x", side="Goons", gm=True, text="The goons wreck the bar"),
    c.SetStake(conflict="x", side="Kit", opposes="Riso", text="Kit captures Riso"),
    c.SetStake(conflict="x", side="Diana", opposes="Riso", text="Diana captures Riso"),
    # Round 1: Kit beats Riso, Riso beats Diana: piles Kit 9♥, Riso 8♠.
    *play("x", Kit="9H", Riso="8S", Diana="2C"),
    c.Reveal(conflict="x"),
]


def test_the_issue_transcript_an_unopposed_stake_keeps_nothing_to_give(new: Tables) -> None:
    # Round 2: Kit beats Riso again, Riso beats Diana again; the Goons play a card unopposed.
    table = new().given(GOONS_UNOPPOSED, play("x", Kit="10H", Riso="7S", Diana="3D"))
    table.given(c.PlayCard(conflict="x", side="Goons", card="3S"))

    result = revealed(table, "x")

    assert result.unopposed == ["goons"]
    assert result.winners == ["kit", "riso"]
    assert result.discarded == {"goons": "3S", "diana": "3D"}
    assert result.victory == {"kit": "10H", "riso": "7S"}
    assert table.piles("x") == {
        "riso": ["8S", "7S"],
        "goons": [],
        "kit": ["9H", "10H"],
        "diana": [],
    }
    # Given to Riso, the 3♠ would make Riso's pile the larger and flip the result.
    error = table.refuse(
        c.Give(conflict="x", giver="Goons", receiver="Riso", card="3S"), "no-victory-card"
    )
    assert "Goons holds no victory card" in str(error)
    closed = only(table.when(c.Close(conflict="x")), ConflictClosed)
    # Equal piles: Kit's 10♥ 9♥ over Riso's 8♠ 7♠. Riso beats Diana (2 cards to none).
    assert closed.beats == [["kit", "riso"], ["riso", "diana"]]


def test_an_unopposed_stake_in_a_simple_conflict_is_no_winner(new: Tables) -> None:
    table = new().given(
        SESSION,
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Guard", gm=True, text="The guard raises the alarm"),
        c.SetStake(conflict="c1", side="Dog", gm=True, text="The dog bites"),
        c.SetStake(conflict="c1", side="Kit", opposes="Guard", text="Kit slips past"),
        c.SetStake(conflict="c1", side="Diana", opposes="Guard", text="Diana slips past"),
        play("c1", Kit="2H", Guard="5C", Diana="3D", Dog="AS"),
    )

    result = revealed(table, "c1")

    assert result.unopposed == ["dog"]
    assert result.winners == ["guard"]
    assert result.beats == [["guard", "kit"], ["guard", "diana"]]
    assert table.show("c1")["rounds"][0]["winners"] == ["guard"]


def test_a_protagonist_whose_opponent_was_eliminated_keeps_nothing(new: Tables) -> None:
    table = new().given(
        *SESSION,
        c.OpenConflict(conflict="x", extended=True, rounds=3),
        c.SetStake(conflict="x", side="Riso", gm=True, text="Riso gets away"),
        c.SetStake(conflict="x", side="Goons", gm=True, text="The goons grab Vinny"),
        c.SetStake(conflict="x", side="Kit", opposes="Riso", text="Kit captures Riso"),
        c.SetStake(conflict="x", side="Diana", opposes="Goons", text="Diana holds the goons"),
        # Round 1: Kit 9♥ + Brawler ties Riso Q♥ exactly; Riso loses the Hand of Fate and is
        # eliminated. Diana beats the Goons: her 10♦ goes on her pile.
        play("x", Kit="9H", Riso="QH", Diana="10D", Goons="4C"),
        c.PlaceBonus(conflict="x", on="Kit", talent="Brawler"),
        c.Reveal(conflict="x"),
        c.Fate(conflict="x", side="Kit", draw="KC"),
        c.Fate(conflict="x", side="Riso", draw="2C"),
        c.Fate(conflict="x", side="Riso", choice="eliminate"),
        play("x", Kit="AS", Diana="5D", Goons="6C"),
    )
    assert table.piles("x")["kit"] == ["9H"]  # won on the Hand of Fate

    result = revealed(table, "x")

    assert "kit" in result.unopposed
    assert "kit" not in result.winners
    assert result.discarded["kit"] == "AS"
    assert result.beats == [["goons", "diana"]]
    assert table.piles("x")["kit"] == ["9H"]  # the Ace beat nobody


def test_a_side_that_never_beat_anyone_has_nothing_to_give(new: Tables) -> None:
    table = new().given(GOONS_UNOPPOSED, play("x", Kit="4H", Riso="7S", Diana="3D", Goons="KS"))
    table.given(c.Reveal(conflict="x"))

    error = table.refuse(
        c.Give(conflict="x", giver="Goons", receiver="Riso", card="KS"), "no-victory-card"
    )

    assert str(error) == (
        "no-victory-card: Goons holds no victory card (a side keeps its card only when it "
        "beats a direct opponent); nothing to give"
    )
