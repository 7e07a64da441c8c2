"""Improv's story-token actions outside the cards on the web page: awarding a token, and
spending one on a redraw (managed decks) or a bribe for narration (page_actions.py offers
them where the viewer's seat may)."""

from __future__ import annotations

from tablelog.projections.page import Action, Field
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.state import ImprovState


def spends(state: ImprovState, player: str) -> list[Action]:
    """A token spent outside the cards: a redraw (managed decks), or a bribe for narration."""
    found = []
    hand = state.hands.get(player, []) if state.managed else []
    if hand:
        found.append(
            Action(
                command=c.Redraw,
                title="Spend a token to redraw cards",
                fields=[Field(name="cards", label="cards to redraw", kind="list", choices=hand)],
                fixed={"player": player},
                # No preview: a redraw's outcome is the deck's order, which nobody may see.
                confirm="Spend a story-token to redraw {cards}? This cannot be undone.",
                probe=c.Redraw(player=player, cards=hand[:1]),
            )
        )
    receivers = sorted(p for p in state.players if p != player)
    if receivers:
        found.append(
            Action(
                command=c.Bribe,
                title="Pass a token for narration",
                fields=[Field(name="receiver", label="to", kind="choice", choices=receivers)],
                fixed={"giver": player},
                confirm="Pass a story-token to {receiver} for narration? This cannot be undone.",
                probe=c.Bribe(giver=player, receiver=receivers[0]),
            )
        )
    return found


def award(conflict: str | None, player: str, others: list[str]) -> Action:
    return Action(
        command=c.Award,
        title="Award a story-token",
        fields=[Field(name="receiver", label="to", kind="choice", choices=others)],
        fixed={"giver": player, **({"conflict": conflict} if conflict else {})},
        probe=c.Award(giver=player, receiver=others[0], conflict=conflict),
        conflict=conflict,
    )
