"""Beer Run's panels on the web page: each open conflict as its `show` tells it (a pool
hidden until it is rolled stays hidden), the conflict that ended last with its outcome (a
cede ends one by itself: nobody should learn of it from the log alone), and the characters'
dice, Intensity and the situation and penalty dice they still hold."""

from __future__ import annotations

from typing import Any

from tablelog.projections.page import Grid, Panel
from tablelog.rules.table import GM
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Conflict
from tablelog.rulesets.beer_run.views import awaiting, story, text, views


def panels(state: BeerRunState, viewer: str | None) -> list[Panel]:
    seen = viewer or GM
    found = []
    for conflict in state.open_conflicts():
        shown = views.show_view(state, conflict, seen)
        now = flow.phase(state, conflict)
        found.append(
            Panel(
                key=f"conflict-{conflict.key}",
                title=f"Conflict {conflict.key}",
                facts=[
                    ("round", str(len(conflict.rounds) or 1)),
                    ("phase", flow.phase_words(now)),
                    *((side, ", ".join(m)) for side, m in conflict.sides.items()),
                ],
                lines=text.conflict_lines(shown),
                waiting=awaiting.waiting_line(state, conflict),
                conflict=conflict.key,
                result=story.result(state, shown, seen),
                story=story.story(state, shown, seen),
            )
        )
    ended = _last_ended(state)
    if ended is not None:  # a cede ends it by itself: everyone still reads how it ended
        shown_ended = views.show_view(state, ended, seen)
        found.append(
            Panel(
                key=f"conflict-{ended.key}",
                title=f"Conflict {ended.key} (ended)",
                facts=[
                    ("rounds", str(len(ended.rounds))),
                    *((side, ", ".join(m)) for side, m in ended.sides.items()),
                ],
                lines=text.conflict_lines(shown_ended),
                conflict=ended.key,
                result=story.result(state, shown_ended, seen),
                story=story.story(state, shown_ended, seen),
                closed=True,
            )
        )
    characters = [views.character_view(state, c, seen) for _, c in sorted(state.characters.items())]
    found.append(
        Panel(
            key="characters",
            title="Characters",
            grid=Grid(
                header=["Character", "Player", "Intensity", "Dice"],
                rows=[
                    [
                        ch["name"],
                        ch["player"],
                        str(ch["intensity"]),
                        _dice(ch),
                    ]
                    for ch in characters
                ],
            ),
        )
    )
    return found


def _dice(ch: dict[str, Any]) -> str:
    """Ability dice, then the situation and penalty dice still owed (they count in later
    rolls, so the player needs them in sight), as `state` words them."""
    dice = [f"{a['name']} {text.size(a['size'])}" for a in ch["abilities"].values()]
    dice += [f"{d['kind']} d{d['size']} x{d['uses']}" for d in ch["special_dice"]]
    return ", ".join(dice) + (" (dead)" if ch["dead"] else "")


def _last_ended(state: BeerRunState) -> Conflict | None:
    """Of the conflicts that ended, the one opened last (its outcome stays on the page)."""
    ended = [conflict for conflict in state.conflicts.values() if conflict.status == "ended"]
    return ended[-1] if ended else None
