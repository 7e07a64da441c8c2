"""Night Terrors' panels on the web page, built from the views as `viewer` sees them.

Each open conflict (and the one that ended last, for its outcome and narration): its trump,
stakes and exchange, every participant's pools, the cards of the exchange under way (raises
and answers are played face up, so they are public), each hand as card backs except the
viewer's own, and who the table waits for. Then the viewer's own hands and the characters.
Hands come from `state_view`, the same filter as the service's reads: a hand the viewer may
not see is None there, and only its size reaches this module.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.page import Card, Grid, Panel
from tablelog.rules.table import GM
from tablelog.rulesets.night_terrors.rules.cards import SUIT_NAMES, deciders, n_cards, suit
from tablelog.rulesets.night_terrors.rules.state import Conflict, NightTerrorsState
from tablelog.rulesets.night_terrors.views import awaiting, story, text, views

_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_POOLS = ("blood", "sweat", "tears")
_POOLS_HEADER = "Blood/ Sweat/ Tears"


def _pools(ch: dict[str, Any]) -> str:
    return "/".join(str(ch[pool]) for pool in _POOLS)


def pretty(code: str) -> str:
    """`10H` -> `10♥`: how a card reads on the page."""
    return code[:-1] + _SYMBOLS[suit(code)]


def face(code: str, *, label: str = "", mine: bool = False, **more: Any) -> Card:
    tone = "red" if suit(code) in ("H", "D") else ""
    return Card(face=pretty(code), label=label, mine=mine, tone=tone, **more)


def own_cards(ch: dict[str, Any], label: str) -> list[Card]:
    """A hand the view gives (the viewer's own), face up, its held reversal card marked."""
    held = ch["held"]
    return [
        face(card, label=label, mine=True, note="held reversal card" if card == held else "")
        for card in ch["hand"] or []
    ]


def _hand_cell(ch: dict[str, Any], *, above: bool) -> str | list[Card]:
    """A hand in the conflict's table: another's as one card back with its size (the view
    gives only the size; one back keeps the table narrow enough for a phone), the viewer's
    own by its size, its cards being face up above the table."""
    size = n_cards(ch["hand_size"])
    if ch["hand"] is not None:
        return f"{size} (yours, above)" if above and ch["hand"] else size
    if not ch["hand_size"]:
        return "empty"
    return [Card(face=None, label=f"{ch['name']}'s hand", note=size)]


def _debts(ch: dict[str, Any]) -> list[str]:
    """What a character still owes the table: cards to draw or discard, costs to pay."""
    owed = [f"draws {n_cards(ch['draw'])}"] if ch["draw"] else []
    if ch["discard"]:
        owed.append(f"discards {n_cards(ch['discard'])}")
    owed += [f"owes {c['amount']} ({c['cause'].replace('_', ' ')})" for c in ch["costs"]]
    return owed


def _status(key: str, shown: dict[str, Any], ch: dict[str, Any]) -> str:
    if key in shown["left"]:
        return f"out ({shown['left'][key].replace('_', ' ')})"
    if key in shown["winners"]:
        return "wins"
    current = shown["raise"]
    doing = []
    if current is not None and current["raiser"] == key and current["owing"]:
        doing.append("raised")
    if current is not None and key in current["owing"]:
        doing.append("to answer")
    if shown["next_raiser"] == key:
        doing.append("raises next")
    return ", ".join(doing + _debts(ch)) or ("in" if shown["status"] == "open" else "—")


def _played(key: str, shown: dict[str, Any]) -> str | list[Card]:
    """The cards `key` put down in the exchange under way (face up: public), with totals."""
    if shown["status"] != "open" or not shown["exchanges"]:
        return "—"
    exchange = shown["exchanges"][-1]
    raised = exchange["raise"]
    if raised["raiser"] == key:
        last = len(raised["cards"]) - 1
        return [
            face(c, label=f"{key}'s raise", total=raised["value"] if i == last else None)
            for i, c in enumerate(raised["cards"])
        ]
    for answer in exchange["answers"]:
        if answer["answerer"] == key:
            last = len(answer["cards"]) - 1
            return [
                face(
                    c,
                    label=f"{key}'s answer",
                    total=answer["total"] if i == last else None,
                    note=answer["outcome"].replace("_", " ") if i == last else "",
                )
                for i, c in enumerate(answer["cards"])
            ] or f"push with no cards ({answer['total']})"
    return "—"


def conflict_panel(
    state: NightTerrorsState, conflict: Conflict, viewer: str, whole: dict[str, Any]
) -> Panel:
    shown = views.show_view(state, conflict, viewer)
    characters = whole["characters"]
    facts = [
        ("type", f"{shown['type']}, trump {SUIT_NAMES[shown['trump']]}"),
        *((label, shown[label]) for label in ("stakes", "place", "approach") if shown[label]),
        ("aggressor", characters[shown["aggressor"]]["name"]),
        ("exchange", str(shown["exchange"] or "none yet")),
    ]
    current = shown["raise"]
    if current is not None:
        trump = current["trump_value"]
        facts.append(
            (
                "raise",
                f"{current['value']} by {characters[current['raiser']]['name']}"
                + (f", trump value {trump}" if trump is not None else ", no trump")
                + f" (trump {SUIT_NAMES[current['trump_at_raise']]} when made)",
            )
        )
    if shown["status"] == "ended":
        facts.append(("outcome", f"{deciders(shown['winners'])} the stakes ({shown['rule']})"))
    live = shown["status"] == "open"
    # The viewer's own hands in this conflict, face up above the table, by the forms.
    mine = [
        card
        for key in shown["in"]
        if live and characters[key]["hand"] is not None
        for card in own_cards(characters[key], f"in {characters[key]['name']}'s hand")
    ]
    rows: list[list[str | list[Card]]] = []
    for key in shown["participants"]:
        ch = characters[key]
        rows.append(
            [
                f"{ch['name']} ({pretty(ch['card'])}, {_player(state, ch)})",
                _pools(ch),
                _hand_cell(ch, above=live),
                _played(key, shown),
                _status(key, shown, ch),
            ]
        )
    # Few columns, so that the table fits a phone: the pools in one, the player by the name.
    header = ["Character", _POOLS_HEADER, "Hand", "This exchange", "Status"]
    ended = " (ended)" if shown["status"] == "ended" else ""
    return Panel(
        key=f"conflict-{conflict.key}",
        title=f"Conflict {conflict.key}{ended}",
        facts=facts,
        cards=mine,
        grid=Grid(header=header, rows=rows),
        lines=text.show_lines(shown, text.spellings(state)),
        waiting=awaiting.waiting_line(state, conflict),
        conflict=conflict.key,
        result=story.result(state, shown, viewer),
        story=story.story(state, conflict, shown),
        quotes=story.quotes(state, shown),
        closed=shown["status"] == "ended",
    )


def _player(state: NightTerrorsState, ch: dict[str, Any]) -> str:
    return "GM" if ch["player"] == state.gm else str(ch["player"])


def last_ended(state: NightTerrorsState) -> Conflict | None:
    """The conflict that ended last: still whole in the state (cheap to show), until the
    next one ends."""
    whole = [c for c in state.conflicts.values() if c.status == "ended" and c.kept_at is None]
    return whole[-1] if whole else None


def panels(state: NightTerrorsState, viewer: str | None) -> list[Panel]:
    seen = viewer or GM
    # The characters as `state_view` gives them (the same filter), without its summary of
    # every conflict the campaign ever had: a page stays cheap on a long campaign.
    characters = {key: views.character_view(state, c, seen) for key, c in state.characters.items()}
    whole = {"characters": characters, "deck": len(state.deck), "set_aside": len(state.set_aside)}
    found = [conflict_panel(state, c, seen, whole) for c in state.open_conflicts()]
    last = last_ended(state)
    if last is not None:
        found.append(conflict_panel(state, last, seen, whole))
    playing = {key for c in state.open_conflicts() for key in c.still_in}
    for key, ch in characters.items():
        if ch["hand"] is None or key in playing:
            continue  # not the viewer's to see, or shown in its conflict already
        facts = [("deck", str(whole["deck"]))]
        if ch["held"]:
            facts.append(("held reversal card", pretty(ch["held"])))
        facts += [("owes", debt) for debt in _debts(ch)]
        found.append(
            Panel(
                key=f"hand-{key}",
                title=f"{ch['name']}'s hand",
                cards=own_cards(ch, f"in {ch['name']}'s hand"),
                facts=facts,
                lines=[] if ch["hand"] else ["no cards in hand"],
            )
        )
    found.append(
        Panel(
            key="characters",
            title="Characters",
            facts=[("deck", str(whole["deck"])), ("set aside", str(whole["set_aside"]))],
            grid=Grid(
                header=["Character", _POOLS_HEADER, "Hand", "State"],
                rows=[
                    [
                        f"{ch['name']} ({pretty(ch['card'])}, {_player(state, ch)})",
                        _pools(ch),
                        n_cards(ch["hand_size"]),
                        ", ".join(ch["emptied"] + _debts(ch)) or "—",
                    ]
                    for ch in characters.values()
                ],
            ),
        )
    )
    return found
