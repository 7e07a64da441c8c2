"""The story of a Night Terrors conflict on the page, in plain words, for one viewer.

Raises and answers are played face up, so every card of an exchange is public; a hand is
never told (its cards reach the table only as a raise or an answer). The narrations (a
raise's, an answer's, the winner's of the outcome) are quotes with who said them.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.page import Quote
from tablelog.rulesets.night_terrors.rules.cards import SUIT_NAMES
from tablelog.rulesets.night_terrors.rules.state import Conflict, NightTerrorsState


def mine(state: NightTerrorsState, viewer: str) -> set[str]:
    """The characters `viewer` plays (the GM's NPCs for the GM)."""
    player = state.gm if viewer == "gm" else viewer
    return {key for key, c in state.characters.items() if c.player == player}


def _name(state: NightTerrorsState, key: str, own: set[str], *, start: bool = False) -> str:
    if key in own and len(own) == 1:
        return "You" if start else "you"
    found = state.characters.get(key)
    return found.display if found is not None else key


def story(state: NightTerrorsState, conflict: Conflict, shown: dict[str, Any]) -> list[str]:
    """What happened, oldest first: the setup, each exchange's raise and its steps (the
    view's own sentences), the outcome."""
    names = {key: c.display for key, c in state.characters.items()}
    trump = SUIT_NAMES[conflict.trump]
    stakes = f" over {shown['stakes']}" if shown.get("stakes") else ""
    told = [
        f"{names.get(shown['aggressor'], shown['aggressor'])} started a {shown['type']} "
        f"conflict{stakes}; trump {trump}."
    ]
    for number, exchange in enumerate(shown["exchanges"], start=1):
        raised = exchange["raise"]
        cards = " + ".join(raised["cards"])
        told.append(
            f"Exchange {number}: {names.get(raised['raiser'], raised['raiser'])} raised "
            f"{raised['value']} ({cards})."
        )
        told += [f"{s[0].upper()}{s[1:]}." for s in exchange["steps"] if s]
    if shown["status"] == "ended":
        who = ", ".join(names.get(w, w) for w in shown["winners"]) or "nobody"
        told.append(f"The conflict ended: {who} decides the stakes ({shown['rule']}).")
    return told


def quotes(state: NightTerrorsState, shown: dict[str, Any]) -> list[Quote]:
    names = {key: c.display for key, c in state.characters.items()}
    found = []
    for number, exchange in enumerate(shown["exchanges"], start=1):
        raised = exchange["raise"]
        if raised["narration"]:
            who = names.get(raised["raiser"], raised["raiser"])
            found.append(Quote(who=who, text=raised["narration"], when=f"raise {number}"))
        for answer in exchange["answers"]:
            if answer.get("narration"):
                who = names.get(answer["answerer"], answer["answerer"])
                found.append(Quote(who=who, text=answer["narration"], when=f"answer {number}"))
    for key, text in shown["narrations"]:
        found.append(Quote(who=names.get(key, key), text=text, when="the outcome"))
    return found


def result(state: NightTerrorsState, shown: dict[str, Any], viewer: str) -> str:
    """The outcome for `viewer`: who decides the stakes, or the latest answer."""
    own = mine(state, viewer)
    if shown["status"] == "ended":
        winners = shown["winners"]
        if not winners:
            return "Nobody won the stakes"
        said = ", ".join(_name(state, w, own) for w in winners)
        said = said[0].upper() + said[1:]
        return f"{said} won the stakes ({shown['rule']})"
    for exchange in reversed(shown["exchanges"]):
        raised = exchange["raise"]
        raiser = _name(state, raised["raiser"], own)
        for answer in reversed(exchange["answers"]):
            who = _name(state, answer["answerer"], own, start=True)
            outcome = str(answer["outcome"]).replace("_", " ")
            whose = "your" if raiser == "you" else f"{raiser}'s"
            return (
                f"{who} answered {whose} raise of {raised['value']} with {answer['total']} "
                f"({outcome})"
            )
        return f"{_name(state, raised['raiser'], own, start=True)} raised {raised['value']}"
    return ""
