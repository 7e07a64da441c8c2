"""The Ace of Cards on the web page: its panels, built from the views as `viewer` sees them.

Each open conflict (and the one ended last, with its outcome): the party with HP, MP and
each Ace's cards (a hand is face up for its own player only, card backs for everyone else,
as `show` filters it; the discard pile is face up for all), the enemies, what happened in
order, and what the table still waits for. Then the viewer's own hands (the `hand` read,
which refuses what is not the viewer's) and the characters. The actions are in
`page_actions`.
"""

from __future__ import annotations

from typing import Any

from tablelog.errors import TablelogError
from tablelog.projections.page import Card, Grid, Panel, role_of, slug
from tablelog.rules.table import GM
from tablelog.rulesets.ace_of_cards.rules.cards import SUITS, is_joker, suit_of, value_of
from tablelog.rulesets.ace_of_cards.rules.state import SKILL_TITLES as _SKILLS
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Conflict
from tablelog.rulesets.ace_of_cards.views import awaiting, story, text, views
from tablelog.rulesets.ace_of_cards.views.visibility import owner

_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def face(card: str, *, label: str = "", mine: bool = False) -> Card:
    """A face-up card: `3♣`, `Joker`; diamonds and hearts are red."""
    if is_joker(card):
        return Card(face="Joker", label=label, mine=mine)
    suit = suit_of(card)
    return Card(
        face=f"{value_of(card)}{_SYMBOLS[suit]}",
        label=label,
        mine=mine,
        tone="red" if suit in ("D", "H") else "",
    )


def pretty(card: str) -> str:
    return face(card).face or card


def _hand_cell(name: str, cards: dict[str, Any] | None) -> str | list[Card]:
    if cards is None:
        return "—"
    if cards["hand"] is not None:  # the viewer's own Ace: face up
        return [face(card, label=f"{name}'s hand", mine=True) for card in cards["hand"]]
    return [Card(face=None, label=f"{name}'s hand") for _ in range(cards["hand_size"])] or "—"


def _conflict_panel(state: AceState, conflict: Conflict, viewer: str) -> Panel:
    shown = views.show(state, conflict.key, viewer)
    names = {key: state.characters[key].display for key in conflict.party}
    rows: list[list[str | list[Card]]] = []
    for key in conflict.party:
        who = views.character_view(state, state.characters[key], viewer)
        cards = shown["aces"].get(key)
        rows.append(
            [
                f"{who['name']} ({'GM' if owner(state, key) == GM else who['player']})",
                f"{who['hp']}/{who['max_hp']}",
                f"{who['mp']}/{who['max_mp']}",
                "—" if cards is None else str(cards["deck"]),
                _hand_cell(who["name"], cards),
                [face(card, label=f"{who['name']}'s discard pile") for card in cards["discard"]]
                if cards and cards["discard"]
                else "—",
            ]
        )
    facts = [
        ("status", shown["status"]),
        ("party", ", ".join(names.values())),
        ("enemies", ", ".join(shown["enemies"]) or "none"),
        ("actions so far", str(len(shown["actions"]))),
    ]
    if shown["actions"]:
        last = shown["actions"][-1]
        seen = "" if last["visible"] else " (unseen)"
        facts.append(("last action", f"{last['id']}, {last['actor']}{seen}: {last['text']}"))
    # The events in order, in `show`'s words (the hands are in the grid already), each
    # set's and Check's outcome among them.
    lines = text.conflict_lines({**shown, "aces": {}})[1:]
    return Panel(
        key=f"conflict-{conflict.key}",
        title=f"Conflict {conflict.key}" + ("" if conflict.status == "open" else " (ended)"),
        facts=facts,
        grid=Grid(header=["Character", "HP", "MP", "Deck", "Hand", "Discard"], rows=rows),
        lines=lines,
        waiting=awaiting.waiting_line(state, conflict),
        conflict=conflict.key,
        result=story.result(state, shown, viewer),
        story=story.story(state, shown),
        closed=conflict.status != "open",
    )


def _hand_panels(state: AceState, viewer: str) -> list[Panel]:
    """The viewer's own Aces' hands: the `hand` read refuses any other, so nothing of another
    player's can reach this panel."""
    if role_of(viewer) == "observer":
        return []
    found = []
    for key, who in sorted(state.characters.items()):
        if who.pile is None or owner(state, key) != viewer:
            continue
        try:
            hand = views.hand(state, key, viewer)
        except TablelogError:
            continue
        found.append(
            Panel(
                key=f"hand-{slug(key)}",
                title=f"{who.display}'s hand (conflict {hand['conflict']})",
                cards=[face(card, label="in your hand", mine=True) for card in hand["cards"]],
                facts=[
                    ("MP", f"{who.mp}/{who.max_mp}"),
                    ("deck", f"{hand['deck']} cards"),
                    ("discard pile", " ".join(pretty(c) for c in hand["discard"]) or "empty"),
                    *(
                        (f"{SUITS[suit[0].upper()]}", kind)
                        for suit, kind in sorted((who.suit_types or {}).items())
                    ),
                ],
            )
        )
    return found


def _characters(state: AceState, viewer: str) -> Panel:
    rows: list[list[str | list[Card]]] = []
    for key, who in sorted(state.characters.items()):
        view = views.character_view(state, who, viewer)
        skills = ", ".join(f"{_SKILLS[s]} {sl}" for s, sl in view["skills"].items() if sl)
        rows.append(
            [
                view["name"],
                "GM" if owner(state, key) == GM else view["player"],
                f"{view['hp']}/{view['max_hp']}",
                f"{view['mp']}/{view['max_mp']}",
                ("Ace" + (f", {skills}" if skills else "")) if view["ace"] else "—",
                view["conflict"] or "—",
            ]
        )
    return Panel(
        key="characters",
        title="Characters",
        grid=Grid(header=["Character", "Player", "HP", "MP", "Class", "In conflict"], rows=rows)
        if rows
        else None,
        lines=[] if rows else ["No character yet: the GM creates them (and their decks)."],
    )


def panels(state: AceState, viewer: str | None) -> list[Panel]:
    seen = viewer or GM
    found = [_conflict_panel(state, conflict, seen) for conflict in state.open_conflicts()]
    # The latest conflict to have ended (the last opened of those: the state keeps no end
    # order) keeps its outcome, audit, replay and posts on the page.
    ended = [c for c in state.conflicts.values() if c.status != "open"]
    if ended:
        found.append(_conflict_panel(state, ended[-1], seen))
    found += _hand_panels(state, seen)
    found.append(_characters(state, seen))
    return found
