"""Bid & Challenge's panels on the web page, built from its views as `viewer` sees them.

Each open scene (and the scene ended last, while the state still holds it whole): its
premise, seating, round, phase and the challenge offer; each seat's cards in Play with their
dice values and rolls; the scene's rounds in words; and who the round waits for. Then the
viewer's own characters' decks, every character's zones and Flow, the universe deck and the
details defined. Nothing in this ruleset is hidden (cards go into Play face up, decks are the
characters' own sheets, every roll is public), so no card here is a card back: the views say
so, and the panels show what the views give. The actions open now are in `page_actions`.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.page import Card, Grid, Panel, role_of, slug
from tablelog.rules.table import GM
from tablelog.rulesets.bid_and_challenge.rules import turns
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Scene
from tablelog.rulesets.bid_and_challenge.views import awaiting, story, text, views

_PHASE = {
    "bid": "bid or pass",
    "challenge": "the challenge offer",
    "push": "push (optional), then the roll",
    "roll": "the roll",
    "done": "resolved",
    "ended": "ended",
}


def panels(state: BidAndChallengeState, viewer: str | None) -> list[Panel]:
    seen = viewer or GM
    whole = views.state_view(state, seen)
    mine = owned(state, seen)
    found = [
        _scene_panel(state, scene, seen, whole, mine)
        for scene in state.scenes.values()
        if scene.status == "open"
    ]
    # The scene ended last stays on the page with its outcome, audit and posts, as long as
    # the state holds its rounds (another scene's start compacts it).
    last = _ended_last(state)
    if last is not None:
        found.append(_scene_panel(state, last, seen, whole, mine))
    found += [_deck_panel(key, whole["characters"][key]) for key in mine]
    found.append(_characters_panel(whole))
    found.append(_universe_panel(whole["universe"]))
    if whole["details"]:
        found.append(
            Panel(
                key="details",
                title="Details defined",
                grid=Grid(
                    header=["Detail", "Text", "By", "Scene"],
                    rows=[[k, d["text"], d["by"], d["scene"]] for k, d in whole["details"].items()],
                ),
            )
        )
    return found


def owned(state: BidAndChallengeState, viewer: str) -> list[str]:
    """The characters `viewer` plays (the GM: the ones registered to the GM), living or dead."""
    role = role_of(viewer)
    if role == "observer":
        return []
    players = {GM, state.gm} if role == "gm" else {viewer}
    return [key for key, who in sorted(state.characters.items()) if who.player in players]


def _ended_last(state: BidAndChallengeState) -> Scene | None:
    ended = [s for s in state.scenes.values() if s.status == "ended" and not s.compacted]
    return max(ended, key=lambda s: s.ended_at) if ended else None


def _player(state: BidAndChallengeState, character: str) -> str:
    player = state.characters[character].player
    return "GM" if player in (GM, state.gm) else player


def _named(state: BidAndChallengeState, character: str) -> str:
    return f"{state.characters[character].name} ({_player(state, character)})"


def _scene_panel(
    state: BidAndChallengeState,
    scene: Scene,
    viewer: str,
    whole: dict[str, Any],
    mine: list[str],
) -> Panel:
    shown = views.show(state, scene.key, viewer)
    facts = [("premise", shown["premise"])] if shown["premise"] else []
    facts += [
        ("seating (clockwise)", " → ".join(state.characters[k].name for k in scene.seating)),
        ("round", str(shown["round"])),
        ("phase", _PHASE.get(shown["phase"], shown["phase"])),
    ]
    if shown["active"]:
        facts.append(("active", _named(state, shown["active"])))
    offer = shown["offer"]
    if offer is not None:
        facts.append(("challenge offer", f"{offer['asked']} ({offer['at']} of {offer['of']})"))
    able = len(scene.seating)
    if turns.passed_over(state):  # only the seats that can be active count
        able = len(turns.with_deck(state, scene.seating))
    facts.append(("passes in a row", f"{shown['passes']} of {able}"))
    due = shown["narration_due"]
    if due is not None:
        facts.append(("narration", f"{due['winner']} may narrate round {due['round']}"))
    if shown["ended"]:
        facts.append(("ended", shown["ended"]))
    current = shown["rounds"][-1] if shown["rounds"] and scene.status == "open" else None
    return Panel(
        key=f"conflict-{slug(scene.key)}",
        title=f"Scene {scene.key}" + (" (ended)" if scene.status == "ended" else ""),
        facts=facts,
        grid=_seats(state, scene, current, whole, mine),
        lines=text.show_lines(state, shown),
        waiting=awaiting.waiting_line(state, scene),
        conflict=scene.key,
        result=story.result(state, scene, mine),
        story=story.story(state, scene, mine),
        quotes=story.quotes(state, scene),
        closed=scene.status == "ended",
    )


def _card(holder: dict[str, Any], key: str, **more: Any) -> Card:
    card = holder["cards"].get(key)
    face = f"{card['name']} {card['value']}" if card is not None else key
    return Card(face=face, **more)


def _seats(
    state: BidAndChallengeState,
    scene: Scene,
    current: dict[str, Any] | None,
    whole: dict[str, Any],
    mine: list[str],
) -> Grid:
    """One row per seat: its player, Flow and Deck; while the scene is open, what it does in
    the round under way, the cards it has in Play there (universe cards a challenger
    committed among them) and its roll. Five columns at most: it is read on phones too."""
    rows: list[list[str | list[Card]]] = []
    for key in scene.seating:
        who = whole["characters"][key]
        row: list[str | list[Card]] = [
            _named(state, key),
            f"{who['flow']} / {len(who['deck'])}",
        ]
        if current is not None:
            doing, committed, rolled = _seat_round(key, current, whole, mine)
            row += [doing, committed or "—", rolled]
        rows.append(row)
    header = ["Seat", "Flow / Deck"]
    return Grid(header=header + (["This round", "In Play", "Roll"] if current else []), rows=rows)


def _seat_round(
    key: str, rnd: dict[str, Any], whole: dict[str, Any], mine: list[str]
) -> tuple[str, list[Card], str]:
    characters, universe = whole["characters"], whole["universe"]
    bid, challenge, push = rnd["bid"], rnd["challenge"], rnd["push"]
    own = key in mine
    cards: list[Card] = []
    side = ""
    if key == rnd["active"]:
        side = "active"
        doing = "active: to bid or pass"
        if rnd["passed"]:
            doing = "passed"
        if bid is not None:
            doing = "bids"
            pushed = push["cards"] if push else []
            cards = [
                _card(characters[key], k, label=f"{key}'s bid", mine=own) for k in bid["cards"]
            ] + [
                _card(characters[key], k, label=f"{key}'s push", mine=own, note="pushed")
                for k in pushed
            ]
            if push:
                doing = "bids and pushes"
    elif challenge is not None and challenge["challenger"] == key:
        side = "challenger"
        doing = "challenges"
        for one in challenge["cards"]:
            holder = characters[key] if one["source"] == "own" else universe
            label = f"{key}'s challenge" + (" (universe)" if one["source"] == "universe" else "")
            cards.append(_card(holder, one["card"], label=label, mine=own, note=_source(one)))
    elif key in rnd["declined"]:
        doing = "passed the challenge"
    elif rnd["phase"] == "challenge" and key in rnd["offers"]:
        at = rnd["offers"].index(key) - len(rnd["declined"])
        doing = "asked to challenge" if at == 0 else "to be asked"
    else:
        doing = "—" if bid is None else "not asked"
    roll = rnd["rolls"].get(side) if side else None
    return doing, cards, _roll_words(roll)


def _source(committed: dict[str, Any]) -> str:
    return "universe card" if committed["source"] == "universe" else ""


def _roll_words(roll: dict[str, Any] | None) -> str:
    if roll is None:
        return "—"
    faces = [str(f) for r in roll["rolls"] for f in r["faces"]]
    mod = sum(r["mod"] for r in roll["rolls"])
    return f"{' '.join(faces) or 'no dice'} {'+' if mod >= 0 else '-'} {abs(mod)} = {roll['total']}"


def _deck_panel(key: str, who: dict[str, Any]) -> Panel:
    """A character of the viewer's own: its Deck as cards to choose from, Play and Discard."""
    facts = [
        ("Flow", str(who["flow"])),
        ("Play", _names(who, "play")),
        ("Discard", _names(who, "discard")),
    ]
    if who["dead"]:
        facts.append(("dead", "yes"))
    return Panel(
        key=f"deck-{slug(key)}",
        title=f"Your deck: {who['name']}",
        facts=facts,
        cards=[_card(who, k, label="in your Deck", mine=True) for k in who["deck"]],
        lines=[] if who["deck"] else [f"{who['name']}'s Deck is empty: it may still challenge."],
    )


def _names(holder: dict[str, Any], zone: str) -> str:
    return (
        ", ".join(
            f"{holder['cards'][k]['name']} {holder['cards'][k]['value']}" for k in holder[zone]
        )
        or "—"
    )


def _characters_panel(whole: dict[str, Any]) -> Panel:
    """Every character's zones. Four columns, the player and Flow beside the name: six
    were cut off on a 360-px phone (the Play and Discard columns out of sight)."""
    return Panel(
        key="characters",
        title="Characters",
        grid=Grid(
            header=["Character", "Deck", "Play", "Discard"],
            rows=[
                [
                    f"{who['name']} ({who['player']}), Flow {who['flow']}"
                    + (", dead" if who["dead"] else ""),
                    _names(who, "deck"),
                    _names(who, "play"),
                    _names(who, "discard"),
                ]
                for who in whole["characters"].values()
            ],
        ),
    )


def _universe_panel(universe: dict[str, Any]) -> Panel:
    return Panel(
        key="universe",
        title="Universe deck",
        facts=[("Deck", _names(universe, "deck")), ("Play", _names(universe, "play"))],
    )
