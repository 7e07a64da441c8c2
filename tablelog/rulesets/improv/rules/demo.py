"""Improv's demo: the seed's bar fight (chapter 4, extended conflict, main ending).

The seed leaves some cards out ("?"); these are filled with cards its text allows. Its cast:
Bob plays Kit and Susan plays Diana (the seed's own examples); Jason's player is not named, so
Richard plays him. Players start a session with no tokens, yet Kit spends one in round 2 and
Jason one in round 3, so the log awards them those tokens earlier in the session, from the
pool (3 -> 1).
"""

from __future__ import annotations

from tablelog.rules.common import Command
from tablelog.rules.contract import Demo
from tablelog.rulesets.improv.rules import commands as c

FIGHT = "fight"

SETUP: list[Command] = [
    c.CreateCharacter(player="Bob", character="Kit", talents=["Brawler"]),
    c.CreateCharacter(player="Richard", character="Jason", talents=["Protector"]),
    c.CreateCharacter(player="Susan", character="Diana", talents=["Marksman"]),
    c.StartSession(),
    c.StartScene(title="Riso's bar"),
    c.Award(giver="Susan", receiver="Bob"),  # Diana's player to Kit's
    c.Award(giver="Bob", receiver="Richard"),  # Kit's player to Jason's
]

OPENING: list[Command] = [
    c.OpenConflict(conflict=FIGHT, extended=True, rounds=3),
    c.SetStake(conflict=FIGHT, side="Riso", gm=True, text="Riso shoots Vinny and gets away"),
    c.SetStake(conflict=FIGHT, side="Goons", gm=True, text="The goons grab Vinny"),
    c.SetStake(conflict=FIGHT, side="Kit", opposes="Riso", text="Kit captures Riso"),
    c.SetStake(conflict=FIGHT, side="Jason", opposes="Riso", text="Jason keeps Vinny safe"),
    c.SetStake(conflict=FIGHT, side="Diana", opposes="Goons", text="Diana holds off the goons"),
]

ROUND_1: list[Command] = [
    c.PlayCard(conflict=FIGHT, side="Kit", card="JK"),
    c.PlayCard(conflict=FIGHT, side="Riso", card="QD"),
    c.PlayCard(conflict=FIGHT, side="Jason", card="8S"),
    c.PlayCard(conflict=FIGHT, side="Goons", card="KS", from_deck=True),
    c.PlayCard(conflict=FIGHT, side="Diana", card="3C"),
    c.Reveal(conflict=FIGHT),
    c.Narrate(conflict=FIGHT, side="Diana", text="Diana warns the patrons to get down."),
    c.Narrate(conflict=FIGHT, side="Kit", text="Kit charges past the goons at Riso."),
]

ROUND_2: list[Command] = [
    c.PlayCard(conflict=FIGHT, side="Kit", card="AH"),
    c.PlayCard(conflict=FIGHT, side="Riso", card="AC"),
    c.PlayCard(conflict=FIGHT, side="Jason", card="9C"),
    c.PlayCard(conflict=FIGHT, side="Goons", card="4D", from_deck=True),
    c.PlayCard(conflict=FIGHT, side="Diana", card="JH"),
    c.PlaceBonus(conflict=FIGHT, on="Jason", talent="Protector"),
    c.PlaceBonus(conflict=FIGHT, on="Diana", talent="Marksman"),
    c.PlaceBonus(conflict=FIGHT, on="Riso", tokens=1),
    c.PlaceBonus(conflict=FIGHT, on="Kit", tokens=1),
    c.Reveal(conflict=FIGHT),
    c.Award(giver="Bob", receiver="Susan", conflict=FIGHT),  # for Diana's pistol-whipping
]

ROUND_3: list[Command] = [
    c.PlayCard(conflict=FIGHT, side="Kit", card="10H"),
    c.PlayCard(conflict=FIGHT, side="Riso", card="9C"),
    c.PlayCard(conflict=FIGHT, side="Jason", card="10S"),
    c.PlayCard(conflict=FIGHT, side="Goons", card="2D", from_deck=True),
    c.PlayCard(conflict=FIGHT, side="Diana", card="JD"),
    c.PlaceBonus(conflict=FIGHT, on="Jason", tokens=1),
    c.PlaceBonus(conflict=FIGHT, on="Jason", talent="Protector"),
    c.PlaceBonus(conflict=FIGHT, on="Kit", talent="Brawler"),
    c.PlaceBonus(conflict=FIGHT, on="Diana", tokens=1),
    c.PlaceBonus(conflict=FIGHT, on="Riso", tokens=2),
    c.Reveal(conflict=FIGHT),
]

MAIN_ENDING: list[Command] = [
    c.Give(conflict=FIGHT, giver="Jason", receiver="Kit", card="10S"),
    c.Narrate(
        conflict=FIGHT,
        side="Jason",
        final=True,
        text="A flying wood chip cuts Jason above the eye; he loses hold of Vinny.",
    ),
    c.Give(conflict=FIGHT, giver="Goons", receiver="Riso", card="KS"),
    c.Narrate(
        conflict=FIGHT, side="Goons", final=True, text="The two remaining goons rush at Diana."
    ),
    c.Give(conflict=FIGHT, giver="Diana", receiver="Kit", card="JH"),
    c.Narrate(
        conflict=FIGHT,
        side="Diana",
        final=True,
        text="Diana kicks one goon down and covers the other, shouting to Kit.",
    ),
    c.Narrate(
        conflict=FIGHT,
        side="Riso",
        final=True,
        text="Riso steps into the open and shoots Vinny in the chest.",
    ),
    c.Narrate(
        conflict=FIGHT,
        side="Kit",
        final=True,
        text="Kit tackles Riso: 'You just gunned down a man in front of three agents.'",
    ),
    # Awards after the last reveal count toward round 3, one per giver.
    c.Award(giver="Susan", receiver="Richard", conflict=FIGHT),  # Jason's "wood cut"
    c.Award(giver="Richard", receiver="Bob", conflict=FIGHT),  # Kit's gritty dialog
    c.Close(conflict=FIGHT),
]

ALTERNATE_ENDING: list[Command] = [
    c.Narrate(conflict=FIGHT, side="Jason", text="A wood chip blinds Jason; Riso takes aim."),
    c.Give(conflict=FIGHT, giver="Diana", receiver="Jason", card="JH"),
    c.Give(conflict=FIGHT, giver="Kit", receiver="Jason", card="JK"),
    # Jason rewards Kit; he would reward Diana too, but one award per giver per round.
    c.Award(giver="Richard", receiver="Bob", conflict=FIGHT),
    c.Close(conflict=FIGHT),
]

BAR_FIGHT: list[Command] = SETUP + OPENING + ROUND_1 + ROUND_2 + ROUND_3 + MAIN_ENDING


def demo() -> Demo:
    return Demo(
        commands=BAR_FIGHT,
        conflict=FIGHT,
        name="bar-fight",
        about="the rulebook's bar fight (chapter 4, extended conflict, main ending)",
        shown=frozenset(
            {
                "improv.round_revealed",
                "improv.conflict_closed",
                "improv.conflict_opened",
                "improv.victory_card_given",
                "improv.token_awarded",
                "improv.session_started",
            }
        ),
    )
