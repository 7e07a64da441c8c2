"""The play `tablelog demo --ruleset night-terrors` writes: test vector NT-5 of
rules/night-terrors.md (a reversal, a 3-card raise, an escalation from Clubs to Spades and a
clean see with two faces' worth), played on to the end with a push and a give.

The deck is recorded so the cards are the vector's: Alice is the King of Spades, Bob the Queen
of Hearts. Bob's hand holds three more low cards than the vector names (AC, 2H, AH): with them
his best is still 18, short of Alice's 19, so he escalates as the vector has it.
"""

from __future__ import annotations

from tablelog.rules.common import StartSession
from tablelog.rules.contract import Demo
from tablelog.rulesets.night_terrors.rules import commands as c

C1 = "c1"


def demo() -> Demo:
    def draw(who: str, *cards: str) -> c.Draw:
        return c.Draw(character=who, cards=list(cards))

    return Demo(
        name="night-terrors",
        options={"deck": "recorded"},
        conflict=C1,
        about="Night Terrors, test vector NT-5 played to the end",
        shown=frozenset(
            {
                "nt.conflict_opened",
                "nt.raise_made",
                "nt.raise_answered",
                "nt.conflict_escalated",
                "nt.cost_paid",
                "nt.pool_emptied",
                "nt.participant_left",
                "nt.conflict_ended",
                "nt.outcome_narrated",
            }
        ),
        commands=[
            c.CreateCharacter(player="ann", character="Alice", card="KS"),
            c.CreateCharacter(player="ben", character="Bob", card="QH"),
            StartSession(),
            draw("Alice", "8D", "9H", "2D", "7C"),
            draw("Bob", "3H", "4S", "5C", "6H"),
            c.OpenConflict(
                conflict=C1,
                aggressor="Bob",
                others=["Alice"],
                kind="melee",
                stakes="who keeps the ledger",
                place="the cellar",
                approach="Bob shoves Alice against the shelves",
            ),
            draw("Alice", "10C", "5D", "6S", "AS"),
            draw("Bob", "3D", "AC", "2H", "AH"),
            c.Raise(conflict=C1, character="Bob", cards=["3H", "4S"], narration="A shove."),
            c.See(conflict=C1, character="Alice", cards=["8D"], narration="She twists free."),
            c.Raise(conflict=C1, character="Alice", cards=["9H", "2D", "8D"]),
            c.Escalate(conflict=C1, character="Bob", to="guns"),
            draw("Alice", "3C", "4C", "7D", "8H", "9S"),
            draw("Bob", "JD", "10S", "2C", "4H"),
            c.See(conflict=C1, character="Bob", cards=["JD", "10S"], narration="He draws."),
            c.Raise(conflict=C1, character="Bob", cards=["6H", "5C"]),
            c.See(conflict=C1, character="Alice", cards=["6S", "5D"]),
            c.Raise(conflict=C1, character="Alice", cards=["10C", "9S"]),
            c.Push(conflict=C1, character="Bob", cards=["4H", "3D", "2C", "2H"]),
            c.Raise(conflict=C1, character="Bob", cards=["AC", "AH"]),
            c.See(conflict=C1, character="Alice", cards=["3C", "4C"]),
            c.Raise(conflict=C1, character="Alice", cards=["7D", "8H"]),
            c.Give(conflict=C1, character="Bob"),
            c.Narrate(conflict=C1, character="Alice", text="Alice keeps the ledger."),
        ],
    )
