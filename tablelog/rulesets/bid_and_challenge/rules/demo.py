"""Bid & Challenge's demo: rules/bid-and-challenge.md's BC-1, BC-2 and BC-3 as one scene, with
recorded dice so the faces are the vectors': Anna forces the gate and loses to Ben's push-back
(QuickWits, pushed, goes to her Discard) and narrates; Ben strikes Anna's Sword, wins the tie
and narrates; then Anna and Ben pass in a row (Cara's Deck is empty: the turn passes over her)
and the scene ends."""

from __future__ import annotations

from tablelog.rules.common import Command, StartSession
from tablelog.rules.contract import Demo
from tablelog.rulesets.bid_and_challenge.rules import commands as c


def cards(*specs: str) -> list[c.CardSpec]:
    """`"Brawn:1d6+2"` -> CardSpec(name="Brawn", value="1d6+2")."""
    return [c.CardSpec(name=s.split(":")[0], value=s.split(":")[1]) for s in specs]


SCENE = "s1"

DECKS: list[Command] = [
    c.RegisterDeck(
        player="anna",
        character="Anna",
        flow=3,
        cards=cards("Brawn:1d6+2", "Sword:1d6+1", "QuickWits:1d6", "Persuade:1d6+1", "Body:1d6"),
    ),
    c.RegisterDeck(
        player="ben", character="Ben", flow=2, cards=cards("Dodge:1d6+1", "Sneak:1d6", "Mind:1d6")
    ),
    c.RegisterDeck(player="cara", character="Cara", flow=2, cards=[]),
    c.AddUniverseCard(card=cards("Storm:1d6")[0]),
    c.AddUniverseCard(card=cards("Crowd:1d6+1")[0]),
]

PLAY: list[Command] = [
    *DECKS,
    StartSession(),
    c.OpenScene(
        seating=["Anna", "Ben", "Cara"],
        requested_by="Anna",
        premise="The gate of the old keep",
        conflict=SCENE,
    ),
    # BC-1
    c.Bid(
        conflict=SCENE,
        active="Anna",
        description="I force the gate",
        cards=["Brawn", "Sword"],
        power=c.PowerSpec(type="detail", detail="gate-open", text="The gate stands open"),
    ),
    c.Pass(conflict=SCENE, player="Cara"),
    c.Challenge(
        conflict=SCENE,
        challenger="Ben",
        description="The storm slams the gate on Anna",
        cards=["Dodge"],
        universe=["Storm"],
    ),
    c.Push(
        conflict=SCENE, active="Anna", description="I wedge it with my wits", cards=["QuickWits"]
    ),
    c.Roll(conflict=SCENE, active_faces=[4, 2, 1], challenger_faces=[5, 6]),
    c.Narrate(
        conflict=SCENE, player="Ben", text="The gate slams shut; Anna's wits are left in the mud"
    ),
    # BC-2
    c.Bid(
        conflict=SCENE,
        active="Ben",
        description="I knock Anna's sword into the moat",
        cards=["Sneak"],
        power=c.PowerSpec(type="strike", target="Anna", cards=["Sword"]),
    ),
    c.Challenge(
        conflict=SCENE, challenger="Anna", description="I talk him down", cards=["Persuade"]
    ),
    c.Roll(conflict=SCENE, active_faces=[6], challenger_faces=[5]),
    c.Narrate(conflict=SCENE, player="Ben", text="Anna's sword sinks into the moat"),
    # BC-3 (Cara's Deck is empty: the turn passes over her)
    c.Pass(conflict=SCENE, player="Anna"),
    c.Pass(conflict=SCENE, player="Ben"),
]


def demo() -> Demo:
    return Demo(
        commands=PLAY,
        conflict=SCENE,
        name="gate",
        options={"dice": "recorded"},
        about="rules/bid-and-challenge.md's BC-1, BC-2 and BC-3, played as one scene",
        shown=frozenset(
            {
                "bc.scene_started",
                "bc.round_started",
                "bc.bid_made",
                "bc.passed",
                "bc.challenge_declined",
                "bc.challenge_made",
                "bc.pushed",
                "bc.dice_rolled",
                "bc.round_resolved",
                "bc.card_moved",
                "bc.scene_ended",
                "bc.narrated",
            }
        ),
    )
