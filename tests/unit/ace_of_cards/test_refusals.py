"""Refusals as a table: given this table, this command is refused with this code and this
sentence (naming the rule, the value and the limit), and the log (and its head seq) is
unchanged.

The first rows are the example errors of rules/ace-of-cards.md, in its words. Kit is an Ace
with Magic Cards SL 2, Mulligan SL 1 and Trap Card SL 2, 40 MP, against a goblin; its opening
hand is stacked per row (managed deck), and the deck's bottom card is JK2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tablelog.rules.common import Command
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.cards import STANDARD_DECK
from tests.unit.ace_of_cards.table import VECTOR_TYPES, Tables, ace, magic, open_

C = None  # the only open conflict


@dataclass
class Row:
    command: Command
    code: str
    words: str
    hand: tuple[str, ...] = ("3C", "4C", "6C", "7C", "JK1")
    before: list[Command] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    opened: bool = True


KIT = ace("kit", magic_cards=2, mulligan=1, trap_card=2)
GOBLIN_ACTS = c.TakeAction(conflict=C, actor="goblin", text="claws")
CHECK = c.CallCheck(conflict=C, character="kit", kind="accuracy", dice=[8, 10], dl=9, damage=5)
ROLLED = [CHECK, c.RollCheck(conflict=C, check="k1", values=[3, 5])]
NO_5H = [card for card in STANDARD_DECK if card != "5H"]

ROWS = {
    # --- the file's example errors ---
    "deck-missing-5h": Row(
        c.BuildDeck(character="ann", suit_types=VECTOR_TYPES, benefit="hp", cards=NO_5H),
        "bad-deck",
        "deck must be 30 cards: 2 jokers + values 1-7 in each of 4 suits; 5H missing",
        before=[c.CreateCharacter(player="bob", character="ann", hp=30, mp=30)],
    ),
    "mp-above-sl-cap": Row(
        magic("kit", 25, "3C", "4C", "6C", "7C", "JK1"),
        "mp-range",
        "Magic Cards at SL 2 takes 10-20 MP in steps of 5; got 25",
    ),
    "mp-below-10": Row(
        magic("kit", 5, "3C"), "mp-range", "Magic Cards at SL 2 takes 10-20 MP in steps of 5; got 5"
    ),
    "mp-not-multiple-of-5": Row(
        magic("kit", 12, "3C", "4C"), "mp-step", "12 MP is not a multiple of 5"
    ),
    "wrong-card-count": Row(
        magic("kit", 20, "3C", "4C", "6C"), "card-count", "20 MP resolves exactly 4 cards; 3 given"
    ),
    "not-enough-mp": Row(
        magic("kit", 15, "3C", "4C", "6C"),
        "not-enough-mp",
        "not enough MP: 15 needed, 10 left",
        before=[c.AdjustMP(character="kit", delta=-30)],
    ),
    "card-not-in-hand": Row(
        magic("kit", 10, "3C", "7D"), "card-not-there", "card 7D is not in hand"
    ),
    "joker-without-choice": Row(
        magic("kit", 10, "3C", "JK1"),
        "joker-choice",
        "joker needs a value 1-7 and one of the deck's suits; JK1 has none (e.g. JK1=5H)",
    ),
    "joker-as-an-8": Row(
        magic("kit", 10, "3C", "JK1", jokers={"JK1": "8H"}),
        "joker-choice",
        "joker needs a value 1-7 and one of the deck's suits; '8H' given",
    ),
    "jackpot-with-a-joker": Row(
        magic("kit", 20, "2C", "2D", "2H", "JK1", jokers={"JK1": "2S"}, set="jackpot"),
        "joker-in-jackpot",
        "Jackpot cannot include a joker",
        hand=("2C", "2D", "2H", "JK1", "6S"),
    ),
    "flush-not-consecutive": Row(
        magic("kit", 20, "3C", "4C", "6C", "7C", set="magic-flush"),
        "not-consecutive",
        "3C 4C 6C 7C are not consecutive (values 1-7, no wrap-around)",
    ),
    "no-wrap-around": Row(
        magic("kit", 20, "6C", "7C", "1C", "2C", set="blinding-flush"),
        "not-consecutive",
        "6C 7C 1C 2C are not consecutive (values 1-7, no wrap-around)",
        hand=("6C", "7C", "1C", "2C", "JK1"),
    ),
    "two-flushes-fit": Row(
        magic("kit", 20, "3C", "4C", "5C", "6C"),
        "choose-set",
        "set fits Magic Flush and Blinding Flush: choose one",
        hand=("3C", "4C", "5C", "6C", "JK1"),
    ),
    "cards-out-of-conflict": Row(
        c.Mulligan(conflict=C, character="kit", cards=["3C"]),
        "not-in-conflict",
        "deck, hand and discard exist only during a conflict; kit is in none",
        opened=False,
        before=[open_(["kit"], ["goblin"]), c.EndConflict(conflict="c1")],
    ),
    "mulligan-above-sl": Row(
        c.Mulligan(conflict=C, character="kit", cards=["3C", "4C"]),
        "mulligan-limit",
        "Mulligan allows at most SL (1) cards; 2 given",
    ),
    "trap-without-action": Row(
        c.TrapCard(conflict=C, character="kit", suit="hearts"),
        "no-trigger",
        "Trap Card needs a resolved action by an enemy you can see; conflict c1 has no action yet",
    ),
    "trap-after-an-ally": Row(
        c.TrapCard(conflict=C, character="kit", suit="hearts"),
        "no-trigger",
        "Trap Card needs a resolved action by an enemy you can see; a1 is kit's, no enemy's",
        before=[c.TakeAction(conflict=C, actor="kit", text="guards")],
    ),
    "trap-unseen-enemy": Row(
        c.TrapCard(conflict=C, character="kit", suit="hearts"),
        "no-trigger",
        "Trap Card needs a resolved action by an enemy you can see; goblin could not be seen in a1",
        before=[c.TakeAction(conflict=C, actor="goblin", text="sneaks", visible=False)],
    ),
    "free-spell-above-sl": Row(
        c.FreeSpell(conflict=C, character="kit", spell="Fulgur", mp=15),
        "spell-cost",
        "free spell costs 15 MP; limit is SL x 5 = 10",
        before=[GOBLIN_ACTS, c.TrapCard(conflict=C, character="kit", suit="hearts")],
    ),
    "double-after-the-roll": Row(
        c.DeclareDoubleOrNothing(conflict=C, check="k1"),
        "don-too-late",
        "double or nothing must be declared before the Check is rolled; k1 was rolled",
        before=ROLLED,
        options={"dice": "recorded"},
    ),
    "double-on-a-defensive-spell": Row(
        c.CallCheck(conflict=C, character="kit", kind="magic", dice=[10, 10], dl=10, double=True),
        "don-not-allowed",
        "double or nothing is not allowed on a defensive Magic Check",
    ),
    # --- further checks ---
    "double-on-another-check": Row(
        c.CallCheck(conflict=C, character="kit", kind="other", dice=[10, 10], dl=10, double=True),
        "don-not-allowed",
        "double or nothing is declared before an Accuracy Check, an offensive Magic Check or "
        "a Check to advance or reduce a Clock; other given",
    ),
    "trap-twice-on-one-action": Row(
        c.TrapCard(conflict=C, character="kit", suit="spades"),
        "trap-used",
        "kit has already answered a1 with a Trap Card",
        before=[GOBLIN_ACTS, c.TrapCard(conflict=C, character="kit", suit="hearts")],
    ),
    "trap-an-older-action": Row(
        c.TrapCard(conflict=C, character="kit", suit="hearts", action="a1"),
        "not-latest",
        "Trap Card answers an action as it resolves: the latest (a2); a1 given",
        before=[GOBLIN_ACTS, GOBLIN_ACTS],
    ),
    "free-spell-without-a-hit": Row(
        c.FreeSpell(conflict=C, character="kit", spell="Fulgur", mp=10),
        "no-trap-hit",
        "a free spell follows at once a Trap Card that hit; kit has none pending",
    ),
    "mulligan-twice-in-a-turn": Row(
        c.Mulligan(conflict=C, character="kit", cards=["4C"]),
        "mulligan-used",
        "Mulligan comes once, at the end of your turn; kit has taken no action since the last",
        before=[c.Mulligan(conflict=C, character="kit", cards=["3C"])],
    ),
    "magic-cards-at-sl-0": Row(
        magic("ann", 10, "3C", "4C"),
        "no-skill",
        "Magic Cards needs the skill; ann has Magic Cards at SL 0",
        before=[*ace("ann"), open_(["kit", "ann"], ["goblin"])],
        opened=False,
    ),
    "skill-above-its-maximum": Row(
        c.SetSkillLevel(character="kit", skill="magic-cards", sl=4),
        "skill-level",
        "Magic Cards can be taken at most 3 times (SL 0-3); SL 4 given",
    ),
    "one-type-for-two-suits": Row(
        c.BuildDeck(
            character="ann",
            suit_types={"C": "fire", "D": "fire", "H": "ice", "S": "air"},
            benefit="mp",
        ),
        "type-twice",
        "each suit is tied to a different damage type among air, earth, fire and ice; fire "
        "given twice",
        before=[c.CreateCharacter(player="bob", character="ann", hp=30, mp=30)],
    ),
    "draws-given-to-a-managed-deck": Row(
        magic("kit", 10, "3C", "4C", drawn=["1C", "2C"], anyway=True),
        "managed-deck",
        "the deck is managed by tablelog (option deck_mode=managed): cards drawn are not given",
    ),
    "check-rolled-twice": Row(
        c.RollCheck(conflict=C, check="k1", values=[3, 5]),
        "check-rolled",
        "check k1 was already rolled",
        before=ROLLED,
        options={"dice": "recorded"},
    ),
    "a-face-the-die-lacks": Row(
        c.RollCheck(conflict=C, check="k1", values=[9, 4]),
        "bad-values",
        "a d8 shows 1 to 8; 9 given",
        before=[CHECK],
        options={"dice": "recorded"},
    ),
    "high-or-low-without-critical": Row(
        c.HighOrLowDraw(conflict=C, character="kit"),
        "no-high-or-low",
        "High or Low needs a critical success or a fumble; kit has none pending",
    ),
    "full-status-one-status": Row(
        magic("kit", 25, "2C", "2D", "2H", "5C", "5D", set="full-status", statuses=["dazed"]),
        "statuses",
        "Full Status: choose two of dazed, shaken, slow, weak; dazed given",
        hand=("2C", "2D", "2H", "5C", "5D"),
        before=[c.SetSkillLevel(character="kit", skill="magic-cards", sl=3)],
    ),
    "deck-built-in-a-conflict": Row(
        c.BuildDeck(character="ann", suit_types=VECTOR_TYPES, benefit="hp"),
        "in-conflict",
        "a deck is built outside a conflict (at character creation); ann is in conflict c2",
        before=[
            c.CreateCharacter(player="bob", character="ann", hp=30, mp=30),
            open_(["ann"], ["wolf"], conflict="c2"),
        ],
    ),
    "double-trouble-three-targets": Row(
        magic(
            "kit",
            20,
            "2C",
            "2D",
            "3H",
            "3S",
            damage_type="fire",
            targets=["goblin", "goblin", "ogre"],
        ),
        "targets",
        "Double Trouble hits up to 2 different enemies; goblin, goblin, ogre given",
        hand=("2C", "2D", "3H", "3S", "JK1"),
    ),
    "never-more-than-5-cards": Row(
        magic("kit", 30, "3C", "4C", "6C", "7C", "JK1", "1C"),
        "mp-range",
        "Magic Cards at SL 5 takes 10-25 MP in steps of 5; got 30",
        before=[c.SetSkillLevel(character="kit", skill="magic-cards", sl=5)],
        options={"max_sl_magic_cards": "5"},
    ),
    "hp-below-zero": Row(
        c.AdjustHP(character="kit", delta=-41),
        "points-range",
        "HP stays between 0 and the maximum 40; kit has 40, -41 requested",
    ),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_refused_with_its_code_and_sentence_and_nothing_appended(new: Tables, name: str) -> None:
    row = ROWS[name]
    table = new(row.options)
    table.shuffle.deck(*row.hand)
    table.given(KIT)
    if row.opened:
        table.given(open_(["kit"], ["goblin"]))
    table.given(row.before)
    error = table.refuse(row.command, row.code)
    assert error.message == row.words


def test_trap_card_is_refused_while_the_deck_is_empty(new: Tables) -> None:
    table = new()
    table.given(KIT, open_(["kit"], ["goblin"]))
    for _ in range(25):
        table.given(GOBLIN_ACTS, c.TrapCard(conflict=C, character="kit", suit="hearts"))
    table.given(GOBLIN_ACTS)
    error = table.refuse(c.TrapCard(conflict=C, character="kit", suit="hearts"), "deck-empty")
    assert error.message == "Trap Card is not usable while the deck is empty; 0 cards in it"
