"""The story of a Beer Run conflict on the page, in plain words, for one viewer.

Told from the conflict's `show` for that viewer (the same filter as every read): the goals,
each comparison of rolled dice, what was ceded and achieved, the end. A pool still sealed is
not in that view, so it is never told; dice appear once rolled, as `show` has them.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.story import beat, namer
from tablelog.rules.table import GM
from tablelog.rulesets.beer_run.rules.state import BeerRunState


def mine(state: BeerRunState, viewer: str) -> list[str]:
    player = state.gm if viewer == GM else viewer
    return [key for key, c in sorted(state.characters.items()) if c.player == player]


def _display(state: BeerRunState, key: str) -> str:
    found = state.characters.get(key)
    return found.display if found is not None else key


def story(state: BeerRunState, shown: dict[str, Any], viewer: str) -> list[str]:
    name = namer(lambda k: _display(state, k), mine(state, viewer))
    told = []
    for rnd in shown["rounds"]:
        told.append(f"Round {rnd['round']} began.")
        for actor, goal in rnd["goals"].items():
            against = f" against {_display(state, goal['target'])}" if goal.get("target") else ""
            told.append(
                f"{_display(state, actor)} set a {goal['kind']} goal: '{goal['text']}'{against}."
            )
        for c in rnd["comparisons"]:
            a, b = c["a"], c["b"]
            faces = f"{_display(state, a)} {c['a_values']} vs {_display(state, b)} {c['b_values']}"
            upper = c.get("upper_hand")
            if upper:
                kept = ", ".join(f"{_display(state, k)} {n}" for k, n in c["kept"].items())
                told.append(
                    f"Dice compared, high to low: {faces}; {name(upper, True)} "
                    f"{'have' if name(upper, True) == 'You' else 'has'} the upper hand "
                    f"(successes kept: {kept})."
                )
            else:
                told.append(f"Dice compared, high to low: {faces}; no upper hand.")
    for key in shown["ceded"]:
        told.append(f"{_display(state, key)} ceded: the opposition gets its goal.")
    for got in shown["achieved"]:
        told.append(f"{_display(state, got['actor'])} achieved '{got['goal']}'.")
    if shown["status"] == "ended":
        told.append(f"The conflict ended: {shown['result']}.")
    return told


def result(state: BeerRunState, shown: dict[str, Any], viewer: str) -> str:
    name = namer(lambda k: _display(state, k), mine(state, viewer))
    said = [beat(name, w, lo) for w, lo in shown["beats"]]
    for got in shown["achieved"]:
        who = name(got["actor"], True)
        said.append(f"{who} achieved '{got['goal']}'")
    return "; ".join(dict.fromkeys(said))
