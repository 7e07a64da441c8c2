"""What a newcomer met playing the ruleset from the rules file and the README alone (issue 18's
held-out play), each kept as a transcript: `show` tells the conflict in the order it happened,
Trap Cards, free spells, Mulligans and High or Low included; a party member without the class
is told it has no deck, not that it is in no conflict."""

from __future__ import annotations

from typing import Any

import pytest

from tablelog.commands.audit import account_of
from tablelog.commands.whatif import differences
from tablelog.errors import RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.views import VIEWS, views
from tests.unit.ace_of_cards.table import Tables, ace, magic, open_
from tests.unit.ace_of_cards.test_audit import edited


def test_show_tells_the_conflict_in_order_reactions_included(new: Tables) -> None:
    table = new({"deck_mode": "recorded", "dice": "recorded"})
    table.given(
        ace("kit", magic_cards=2, trap_card=2, mulligan=1),
        open_(["kit"], ["goblin", "ogre"], hands={"kit": ["3C", "4C", "5C", "6C", "JK1"]}),
        magic("kit", 20, "3C", "4C", "5C", "6C", set="magic-flush", drawn=["1C", "2C", "7C", "1D"]),
        c.TakeAction(conflict=None, actor="goblin", text="claws at Kit"),
        c.TrapCard(conflict=None, character="kit", suit="hearts", card="3H"),
        c.FreeSpell(conflict=None, character="kit", spell="Ice bolt", mp=10),
        c.CallCheck(
            conflict=None, character="kit", kind="accuracy", dice=[8, 10], dl=9, damage=5,
            target="ogre", double=True,
        ),
        c.RollCheck(conflict=None, check="k1", values=[7, 7]),
        c.HighOrLowDraw(conflict=None, character="kit", card="5H"),
        c.HighOrLowDiscard(conflict=None, character="kit", card="1D"),
        c.Mulligan(conflict=None, character="kit", cards=["7C"], drawn=["2H"]),
    )  # fmt: skip
    view = VIEWS.show_view(table.state, "c1", None)
    assert view["order"] == [
        ["set", "0"],
        ["action", "a1"],
        ["reaction", "0"],
        ["reaction", "1"],
        ["check", "k1"],
        ["reaction", "2"],
        ["reaction", "3"],
    ]
    assert view["reactions"] == [
        {
            "kind": "trap-card",
            "character": "kit",
            "action": "a1",
            "suit": "H",
            "card": "3H",
            "hit": True,
        },
        {"kind": "free-spell", "character": "kit", "spell": "Ice bolt", "mp": 10},
        {"kind": "high-or-low", "character": "kit", "card": "1D", "check": "k1", "drawn": 1},
        {"kind": "mulligan", "character": "kit", "discarded": ["7C"], "drawn": 1},
    ]
    lines = VIEWS.show_lines(table.state, view)
    assert lines[2:] == [
        "  kit Magic Cards 20 MP: 3C 4C 5C 6C -> Magic Flush 43 fire to goblin, ogre",
        "  a1: goblin: claws at Kit",
        "  kit Trap Card after a1, naming hearts: bottom card 3H, a hit",
        "  kit casts Ice bolt for free (10 MP paid)",
        "  check k1 (kit, accuracy) (double or nothing): 7 + 7 = 14 against 9: critical success"
        " (both dice 7, >= 6); double or nothing doubles it; damage HR 7 + 5 = 12, x 2 = 24",
        "  kit High or Low after k1: draws 1, discards 1D",
        "  kit Mulligan: 7C discarded, 1 drawn",
    ]
    # Through the service another player reads the same story: a draw is counted, not named.
    assert "5H" not in str(VIEWS.show_view(table.state, "c1", "bob")["reactions"])
    assert "2H" not in str(VIEWS.show_view(table.state, "c1", "bob")["reactions"])


def test_a_trap_card_miss_says_so_in_show(new: Tables) -> None:
    table = new({"deck_mode": "recorded"})
    table.given(
        ace("kit", trap_card=1),
        open_(["kit"], ["goblin"], hands={"kit": ["3C", "4C", "5C", "6C", "JK1"]}),
        c.TakeAction(conflict=None, actor="goblin", text="bites"),
        c.TrapCard(conflict=None, character="kit", suit="hearts", card="6S"),
    )
    view = VIEWS.show_view(table.state, "c1", None)
    assert view["reactions"][0]["hit"] is False
    assert VIEWS.show_lines(table.state, view)[-1] == (
        "  kit Trap Card after a1, naming hearts: bottom card 6S, a miss"
    )


def test_the_hand_of_a_party_member_without_the_class_names_the_missing_deck(
    new: Tables,
) -> None:
    table = new()
    table.given(
        ace("kit", magic_cards=1),
        c.CreateCharacter(player="gm", character="Bram", hp=50, mp=30),
        open_(["kit", "bram"], ["goblin"]),
    )
    with pytest.raises(RuleViolation) as refused:
        views.hand(table.state, "Bram", None)
    assert (refused.value.code, refused.value.message) == (
        "no-deck",
        "Bram has no deck: Ace of Cards skills need the class (`deck`)",
    )
    # An Ace out of a conflict is still told the cards exist only during one.
    table.given(c.EndConflict(conflict="c1"))
    with pytest.raises(RuleViolation) as refused:
        views.hand(table.state, "kit", None)
    assert refused.value.code == "not-in-conflict"


