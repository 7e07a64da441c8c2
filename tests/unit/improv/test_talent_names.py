"""Talent names as the rulebook writes them (rules/improv.md §2; issue 14, item 4): 1 to 40
printable characters, spaces inside allowed, matched case-insensitively; control characters
and leading or trailing spaces refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.rulesets.improv.events import BonusPlaced, CharacterCreated
from tablelog.rulesets.improv.rules import commands as c
from tests.unit.improv.table import Tables, only


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


@pytest.mark.parametrize(
    ("given", "key"),
    [
        pytest.param("clever investigator", "clever investigator", id="the-seeds-talent"),
        pytest.param("Fast talker", "fast talker", id="the-helps-example"),
        pytest.param("Brawler", "brawler", id="one-word"),
        pytest.param("Kung-fu (drunken) master!", "kung-fu (drunken) master!", id="punctuation"),
        pytest.param("Straße", "strasse", id="case-folded"),
        pytest.param("x" * 40, "x" * 40, id="40-characters"),
    ],
)
def test_a_talent_name_is_kept_as_written_and_keyed_in_lower_case(
    new: Tables, given: str, key: str
) -> None:
    created = only(
        new().when(c.CreateCharacter(player="Susan", character="Diana", talents=[given])),
        CharacterCreated,
    )

    assert created.talents == {key: given}


@pytest.mark.parametrize(
    ("given", "words"),
    [
        pytest.param("", "1 to 40 characters", id="empty"),
        pytest.param("x" * 41, "1 to 40 characters, got 41", id="41-characters"),
        pytest.param(" clever investigator", "starts or ends with a space", id="leading-space"),
        pytest.param("Fast talker ", "starts or ends with a space", id="trailing-space"),
        pytest.param("clever\ninvestigator", "control", id="newline"),
        pytest.param("clever\tinvestigator", "control", id="tab"),
        pytest.param("evil\u202etalent", "control", id="bidi-override"),
        pytest.param("evil\x9btalent", "control", id="c1-control"),
    ],
)
def test_a_bad_talent_name_is_refused(new: Tables, given: str, words: str) -> None:
    table = new()

    error = table.refuse(
        c.CreateCharacter(player="Susan", character="Diana", talents=[given]), "bad-talent"
    )

    assert words in error.message
    assert repr(given) in error.message


def test_a_talent_with_spaces_is_used_in_any_case(new: Tables) -> None:
    table = new().given(
        c.CreateCharacter(player="Susan", character="Diana", talents=["clever investigator"]),
        c.StartSession(),
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Guards", gm=True, text="The guards catch Diana"),
        c.SetStake(conflict="c1", side="Diana", opposes="Guards", text="Diana gets the files"),
        c.PlayCard(conflict="c1", side="Diana", card="JS"),
    )

    bonus = only(
        table.when(c.PlaceBonus(conflict="c1", on="Diana", talent="Clever Investigator")),
        BonusPlaced,
    )

    assert bonus.talent == "clever investigator"
    assert table.view()["talents"]["diana"]["by_talent"] == {"clever investigator": 1}
    error = table.refuse(
        c.PlaceBonus(conflict="c1", on="Diana", talent="clever  investigator"), "unknown-talent"
    )
    assert "talents: clever investigator" in error.message
    assert table.audit().discrepancies == []


def test_two_spellings_of_one_talent_are_listed_twice(new: Tables) -> None:
    error = new().refuse(
        c.CreateCharacter(player="Bob", character="Kit", talents=["Fast talker", "FAST TALKER"]),
        "duplicate-talent",
    )

    assert "'FAST TALKER'" in error.message
