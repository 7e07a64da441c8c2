"""The audit's notes of what decides a conflict: each reveal (the table, every comparison,
narration rights, tokens and cards) and its close, final or abandoned.

`Open` is a conflict's account while the audit's walk (audit.py) is inside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablelog.projections.account import Table
from tablelog.projections.book import Chapter
from tablelog.rulesets.improv import events as ev
from tablelog.rulesets.improv.rules.cards import pretty
from tablelog.rulesets.improv.rules.conflict import gm_token_cap
from tablelog.rulesets.improv.rules.state import Conflict, ImprovState
from tablelog.rulesets.improv.views import narration

PLACES = {"pool": "the pool", "bank": "the bank", "out_of_play": "out of play", "gm": "the GM"}
COLUMNS = ["side", "card", "bonuses", "total"]
_FATE = "the Hand of Fate decides"


@dataclass
class Open(Chapter):
    """A conflict's account while the walk is inside it."""

    names: dict[str, str] = field(default_factory=dict)  # side key -> display
    by_side: dict[tuple[int, str], list[str]] = field(default_factory=dict)  # bonus texts

    def name(self, key: str) -> str:
        return self.names.get(key, key)

    def latest_title(self) -> str:
        return self.latest or "Stakes"


def revealed(
    state: ImprovState, conflict: Conflict | None, here: Open, seq: int, event: ev.RoundRevealed
) -> None:
    section = here.section(f"Round {event.round}")
    section.table = Table(
        columns=COLUMNS,
        rows=[
            [
                here.name(side),
                pretty(event.cards[side]),
                ", ".join(here.by_side.get((event.round, side), [])) or "-",
                str(event.totals[side]),
            ]
            for side in event.ranking
        ],
    )
    title = section.title
    for pair in event.pairs:
        first, second = here.name(pair.first), here.name(pair.second)
        if pair.winner:
            outcome = f"; {here.name(pair.winner)} wins"
        else:
            outcome = "" if "Hand of Fate" in pair.rule else f"; {_FATE}"
        here.note(
            title,
            seq,
            "comparison",
            f"{first} {pair.first_total} vs {second} {pair.second_total}: {pair.rule}{outcome}",
            first=pair.first,
            second=pair.second,
            first_total=pair.first_total,
            second_total=pair.second_total,
            winner=pair.winner,
            rule=pair.rule,
            first_card=event.cards.get(pair.first),
            second_card=event.cards.get(pair.second),
        )
    for side in event.unopposed:
        played = " and its card is discarded" if side in event.cards else ""
        here.note(
            title,
            seq,
            "unopposed",
            f"{here.name(side)} is unopposed: its stake succeeds, but it beats nobody{played}",
            side=side,
        )
    if narration.multi_way(event.ranking):
        found = narration.rights(event.ranking, event.totals, event.cards, state.options)
        here.note(
            title,
            seq,
            "narration-rights",
            narration.sentence(found, here.name),
            ranking=event.ranking,
            rights={r.side: r.over for r in found},
        )
    _moves(here, title, seq, event.token_moves, source=False)
    if conflict is not None:
        limit, held = gm_token_cap(state, conflict)
        here.note(
            title,
            seq,
            "gm-tokens",
            f"GM tokens used in this conflict: {conflict.gm_spent} of "
            f"{min(limit, held)} (limit {limit}, held {held} at the open)",
            spent=conflict.gm_spent,
            limit=limit,
            held_at_open=held,
        )
    cards = piles(here, event.victory, event.discarded).removeprefix("; ")
    if cards:
        here.note(title, seq, "cards", cards, victory=event.victory, discarded=event.discarded)


def closed(here: Open, seq: int, event: ev.ConflictClosed) -> None:
    title = "Outcome"
    if event.abandoned and event.reason is not None:
        here.note(
            title,
            seq,
            "abandoned",
            f"abandoned by the GM: {event.reason}; nobody wins, and played and victory cards "
            "are discarded",
            reason=event.reason,
        )
        if event.cards:
            here.note(
                title,
                seq,
                "cards",
                "face-down cards turned up: "
                + ", ".join(f"{here.name(s)} {pretty(c)}" for s, c in event.cards.items()),
                cards=event.cards,
            )
        if event.discarded:
            here.note(
                title,
                seq,
                "cards",
                "discarded: "
                + ", ".join(f"{here.name(s)} {pile(c)}" for s, c in event.discarded.items()),
                discarded=event.discarded,
            )
    elif event.abandoned:
        here.note(title, seq, "abandoned", "closed before any card was played: no outcome")
    for pair in event.final:
        first = f"{here.name(pair.first)} ({pile(pair.first_pile)})"
        second = f"{here.name(pair.second)} ({pile(pair.second_pile)})"
        who = f"{here.name(pair.winner)} wins" if pair.winner else "nobody wins"
        here.note(
            title,
            seq,
            "final",
            f"{first} vs {second}: {pair.rule}; {who}",
            first=pair.first,
            second=pair.second,
            first_pile=pair.first_pile,
            second_pile=pair.second_pile,
            winner=pair.winner,
            rule=pair.rule,
        )
    _moves(here, title, seq, event.token_moves, source=True)
    beats = "; ".join(f"{here.name(w)} beats {here.name(lo)}" for w, lo in event.beats)
    if not event.abandoned:
        here.note(title, seq, "beats", beats or "nobody beats anybody", beats=event.beats)
    here.account.title += ", abandoned" if event.reason is not None else ", closed"


def _moves(here: Open, title: str, seq: int, moves: list[ev.TokenMove], *, source: bool) -> None:
    for move in moves:
        origin = PLACES.get(move.source, move.source) if source else "the table"
        here.note(
            title,
            seq,
            "tokens",
            f"{move.count} token(s) from {origin} to {PLACES.get(move.to, move.to)}: {move.reason}",
            **({"count": move.count, "source": move.source} if source else {"count": move.count}),
            to=move.to,
            reason=move.reason,
        )


def pile(cards: list[str]) -> str:
    return " ".join(pretty(c) for c in cards) or "no cards"


def piles(here: Open, victory: dict[str, str], discarded: dict[str, str]) -> str:
    parts = []
    if victory:
        parts.append(
            "to victory piles: "
            + ", ".join(f"{here.name(s)} {pretty(c)}" for s, c in victory.items())
        )
    if discarded:
        parts.append(
            "discarded: " + ", ".join(f"{here.name(s)} {pretty(c)}" for s, c in discarded.items())
        )
    return "".join(f"; {p}" for p in parts)