def test_whatif_compares_a_sets_effect_beyond_who_was_hit(new: Tables) -> None:
    """AC-1 played twice, once each flush: both hit goblin and ogre (the same beats), and the
    outcome tells 43 fire from 33 light."""
    views_of = []
    for chosen in ("magic-flush", "blinding-flush"):
        table = new({"deck_mode": "recorded"})
        table.given(
            ace("kit", magic_cards=2),
            open_(["kit"], ["goblin", "ogre"], hands={"kit": ["3C", "4C", "5C", "6C", "JK1"]}),
            magic("kit", 20, "3C", "4C", "5C", "6C", set=chosen, drawn=["1C", "2C", "7C", "1D"]),
        )
        views_of.append(views.state_view(table.state))
    (found,) = differences(*views_of)
    assert found.real == found.whatif == [["kit", "goblin"], ["kit", "ogre"]]
    assert found.real_outcome == [
        "kit Magic Cards 20 MP: 3C 4C 5C 6C -> Magic Flush 43 fire to goblin, ogre"
    ]
    assert found.whatif_outcome == [
        "kit Magic Cards 20 MP: 3C 4C 5C 6C -> Blinding Flush 33 light to goblin, ogre"
    ]


@pytest.mark.parametrize("next_action", ["kit's check", "bram's check", "lea's magic cards"])
def test_the_next_action_takes_a_trap_cards_free_spell_away(new: Tables, next_action: str) -> None:
    """The free spell comes "immediately" after the Trap Card: the next action (a Check, an
    attack, a spell or a Clock, or Magic Cards), the Ace's own or an ally's, ends the chance,
    as `act` does."""
    table = new({"deck_mode": "recorded", "dice": "recorded"})
    table.given(
        ace("kit", trap_card=2),
        ace("lea", magic_cards=1),
        c.CreateCharacter(player="gm", character="Bram", hp=50, mp=30),
        open_(
            ["kit", "lea", "bram"],
            ["goblin"],
            hands={"kit": ["3C", "4C", "5C", "6C", "JK1"], "lea": ["1C", "2C", "3C", "4C", "5C"]},
        ),
        c.TakeAction(conflict=None, actor="goblin", text="bites"),
        c.TrapCard(conflict=None, character="kit", suit="hearts", card="3H"),
    )
    who, what = next_action.split("'s ")
    if what == "check":
        table.given(c.CallCheck(conflict=None, character=who, kind="accuracy", dice=[8, 10], dl=9))
    else:
        table.given(magic(who, 10, "1C", "2C", drawn=["6C", "7C"], anyway=True))
    error = table.refuse(
        c.FreeSpell(conflict=None, character="kit", spell="Ice bolt", mp=10), "no-trap-hit"
    )
    assert "kit has none pending" in error.message


def test_a_party_member_named_as_an_enemy_is_told_so(new: Tables) -> None:
    table = new()
    table.given(ace("kit", magic_cards=1))
    error = table.refuse(open_(["kit"], ["goblin", "Kit"]), "enemy-twice")
    assert error.message == "Kit is in the party; an enemy is someone else"
    error = table.refuse(open_(["kit"], ["goblin", "Goblin"]), "enemy-twice")
    assert error.message == "Goblin is given twice"


@pytest.mark.parametrize(
    ("kind", "changes", "refusal"),
    [
        (
            ev.FreeSpellCast,
            {"mp_cost": 15},
            "spell-cost: free spell costs 15 MP; limit is SL x 5 = 10",
        ),
        (
            ev.MagicCardsUsed,
            {"mp_spent": 25},
            "mp-range: Magic Cards at SL 2 takes 10-20 MP in steps of 5; got 25",
        ),
        (
            ev.MulliganTaken,
            {"discarded": ["1C", "2C", "7C"]},
            "mulligan-limit: Mulligan allows at most SL (1) cards; 3 given",
        ),
        (
            ev.TrapCardRevealed,
            {"trigger_action_id": "a9"},
            "not-latest: Trap Card answers an action as it resolves: the latest (a1); a9 given",
        ),
    ],
)
def test_the_audit_rechecks_each_limited_card_play(
    new: Tables, kind: type[Event], changes: dict[str, Any], refusal: str
) -> None:
    """A log edited (or written by a buggy version) past a limit of the rules is named by
    seq with the rules' own refusal, as a decision that does not follow."""
    table = new()
    table.shuffle.deck("3C", "4C", "5C", "6C", "JK1", bottom=["3H"])
    table.given(
        ace("kit", magic_cards=2, trap_card=2, mulligan=1),
        open_(["kit"], ["goblin", "ogre"]),
        magic("kit", 20, "3C", "4C", "5C", "6C", set="magic-flush"),
        c.TakeAction(conflict=None, actor="goblin", text="claws"),
        c.TrapCard(conflict=None, character="kit", suit="hearts"),
        c.FreeSpell(conflict=None, character="kit", spell="Zap", mp=10),
    )
    table.given(c.Mulligan(conflict=None, character="kit", cards=[table.pile("kit").hand[0]]))
    assert account_of(table.log()).discrepancies == []
    log, seq = edited(table.log(), kind, 0, **changes)
    first = account_of(log).discrepancies[0]
    assert (first.seq, first.field, first.expected) == (
        seq,
        "*",
        f"refused by the rules: {refusal}",
    )
