"""The duel's views: state, show, words, what is hidden, and its audit."""

from __future__ import annotations

from typing import Any

from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy, Table
from tablelog.projections.book import Book
from tablelog.projections.contract import RulesetViews
from tablelog_duel import events as ev
from tablelog_duel.rules import DuelState, duel, winner_of


def hidden_fields(event: Event, viewer: str, state: DuelState) -> tuple[str, ...]:
    if not isinstance(event, ev.CardPlayed) or viewer == event.player:
        return ()
    found = state.duels.get(event.conflict)
    return () if found is not None and found.status == "closed" else ("card",)


def hides(state: DuelState, viewer: str) -> str | None:
    for found in state.duels.values():
        if found.status == "open" and any(p != viewer for p in found.plays):
            return f"duel {found.key} has a card face down"
    return None


def show_view(state: DuelState, given: str | None, viewer: str | None) -> dict[str, Any]:
    found = duel(state, given)
    shown = found.status == "closed"
    return {
        "conflict": found.key,
        "status": found.status,
        "plays": {p: (c if shown or viewer in (None, p) else None) for p, c in found.plays.items()},
        "winner": found.winner,
        "beats": [[found.winner, _other(found.first, found.second, found.winner)]]
        if found.winner
        else [],
    }


def _other(a: str, b: str, one: str) -> str:
    return b if one == a else a


def show_lines(state: DuelState, view: dict[str, Any]) -> list[str]:
    cards = ", ".join(f"{p}: {'face down' if c is None else c}" for p, c in view["plays"].items())
    return [f"duel {view['conflict']} ({view['status']}): {cards or 'no cards yet'}"]


def state_view(state: DuelState, viewer: str | None) -> dict[str, Any]:
    return {
        "players": list(state.players),
        "conflicts": {key: show_view(state, key, viewer) for key in state.duels},
    }


def state_lines(view: dict[str, Any]) -> list[str]:
    return [f"{view['campaign']} (duel), seq {view['seq']}"] + [
        f"duel {key}: {d['status']}" for key, d in view["conflicts"].items()
    ]


def describe(event: Event) -> str:
    match event:
        case ev.PlayerJoined():
            return f"{event.player} joins"
        case ev.DuelOpened():
            return f"duel {event.conflict} opens: {event.first} against {event.second}"
        case ev.CardPlayed():
            return f"{event.player} plays a card face down in duel {event.conflict}"
        case ev.DuelRevealed():
            return f"duel {event.conflict} revealed: {event.rule}"
    return event.type_name()


class DuelAuditor:
    checks_every_event = False

    def check(self, state: DuelState, seq: int, event: Event) -> list[Discrepancy]:
        if not isinstance(event, ev.DuelRevealed):
            return []
        found = state.duels[event.conflict]
        expected, _rule = winner_of({p: found.plays[p] for p in (found.first, found.second)})
        if expected == event.winner:
            return []
        return [
            Discrepancy(
                seq=seq,
                conflict=event.conflict,
                type=event.type_name(),
                field="winner",
                recorded=event.winner,
                expected=expected,
            )
        ]

    def explain(self, book: Book, state: DuelState, seq: int, event: Event) -> None:
        if isinstance(event, ev.DuelOpened):
            title = f"duel {event.conflict} ({event.first} against {event.second})"
            book.begin(event.conflict, title, seq, state.table.session or None)
            return
        here = book.chapter(event.conflict_id())
        if here is None:
            return
        if isinstance(event, ev.CardPlayed):
            here.note("Cards", seq, "play", f"{event.player} plays a card face down")
        elif isinstance(event, ev.DuelRevealed):
            here.section("Reveal").table = Table(
                columns=["player", "card"], rows=[[p, str(c)] for p, c in event.cards.items()]
            )
            here.note("Reveal", seq, "outcome", event.rule, winner=event.winner)
            here.closed = True

    def finish(self, book: Book, state: DuelState) -> None:
        pass


VIEWS = RulesetViews[DuelState](
    state_view=state_view,
    state_lines=state_lines,
    show_view=show_view,
    show_lines=show_lines,
    describe=describe,
    hidden_fields=hidden_fields,
    hides=hides,
    auditor=DuelAuditor,
)
