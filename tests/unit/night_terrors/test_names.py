"""A character is named in any letter case (`ALICE`, `alice`, `Alice`) by every command, and
by the service's authority, and printed as it was created (issue 26, item 7). Only matching
and words change: the events hold the same keys as ever, so old logs replay as they were."""

from __future__ import annotations

import msgspec
import pytest

from tablelog.rules.common import Command, StartSession
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules.cast import CAST
from tablelog.rulesets.night_terrors.views.text import describe, describe_in
from tests.unit.night_terrors.table import (
    ALICE,
    BOB,
    RECORDED,
    Tables,
    draw,
    only,
    open_,
    raise_,
    see,
)


def _play(spell: dict[str, str]) -> list[Command]:
    a, b = spell["alice"], spell["bob"]
    return [
        StartSession(),
        draw(a, "6D", "KS", "2C", "3C"),
        draw(b, "7C", "5H", "2D", "3D"),
        open_("guns", a, b),
        draw(a, "4C", "5C", "6C", "8C", "9C"),
        draw(b, "2H", "3H", "4H", "6H"),
        raise_(a, "6D", "KS"),
        see(b, "7C", "5H"),
        c.Give(conflict="c1", character=b),
        c.Narrate(conflict="c1", character=a, text="Mine."),
    ]


def test_any_spelling_writes_the_same_events(new: Tables) -> None:
    plain = new(RECORDED).given(ALICE, BOB, _play({"alice": "alice", "bob": "bob"}))
    shouted = new(RECORDED).given(ALICE, BOB, _play({"alice": "ALICE", "bob": "bOb"}))
    assert msgspec.to_builtins(plain.events()) == msgspec.to_builtins(shouted.events())
    assert [e.character_id for e in shouted.events(ev.CardsDrawn)][:2] == ["alice", "bob"]


@pytest.mark.parametrize(
    "command",
    [
        raise_("ALICE", "6D", "KS"),
        see("aLiCe", "7C"),
        c.Push(conflict=None, character="ALICE"),
        c.Escalate(conflict=None, character="Alice"),
        c.Give(conflict=None, character="ALICE"),
        c.Pay(character="alICE", sweat=1),
        c.Draw(character="ALICE", cards=["2C"]),
        c.Discard(character="ALICE", cards=["2C"]),
        c.Refresh(character="ALICE", cards=["2C"]),
        c.Narrate(conflict=None, character="ALICE", text="x"),
        open_("guns", "ALICE", "bob"),
    ],
    ids=lambda command: type(command).__name__,
)
def test_the_service_knows_whose_character_in_any_case(new: Tables, command: Command) -> None:
    state = new(RECORDED).given(c.CreateCharacter(player="Ann", character="Alice", card="KS")).state
    assert CAST.acting(state, command) == "ann"


def test_words_name_characters_as_created(new: Tables) -> None:
    table = new(RECORDED).given(ALICE, BOB, StartSession())
    table.given(draw("ALICE", "6D", "KS", "2C", "3C"), draw("BOB", "7C", "5H", "2D", "3D"))
    [opened] = table.when(open_("guns", "alice", "BOB"))
    assert isinstance(opened, ev.ConflictOpened)
    assert (opened.aggressor, opened.participants) == ("alice", ["alice", "bob"])
    # Without a state: keys. With one: names as created, and (recorded deck) who draws.
    assert describe(opened) == (
        "conflict c1 opens: alice, bob; guns, trump Spades; alice raises first"
    )
    assert describe_in(opened, table.state) == (
        "conflict c1 opens: Alice, Bob; guns, trump Spades; Alice raises first; "
        "to draw (record them with draw): Alice 5 cards, Bob 4 cards"
    )
    refused = table.refuse(raise_("bob", "7C", "5H"), "nt-draw-first")
    assert refused.message == "Alice still draws 5 cards (record them with draw)"


def test_a_managed_deck_draws_itself_and_says_nothing_of_draws(new: Tables) -> None:
    table = new().given(ALICE, BOB, StartSession())
    opened = only(table.when(open_("talk", "ALICE", "bob")), ev.ConflictOpened)
    assert "to draw" not in describe_in(opened, table.state)
