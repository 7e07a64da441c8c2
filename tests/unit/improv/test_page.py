"""Improv's page hooks as transcripts: what each caller is offered at each point of a managed
conflict (and only that), and that no page of a player holds another's hand or face-down
card. The page model is built as the service builds it (`commands.page.page_of`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from tablelog.commands.access import Caller
from tablelog.commands.page import Page, page_of
from tablelog.rulesets.improv.rules import commands as c
from tests.unit.improv.table import Stacked, Table, Tables

GM_TOP = ["AS", "KS", "QS", "JS", "10S"]
PLAYERS_TOP = ["2H", "3H", "4H", "5H", "6C", "7C", "8C", "9C"]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Tables(tmp_path) as tables:
        yield tables({"deck_mode": "managed"}, Stacked(GM_TOP, PLAYERS_TOP)).given(
            c.CreateCharacter(player="Bob", character="Kit", talents=["Brawler"]),
            c.CreateCharacter(player="Sue", character="Diana", talents=["Sneak"]),
            c.StartSession(),
            c.OpenConflict(conflict="c1", extended=True),
            c.SetStake(conflict="c1", side="Riso", gm=True, text="Riso keeps the bar"),
        )


def page(table: Table, player: str, role: str = "player") -> Page:
    caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
    return page_of(table.store, "t", caller)


def titles(found: Page, conflict: str | None = "c1") -> set[str]:
    return {f.title for f in found.forms if f.conflict == conflict}


def test_each_caller_is_offered_what_it_may_do_now(table: Table) -> None:
    # Stakes first: a player's own, opposing a side already staked; no card before it.
    assert titles(page(table, "bob")) == {"Set Kit's stake", "Award a story-token"}
    stake = next(f for f in page(table, "bob").forms if f.title == "Set Kit's stake")
    assert stake.path == "/improv/conflicts/c1/stakes"
    assert stake.fixed == {"side": "kit"}
    assert [f.choices for f in stake.fields if f.name == "opposes"] == [["riso"]]
    table.given(
        c.SetStake(conflict="c1", side="Kit", opposes="Riso", text="Kit wins"),
        c.SetStake(conflict="c1", side="Diana", opposes="Riso", text="Diana wins"),
    )
    bob = page(table, "bob")
    play = next(f for f in bob.forms if f.title == "Play a card face down")
    assert [f.choices for f in play.fields if f.name == "card"] == [table.hand("bob")]
    assert "Reveal the round" not in titles(page(table, "gina", "gm"))
    # Bob's card is down: he may not play again, and may now put his talent on a card.
    table.given(c.PlayCard(conflict="c1", side="Kit", card=table.hand("bob")[0]))
    assert "Play a card face down" not in titles(page(table, "bob"))
    assert "Use a talent of Kit" in titles(page(table, "bob"))
    assert "Place story-tokens on a card" not in titles(page(table, "bob"))  # he holds none
    table.given(
        c.PlayCard(conflict="c1", side="Diana", card=table.hand("sue")[0]),
        c.PlayCard(conflict="c1", side="Riso", card=table.hand("gm")[0]),
    )
    keys = [f.key for f in page(table, "bob").forms]
    assert len(keys) == len(set(keys))  # HTML ids are built from them
    gm = titles(page(table, "gina", "gm"))
    assert {"Reveal the round", "Place GM tokens on a card", "Abandon the conflict"} <= gm
    assert "Close the conflict" not in gm  # an extended conflict: three rounds first
    assert not {"Reveal the round", "Close the conflict"} & titles(page(table, "bob"))
    # An observer is offered nothing at all.
    assert page(table, "carol", "observer").forms == []


def test_no_page_of_a_player_holds_another_hand_or_face_down_card(table: Table) -> None:
    table.given(
        c.SetStake(conflict="c1", side="Kit", opposes="Riso", text="Kit wins"),
        c.SetStake(conflict="c1", side="Diana", opposes="Riso", text="Diana wins"),
    )
    bob_card, sue_hand = table.hand("bob")[0], table.hand("sue")
    table.given(c.PlayCard(conflict="c1", side="Kit", card=bob_card))
    gm_card = table.hand("gm")[0]
    table.given(c.PlayCard(conflict="c1", side="Riso", card=gm_card))
    sue = msgspec.json.encode(page(table, "sue")).decode()
    for secret in [bob_card, gm_card, *table.hand("bob"), *table.hand("gm")]:
        assert f'"{secret}"' not in sue
        assert secret not in {c.face for p in page(table, "sue").panels for c in p.cards}
    for card in sue_hand:  # her own hand is hers to see
        assert f'"{card}"' in sue
    bob = page(table, "bob")
    kit_row = next(p for p in bob.panels if p.key == "conflict-c1").grid
    assert kit_row is not None
    faces = [cell for row in kit_row.rows for cell in row if isinstance(cell, list)]
    assert [(c.face, c.mine) for cards in faces for c in cards] == [
        (None, False),  # riso's card: a back
        ("2♥", True),  # bob's own, face up
    ]


# --- issue 29: a protagonist made from the page, its talents one per line -----------------


def test_a_protagonist_is_created_from_the_page_with_talents_one_per_line(tmp_path: Path) -> None:
    with Tables(tmp_path) as tables:
        table = tables({})
        table.given(c.CreateCharacter(player="Bob", character="Kit", talents=["Sharp eyes"]))
        # The GM's form: any player (those without a protagonist suggested), talents as lines.
        [made] = [f for f in page(table, "gina", "gm").forms if f.title == "Create a protagonist"]
        assert made.gm
        assert made.path == "/improv/characters"
        fields = {f.name: f for f in made.fields}
        assert fields["talents"].kind == "lines"
        assert fields["player"].choices == []  # bob has Kit; nobody else has joined
        # A player without one makes its own, for itself alone; one with Kit is offered none.
        [own] = [f for f in page(table, "sue").forms if f.title == "Create your protagonist"]
        assert own.fixed == {"player": "sue"}
        assert not own.gm
        assert [f.kind for f in own.fields if f.name == "talents"] == ["lines"]
        assert not [f for f in page(table, "bob").forms if f.path == "/improv/characters"]
        assert page(table, "carol", "observer").forms == []
