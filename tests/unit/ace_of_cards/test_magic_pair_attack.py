"""Issue 26: a Magic Pair's free attack is resolved as a Check, as the other attacks are: an
Accuracy Check (a weapon equipped) called at once after the pair (`free_attack`), Double or
Nothing if declared, its damage of the type chosen from the pair's suits. The attack must
come before the next action (an action, Magic Cards, another Check), like a Trap Card's
free spell. Clubs are fire, diamonds earth."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.events.codec import encode
from tablelog.rules.common import Command
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.views.text import conflict_lines
from tablelog.rulesets.ace_of_cards.views.views import show
from tests.unit.ace_of_cards.table import Table, Tables, ace, magic, only, open_

HAND = ("3C", "3D", "5H", "6S", "JK1")
PAIR = magic("kit", 10, "3C", "3D", damage_type="fire")


def free_attack(**kw: Any) -> c.CallCheck:
    given: dict[str, Any] = {
        "kind": "accuracy", "dice": [8, 10], "dl": 9, "damage": 5, "target": "ogre", **kw
    }  # fmt: skip
    return c.CallCheck(conflict=None, character="kit", free_attack=True, **given)


def roll(check: str, *faces: int) -> c.RollCheck:
    return c.RollCheck(conflict=None, check=check, values=list(faces))


def paired(new: Tables) -> Table:
    table = new({"dice": "recorded"})
    table.shuffle.deck(*HAND)
    return table.given(ace("kit", magic_cards=1), open_(["kit"], ["goblin", "ogre"]), PAIR)


def test_the_pair_leaves_its_free_attack_pending(new: Tables) -> None:
    table = paired(new)
    assert table.who("kit").free_attack == 0  # the conflict's first set
    played = table.state.conflicts["c1"].sets[0]
    assert (played.set, played.damage_type, played.attack) == ("magic-pair", "fire", None)


def test_the_free_attack_is_a_check_tied_to_the_pair_and_doubled_if_declared(
    new: Tables,
) -> None:
    table = paired(new)
    events = table.when(free_attack(double=True))
    called = only(events, ev.CheckCalled)
    assert (called.check_id, called.kind, called.magic_pair) == ("k1", "accuracy", 0)
    assert only(events, ev.DoubleOrNothingDeclared).check_id == "k1"
    assert table.who("kit").free_attack is None
    assert table.state.conflicts["c1"].sets[0].attack == "k1"
    # AC-6 (a) as the pair's attack: 7, 7 is a critical, (7 + 5) x 2 = 24, all of it fire.
    resolved = only(table.when(roll("k1", 7, 7)), ev.CheckResolved)
    assert (resolved.damage, resolved.doubled, resolved.damage_type) == (24, True, "fire")
    assert resolved.rule.endswith("= 24; the Magic Pair makes it fire")
    assert table.state.conflicts["c1"].beats == [["kit", "ogre"]]
    assert account_of(table.log()).discrepancies == []


@pytest.mark.parametrize(
    ("faces", "damage", "damage_type"),
    [
        ((4, 9), 14, "fire"),  # a hit: HR 9 + 5
        ((3, 5), None, None),  # 8 < 9: a miss deals no damage, so no type
        ((1, 1), None, None),  # a fumble
    ],
)
def test_the_type_comes_only_with_damage(
    new: Tables, faces: tuple[int, int], damage: int | None, damage_type: str | None
) -> None:
    table = paired(new).given(free_attack())
    resolved = only(table.when(roll("k1", *faces)), ev.CheckResolved)
    assert (resolved.damage, resolved.damage_type) == (damage, damage_type)


# (what happens before, the free attack asked for, the refusal's code, its sentence)
REFUSALS = {
    "no-pair-played": (
        [],
        free_attack(),
        "no-free-attack",
        "a free attack follows at once a Magic Pair; kit has none pending",
    ),
    "after-the-next-action": (
        [PAIR, c.TakeAction(conflict=None, actor="goblin", text="bites")],
        free_attack(),
        "no-free-attack",
        "a free attack follows at once a Magic Pair; kit has none pending",
    ),
    "twice": (
        [PAIR, free_attack()],
        free_attack(check="k2"),
        "no-free-attack",
        "a free attack follows at once a Magic Pair; kit has none pending",
    ),
    "not-an-accuracy-check": (
        [PAIR],
        free_attack(kind="magic", offensive=True),
        "free-attack-kind",
        "a Magic Pair's free attack is an Accuracy Check (a weapon equipped); magic given",
    ),
}


@pytest.mark.parametrize(("before", "command", "code", "sentence"), REFUSALS.values(), ids=REFUSALS)
def test_a_free_attack_is_refused_out_of_its_place(
    new: Tables, before: list[Command], command: Command, code: str, sentence: str
) -> None:
    table = new({"dice": "recorded"})
    table.shuffle.deck(*HAND)
    table.given(ace("kit", magic_cards=1), open_(["kit"], ["goblin", "ogre"]), *before)
    assert table.refuse(command, code).message == sentence


def test_show_ties_the_pair_to_its_attack(new: Tables) -> None:
    table = paired(new).given(free_attack(double=True), roll("k1", 7, 7))
    lines = conflict_lines(show(table.state, "c1", None))
    pair = "  kit Magic Cards 10 MP: 3C 3D -> Magic Pair, its free attack's damage fire (check k1)"
    assert pair in lines
    assert any(
        line.startswith("  check k1 (kit, accuracy, Magic Pair's free attack) (double or nothing)")
        for line in lines
    )


@pytest.mark.parametrize(
    ("kind", "changes", "field"),
    [
        (ev.CheckResolved, {"damage_type": "earth"}, "damage_type"),
        (ev.CheckResolved, {"damage_type": None}, "damage_type"),
    ],
)
def test_an_edited_attack_is_named_by_the_audit(
    new: Tables, kind: type[Any], changes: dict[str, Any], field: str
) -> None:
    table = paired(new).given(free_attack(), roll("k1", 4, 9))
    log = table.log()
    at = next(i for i, e in enumerate(log) if isinstance(e.event(), kind))
    log[at] = msgspec.structs.replace(
        log[at], payload=encode(msgspec.structs.replace(log[at].event(), **changes))
    )
    assert [(d.seq, d.field) for d in account_of(log).discrepancies] == [(log[at].seq, field)]


def test_a_free_attack_with_no_pair_before_it_is_named_by_the_audit(new: Tables) -> None:
    table = new({"dice": "recorded"})
    table.shuffle.deck(*HAND)
    table.given(ace("kit", magic_cards=1), open_(["kit"], ["ogre"]))
    table.given(c.CallCheck(conflict=None, character="kit", kind="accuracy", dice=[8, 10], dl=9))
    log = table.log()
    called = log[-1].event()
    forged = msgspec.structs.replace(called, magic_pair=0)
    log[-1] = msgspec.structs.replace(log[-1], payload=encode(forged))
    found = account_of(log).discrepancies
    assert [(d.type, d.field, d.expected) for d in found] == [
        ("ac.check_called", "magic_pair", None)
    ]
