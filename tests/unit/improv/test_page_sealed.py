"""Improv's page in a campaign with sealed plays, as transcripts: the play form asks for a
canonical card and carries the round its seal binds (the page's script sends only the
commitment); each owner is offered the opening of its own card once every side has played,
and nobody else; the GM gets the deadline, then the forfeit of the stated rule."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.commands.access import Caller
from tablelog.commands.page import Form, Page, page_of
from tablelog.projections.page import Sealed
from tablelog.rulesets.improv.rules import commands as c
from tests.unit.improv.table import DIANA, KIT, Table, Tables
from tests.unit.improv.test_sealed import Hand


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Tables(tmp_path) as tables:
        yield tables({"sealed_plays": "true"}).given(
            KIT,
            DIANA,
            c.StartSession(),
            c.OpenConflict(conflict="c1"),
            c.SetStake(conflict="c1", side="Riso", gm=True, text="Riso gets away"),
            c.SetStake(conflict="c1", side="Vic", gm=True, text="Vic keeps the cash"),
            c.SetStake(conflict="c1", side="Kit", text="Kit catches Riso", opposes="Riso"),
            c.SetStake(conflict="c1", side="Diana", text="Diana takes the cash", opposes="Vic"),
        )


def page(table: Table, player: str, role: str = "player") -> Page:
    caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
    return page_of(table.store, "t", caller)


def forms(found: Page) -> dict[str, Form]:
    return {f.title: f for f in found.forms if f.conflict == "c1"}


def test_a_sealed_play_is_a_choice_of_card_and_a_commitment_sent(table: Table) -> None:
    play = forms(page(table, "bob"))["Play a card face down"]
    assert play.path == "/improv/conflicts/c1/plays"
    assert play.fixed == {"side": "kit", "round": 1}
    assert play.seals == Sealed(conflict="c1", round=1, side="kit")
    (card,) = play.fields
    assert card.kind == "choice"
    assert card.choices[:2] == ["2C", "3C"]
    assert len(card.choices) == 53  # every card once, the Joker as JK
    # The GM plays for each of its stakes in a form of its own (each seals its own side).
    gm = forms(page(table, "gina", "gm"))
    assert gm["Play a card face down for Riso"].seals == Sealed(conflict="c1", round=1, side="riso")
    assert gm["Play a card face down for Vic"].fixed == {"side": "vic", "round": 1}


def test_openings_are_offered_to_their_owners_once_every_card_is_down(table: Table) -> None:
    kit, riso, vic = Hand("kit", "QH"), Hand("riso", "7S"), Hand("vic", "2D")
    diana = Hand("diana", "AS")
    table.given(kit.play(), riso.play(), diana.play())
    assert not any(f.opens for f in page(table, "bob").forms)  # vic has not played
    assert "Set the deadline for the openings" in forms(page(table, "gina", "gm"))
    table.given(vic.play())
    (opening,) = [f for f in page(table, "bob").forms if f.opens]
    assert opening.title == "Open Kit's sealed card"
    assert opening.path == "/improv/conflicts/c1/openings"
    assert opening.fixed == {"side": "kit"}
    assert opening.opens == Sealed(conflict="c1", round=1, side="kit", commitment=kit.commitment)
    gm = forms(page(table, "gina", "gm"))
    assert {"Open Riso's sealed card", "Open Vic's sealed card"} <= set(gm)
    assert "Open Kit's sealed card" not in gm
    assert "Reveal the round" not in gm  # the reveal waits for every opening
    table.given(kit.opening(), riso.opening(), vic.opening(), diana.opening())
    assert not any(f.opens for f in page(table, "bob").forms)
    assert "Reveal the round" in forms(page(table, "gina", "gm"))


def test_the_gm_gets_the_forfeit_once_a_deadline_is_set(table: Table) -> None:
    hands = [Hand("kit", "QH"), Hand("riso", "7S"), Hand("vic", "2D"), Hand("diana", "AS")]
    table.given(*(hand.play() for hand in hands))
    assert "Declare a side forfeit (deadline passed)" not in forms(page(table, "gina", "gm"))
    table.given(c.SetOpeningDeadline(conflict="c1", minutes=0))
    forfeit = forms(page(table, "gina", "gm"))["Declare a side forfeit (deadline passed)"]
    assert forfeit.fields[0].choices == ["kit", "riso", "vic", "diana"]
    assert "Declare a side forfeit (deadline passed)" not in forms(page(table, "bob"))
    table.given(c.ForfeitOpening(conflict="c1", side="kit"))
    assert "Open Kit's sealed card" not in forms(page(table, "bob"))
