"""What the table says (issue 14, item 6): no offer of a choice that does not exist, no
phrase said twice, and who holds narration rights after a multi-way reveal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.rules.common import Command
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.views.text import conflict_text
from tablelog.rulesets.improv.views.views import show_view
from tests.unit.improv.table import SESSION, Table, Tables


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def play(conflict: str, **cards: str) -> list[Command]:
    return [c.PlayCard(conflict=conflict, side=side, card=card) for side, card in cards.items()]


def shown(table: Table, conflict: str) -> list[str]:
    state = table.state
    found = state.conflicts[conflict]
    return conflict_text(state, found, show_view(state, found))


def every_note(table: Table) -> list[str]:
    return [
        note.text
        for conflict in table.audit().conflicts
        for section in conflict.sections
        for note in section.notes
    ]


def repeated_clause(text: str) -> str | None:
    """A clause (between ';' or ':') said twice in one sentence, or None."""
    clauses = [c.strip() for c in re.split(r"[;:]", text) if c.strip()]
    return next((c for c in clauses if clauses.count(c) > 1), None)


RISO_FIGHT: list[Command] = [
    *SESSION,
    c.OpenConflict(conflict="f", extended=True, rounds=3),
    c.SetStake(conflict="f", side="Riso", gm=True, text="Riso gets away"),
    c.SetStake(conflict="f", side="Kit", opposes="Riso", text="Kit captures Riso"),
]


def tied_round(kit: str, riso: str, kit_draw: str, riso_draw: str) -> list[Command]:
    """Kit's card + Brawler ties Riso's exactly; the recorded tie-breakers decide."""
    return [
        *play("f", Kit=kit, Riso=riso),
        c.PlaceBonus(conflict="f", on="Kit", talent="Brawler"),
        c.Reveal(conflict="f"),
        c.Fate(conflict="f", side="Kit", draw=kit_draw),
        c.Fate(conflict="f", side="Riso", draw=riso_draw),
    ]


def test_a_first_fate_loss_offers_the_choice_and_a_second_offers_none(new: Tables) -> None:
    table = new().given(RISO_FIGHT, tied_round("9H", "QH", kit_draw="2C", riso_draw="3C"))
    waiting = table.refuse(c.PlayCard(conflict="f", side="Riso", card="5S"), "fate-pending")
    assert "kit chooses --eliminate or --stay" in waiting.message
    assert "    to choose --eliminate or --stay: kit" in shown(table, "f")

    table.given(
        c.Fate(conflict="f", side="Kit", choice="stay"),
        tied_round("8D", "JD", kit_draw="4C", riso_draw="9C"),
    )

    lines = shown(table, "f")
    assert not [line for line in lines if "--eliminate" in line or "--stay" in line]
    assert "  Kit vs riso [destroyed]: Kit captures Riso" in lines
    notes = table.notes("fate-choice")
    assert notes == [
        "Kit chooses to stay in, seriously harmed",
        "Kit loses the Hand of Fate a second time in this conflict: it is destroyed",
    ]


def test_the_audit_says_each_thing_once(new: Tables) -> None:
    table = new().given(
        RISO_FIGHT,
        tied_round("9H", "QH", kit_draw="2C", riso_draw="3C"),
        c.Fate(conflict="f", side="Kit", choice="stay"),
        play("f", Kit="5D", Riso="5D"),  # equal cards: an exact tie again
        c.Reveal(conflict="f"),
        c.Fate(conflict="f", side="Kit", draw="AS"),
        c.Fate(conflict="f", side="Riso", draw="2S"),
        c.Fate(conflict="f", side="Riso", choice="stay"),
        play("f", Kit="QS", Riso="QS"),
        c.Reveal(conflict="f"),
        c.Fate(conflict="f", side="Kit", draw="AD"),
        c.Fate(conflict="f", side="Riso", draw="3D"),
        c.Close(conflict="f"),  # Riso, destroyed by its second loss, loses its stakes
    )

    notes = every_note(table)

    assert "Kit 12 vs Riso 12: exact tie at 12 (9♥ vs Q♥): the Hand of Fate decides" in notes
    assert [(n, repeated_clause(n)) for n in notes if repeated_clause(n)] == []


def test_show_and_audit_say_who_holds_narration_rights(new: Tables) -> None:
    # The seed's director scene: GM 5, Bob's Kit 9, Susan's Diana K.
    table = new().given(
        SESSION,
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Director", gm=True, text="The case is dropped"),
        c.SetStake(conflict="c1", side="Kit", opposes="Director", text="Kit heads it"),
        c.SetStake(conflict="c1", side="Diana", opposes="Director", text="Diana heads it"),
        play("c1", Director="5C", Kit="9D", Diana="KH"),
        c.Reveal(conflict="c1"),
    )
    rights = (
        "narration rights follow the ranking: Diana 13 > Kit 9 > Director 5 "
        "(each side holds them over every side below it)"
    )

    view = table.show("c1")["rounds"][0]

    assert view["ranking"] == ["diana", "kit", "director"]
    assert view["narration_rights"] == {
        "diana": ["kit", "director"],
        "kit": ["director"],
        "director": [],
    }
    assert f"    {rights}" in shown(table, "c1")
    assert table.notes("narration-rights") == [rights]


def test_an_exact_tie_holds_no_narration_rights_either_way(new: Tables) -> None:
    table = new().given(
        SESSION,
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Director", gm=True, text="The case is dropped"),
        c.SetStake(conflict="c1", side="Kit", opposes="Director", text="Kit heads it"),
        c.SetStake(conflict="c1", side="Diana", opposes="Director", text="Diana heads it"),
        play("c1", Director="5C", Kit="9D", Diana="9D"),
        c.Reveal(conflict="c1"),
    )

    assert table.show("c1")["rounds"][0]["narration_rights"] == {
        "kit": ["director"],
        "diana": ["director"],
        "director": [],
    }
    assert table.notes("narration-rights") == [
        "narration rights follow the ranking: Kit 9 = Diana 9 > Director 5 (each side holds "
        "them over every side below it; exact ties hold none over each other)"
    ]


def test_two_sides_need_no_narration_rights_line(new: Tables) -> None:
    table = new().given(
        SESSION,
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Guard", gm=True, text="The guard wins"),
        c.SetStake(conflict="c1", side="Kit", opposes="Guard", text="Kit wins"),
        play("c1", Guard="5C", Kit="9D"),
        c.Reveal(conflict="c1"),
    )

    assert not [line for line in shown(table, "c1") if "narration rights" in line]
    assert table.notes("narration-rights") == []
