"""The cast (rules/cast.py): a ruleset declares which commands and events name which
character or player, and the core derives who may act and whom an event is attributed to."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import pytest

from tablelog import rulesets
from tablelog.errors import Forbidden
from tablelog.events.base import Event
from tablelog.rules import registry
from tablelog.rules.cast import Cast
from tablelog.rules.common import Command, StartSession


@dataclass
class Table:
    gm: str = "dana"
    characters: dict[str, str] = field(default_factory=lambda: {"kit": "bob", "riso": "dana"})


class Strike(Command, frozen=True):
    character: str


class Recruit(Command, frozen=True):
    player: str


class Struck(Event, frozen=True, tag="test.struck"):
    character: str


CAST = Cast[Table](
    gm=lambda table: table.gm,
    owner=lambda table, name: table.characters.get(name.lower()),
    characters={Strike: "character"},
    players={Recruit: "player"},
    event_characters=("character",),
    gm_also=(Recruit,),
    what={Strike: "strike for this character"},
)


@pytest.mark.parametrize(
    ("command", "acting"),
    [
        (Strike(character="Kit"), "bob"),  # a player's character, in any case
        (Strike(character="riso"), "gm"),  # the GM's: an NPC
        (Strike(character="nobody"), None),  # unknown: decide refuses it in its own words
        (Recruit(player="Sue"), "sue"),
        (Recruit(player="dana"), "gm"),
        (StartSession(), None),
    ],
)
def test_who_a_command_acts_for(command: Command, acting: str | None) -> None:
    assert CAST.acting(Table(), command) == acting


@pytest.mark.parametrize(
    ("command", "player", "role", "code"),
    [
        (Strike(character="kit"), "bob", "player", None),
        (Strike(character="kit"), "sue", "player", "not-yours"),
        (Strike(character="kit"), "dana", "gm", "not-yours"),
        (Strike(character="riso"), "dana", "gm", None),
        (Strike(character="riso"), "bob", "player", "gm-only"),
        (Recruit(player="sue"), "dana", "gm", None),  # gm_also
        (StartSession(), "bob", "player", "gm-only"),  # the table's own: the GM's
        (Strike(character="kit"), "olga", "observer", "observer"),
    ],
)
def test_who_may_issue_it(command: Command, player: str, role: str, code: str | None) -> None:
    if code is None:
        CAST.authorize(Table(), command, player, role)
        return
    with pytest.raises(Forbidden) as refused:
        CAST.authorize(Table(), command, player, role)
    assert refused.value.code == code


def test_an_event_is_its_characters_players_else_the_gms() -> None:
    assert CAST.actor(Table(), Struck(character="kit")) == "bob"
    assert CAST.actor(Table(), Struck(character="nobody")) == "dana"


@pytest.mark.parametrize("name", rulesets.names())
def test_every_ruleset_declares_its_cast_and_copies_none(name: str) -> None:
    """Authority and attribution come from the one declaration: no ruleset module defines
    its own `actor` or `acting` any more."""
    rules = registry.get(name)
    assert isinstance(rules.cast, Cast)
    place = rulesets.place(name)
    assert place is not None
    module = importlib.import_module(place.rules)
    assert not hasattr(module, "actor")
    assert not hasattr(module, "acting")
