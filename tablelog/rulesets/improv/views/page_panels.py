"""Improv's panels on the web page, built from the views as `viewer` sees them.

Each conflict from `show` for that viewer, the viewer's own hand (the `hand` read, owner
only), the token ledger and talent use (public): a card another may not see is a card back
here too. The actions open now are in `page_actions`.
"""

from __future__ import annotations

from typing import Any

from tablelog.errors import TablelogError
from tablelog.projections.page import Card, Grid, Panel, role_of
from tablelog.rulesets.improv.rules.cards import is_red, pretty
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState
from tablelog.rulesets.improv.views import awaiting, story, views


def _face(card: str | None, *, label: str = "", mine: bool = False, **more: Any) -> Card:
    if card is None:
        return Card(face=None, label=label, mine=mine, **more)
    return Card(
        face=pretty(card), label=label, mine=mine, tone="red" if is_red(card) else "", **more
    )


def _bonus_note(play: dict[str, Any]) -> str:
    parts = []
    if play["tokens"]:
        parts.append(f"+{play['tokens']} token(s)")
    if play["talent"]:
        parts.append(f"talent {play['talent']}")
    return ", ".join(parts)


def _conflict_panel(state: ImprovState, conflict: Conflict, viewer: str) -> Panel:
    shown = views.show_view(state, conflict, viewer)
    rounds = shown["rounds"]
    current = rounds[-1] if rounds else None
    header = ["Side", "Player", "Stake", "Opposes", "Card", "Victory pile", "Status"]
    rows: list[list[str | list[Card]]] = []
    for key, side in shown["sides"].items():
        play = current["plays"].get(key) if current else None
        owner = GM if side["gm"] else side["player"]
        card: str | list[Card] = "—"
        if play is not None and current is not None:
            card = [
                _face(
                    play["card"],
                    label=key,
                    mine=owner == viewer and play["card"] is not None and not current["revealed"],
                    total=play["total"],
                    note=_bonus_note(play),
                )
            ]
        rows.append(
            [
                conflict.sides[key].display,
                "GM" if side["gm"] else str(side["player"]),
                side["stake"],
                side["opposes"] or "—",
                card,
                [_face(v, label=f"{key}'s pile") for v in side["victory"]] or "—",
                side["status"],
            ]
        )
    facts = [("kind", shown["kind"]), ("status", shown["status"])]
    if conflict.kind == "extended":
        facts.append(("round", f"{len(rounds) or 1} of {conflict.planned_rounds}"))
    stage = "stakes" if not conflict.stakes_closed else "cards face down"
    if current and current["revealed"]:
        stage = "revealed"
    if conflict.status == "closed":
        stage = "closed"
    facts.append(("stage", stage))
    lines = _results(rounds)
    if conflict.status == "closed":
        final = ", ".join(f"{w} beats {loser}" for w, loser in shown["beats"])
        lines.append(f"final: {final or 'nobody beats anybody'}")
    return Panel(
        key=f"conflict-{conflict.key}",
        title=f"Conflict {conflict.key}" + (" (closed)" if conflict.status == "closed" else ""),
        facts=facts,
        grid=Grid(header=header, rows=rows),
        lines=lines,
        waiting=awaiting.waiting_line(state, conflict),
        conflict=conflict.key,
        result=story.result(state, conflict, viewer),
        story=story.story(state, conflict, viewer),
        quotes=story.quotes(conflict),
        closed=conflict.status == "closed",
    )


def _results(rounds: list[dict[str, Any]]) -> list[str]:
    lines = []
    for rnd in rounds:
        if not rnd["revealed"]:
            continue
        beats = (
            ", ".join(f"{w} beats {loser}" for w, loser in rnd["beats"]) or "nobody beats anybody"
        )
        lines.append(f"round {rnd['round']}: {beats}")
        if rnd["ties"]:
            lines.append(f"  Hand of Fate: {', '.join(' = '.join(t) for t in rnd['ties'])}")
        if rnd["choices_due"]:
            lines.append(f"  to choose (eliminated or stay in): {', '.join(rnd['choices_due'])}")
    return lines


def panels(state: ImprovState, viewer: str | None) -> list[Panel]:
    seen = viewer or GM
    found = [_conflict_panel(state, conflict, seen) for conflict in state.open_conflicts()]
    # The conflict closed last is still whole in the state (cheap to show): its outcome,
    # audit, replay and posts stay on the page until the next one closes.
    last = state.conflicts.get(state.last_closed or "")
    if last is not None and last.status == "closed":
        found.append(_conflict_panel(state, last, seen))
    if state.managed and role_of(seen) != "observer":
        try:
            hand = views.hand(state, seen, seen)
        except TablelogError:
            hand = None
        if hand is not None:
            found.append(
                Panel(
                    key="hand",
                    title="Your hand",
                    cards=[_face(card, label="in your hand", mine=True) for card in hand["cards"]],
                    facts=[("deck", str(hand["deck"])), ("discard", str(hand["discard"]))],
                )
            )
    # Only the ledger and talents: the whole state view lists every conflict ever played.
    tokens = views.tokens_view(state)
    found.append(
        Panel(
            key="tokens",
            title="Story-tokens",
            grid=Grid(
                header=["Holder", "Tokens"],
                rows=[
                    ["GM", str(tokens["gm"])],
                    ["pool", str(tokens["pool"])],
                    ["bank", str(tokens["bank"])],
                    ["out of play", str(tokens["out_of_play"])],
                    ["on cards", str(tokens["table"])],
                    *([p, str(n)] for p, n in tokens["players"].items()),
                ],
            ),
            glossary=story.GLOSSARY,
        )
    )
    talents = views.talents_view(state)
    if talents:
        found.append(
            Panel(
                key="talents",
                title="Talent use this session",
                grid=Grid(
                    header=["Character", "Player", "Used", "By talent"],
                    rows=[
                        [
                            state.characters[key].display,
                            t["player"],
                            f"{t['used']} of {t['limit']}",
                            ", ".join(f"{name} {n}" for name, n in t["by_talent"].items()) or "—",
                        ]
                        for key, t in talents.items()
                    ],
                ),
            )
        )
    return found
