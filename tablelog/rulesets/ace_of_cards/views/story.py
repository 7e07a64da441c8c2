"""The story of an Ace of Cards conflict on the page, in plain words, for one viewer.

Told from the conflict's `show` for that viewer (the same filter as every read): each
action as the GM described it (an unseen one is not told to those who may not see it), each
set of Magic Cards and each Check with the rule that decided it, in the order they came.
A hand never appears: a set's cards are face up once played.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.story import beat, namer
from tablelog.rulesets.ace_of_cards.rules.state import AceState
from tablelog.rulesets.ace_of_cards.views.visibility import owner


def _display(state: AceState, key: str) -> str:
    found = state.characters.get(key)
    return found.display if found is not None else key


def mine(state: AceState, viewer: str, party: list[str]) -> list[str]:
    return [key for key in party if owner(state, key) == viewer]


def story(state: AceState, shown: dict[str, Any]) -> list[str]:
    told = []
    sets = shown["sets"]
    actions = {a["id"]: a for a in shown["actions"]}
    for kind, key in shown["order"]:
        if kind == "action" and key in actions:
            action = actions[key]
            if action["visible"]:
                told.append(f"{_display(state, action['actor'])} {action['text']}.")
        elif kind == "set" and key.isdigit() and int(key) < len(sets):
            s = sets[int(key)]
            what = s["name"] or "no effect"
            targets = ", ".join(_display(state, t) for t in s["targets"])
            amount = f": {s['amount']} {s['damage_type'] or ''} to {targets}" if targets else ""
            told.append(
                f"{_display(state, s['character'])} spent {s['mp']} MP on "
                f"{' '.join(s['cards'])}, {what}{amount}.".replace("  ", " ")
            )
        elif kind == "check" and key in shown["checks"]:
            check = shown["checks"][key]
            if check.get("rule"):
                told.append(
                    f"{_display(state, check['character'])}'s {check['kind']} Check: "
                    f"{check['rule']}."
                )
    if shown["status"] != "open":
        told.append("The conflict ended.")
    return told


def result(state: AceState, shown: dict[str, Any], viewer: str) -> str:
    name = namer(lambda k: _display(state, k), mine(state, viewer, shown["party"]))
    pairs = list(dict.fromkeys((w, lo) for w, lo in shown["beats"]))
    return "; ".join(beat(name, w, lo) for w, lo in pairs)
