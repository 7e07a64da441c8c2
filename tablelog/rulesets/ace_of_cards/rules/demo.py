"""Ace of Cards' demo: rules/ace-of-cards.md's AC-1 (a set fitting both flushes: Magic Flush
chosen, 43 fire to each enemy) played out as a whole conflict, then AC-6 (a): a Double or
Nothing attack whose critical doubles 12 damage to 24. The deck and dice are recorded from
the table, so the cards and faces are the vectors'."""

from __future__ import annotations

from tablelog.rules.common import Command, StartSession
from tablelog.rules.contract import Demo
from tablelog.rulesets.ace_of_cards.rules import commands as c

FIGHT = "c1"

PLAY: list[Command] = [
    c.CreateCharacter(player="ann", character="Kit", hp=40, mp=35),
    c.BuildDeck(
        character="Kit",
        suit_types={"clubs": "fire", "diamonds": "earth", "hearts": "ice", "spades": "air"},
        benefit="mp",  # 35 + 5 = the vector's 40 MP
    ),
    c.SetSkillLevel(character="Kit", skill="magic-cards", sl=2),
    # Double or Nothing and High or Low are Skills of the class, taken once each.
    c.SetSkillLevel(character="Kit", skill="double-or-nothing", sl=1),
    c.SetSkillLevel(character="Kit", skill="high-or-low", sl=1),
    StartSession(),
    c.OpenConflict(
        party=["Kit"],
        enemies=["Goblin", "Ogre"],
        conflict=FIGHT,
        hands={"Kit": ["3C", "4C", "5C", "6C", "JK1"]},
    ),
    c.TakeAction(conflict=FIGHT, actor="Goblin", text="rushes Kit with a rusty blade"),
    # AC-1: 20 MP (SL 2's cap) on 3C 4C 5C 6C; it fits both flushes: Magic Flush, 25 + 18.
    c.UseMagicCards(
        conflict=FIGHT,
        character="Kit",
        mp=20,
        cards=["3C", "4C", "5C", "6C"],
        set="magic-flush",
        drawn=["1C", "2C", "7C", "1D"],
    ),
    c.TakeAction(conflict=FIGHT, actor="Ogre", text="roars and swings its club"),
    # AC-6 (a): d8 + d10 against Defense 9, HR + 5 damage, double or nothing, 7 and 7.
    c.CallCheck(
        conflict=FIGHT,
        character="Kit",
        kind="accuracy",
        dice=[8, 10],
        dl=9,
        damage=5,
        target="Ogre",
        double=True,
    ),
    c.RollCheck(conflict=FIGHT, check="k1", values=[7, 7]),
    c.EndConflict(conflict=FIGHT),
]


def demo() -> Demo:
    return Demo(
        commands=PLAY,
        conflict=FIGHT,
        name="ace-of-cards",
        options={"deck_mode": "recorded", "dice": "recorded"},
        about="rules/ace-of-cards.md's AC-1 and AC-6 (a), played out as one conflict",
        shown=frozenset(
            {
                "ac.conflict_started",
                "ac.action_taken",
                "ac.magic_cards_used",
                "ac.set_effect_applied",
                "ac.cards_discarded",
                "ac.check_called",
                "ac.double_or_nothing_declared",
                "ac.check_rolled",
                "ac.check_resolved",
                "ac.conflict_ended",
            }
        ),
    )
