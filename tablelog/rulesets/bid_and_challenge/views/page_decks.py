"""Bid & Challenge's decks on the web page: a major character's deck and Flow, registered by
the GM (for any player, or its own with `gm`) or by a player for itself.

The cards go one per line as the CLI takes them (`Quick Wits: 1d6+2`, a name of several
words kept whole), the starting deck of a 6d6 character filled in as an example to edit.
No probe: a new character's name is the person's to choose, and the rules say in one
sentence what a deck may not be when it is sent."""

from __future__ import annotations

from tablelog.projections.page import Action, Field
from tablelog.rules.table import GM
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState

FLOW = 3  # what the form offers first: a starting character's Flow
EXAMPLE = "Brawn: 1d6+2\nQuick Wits: 1d6\nSword: 1d6+1"


def _deck_fields() -> list[Field]:
    return [
        Field(name="character", label="the major character's name"),
        Field(name="flow", label="Flow (the character card's)", kind="number", default=FLOW),
        Field(
            name="cards",
            label="the cards in Deck: name, then its dice value Nd6+M",
            kind="lines",
            columns=["name", "value"],
            default=EXAMPLE,
        ),
    ]


def deck_actions(state: BidAndChallengeState, viewer: str, *, gm: bool) -> list[Action]:
    """The GM's form (every time), or a player's own while it has no living character."""
    if gm:
        players = sorted(p for p in state.players if p not in (GM, state.gm))
        return [
            Action(
                command=c.RegisterDeck,
                title="Register a character's deck",
                fields=[
                    Field(
                        name="player",
                        label="player (gm for the GM's own)",
                        choices=[*players, GM],
                    ),
                    *_deck_fields(),
                ],
                gm=True,
            )
        ]
    if any(ch.player == viewer and not ch.dead for ch in state.characters.values()):
        return []
    return [
        Action(
            command=c.RegisterDeck,
            title="Register your character's deck",
            fields=_deck_fields(),
            fixed={"player": viewer},
        )
    ]
