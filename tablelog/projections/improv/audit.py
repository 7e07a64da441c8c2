"""The Improv account: every round and outcome with the numbers and the rule that decided it.

Built in one walk over the log, each event seen with the state just before it, so a note can
say what the limits were at that moment (the GM's tokens against its cap, a character's talent
uses against the session's). Face-down cards and hands never enter it (see `account`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablelog.events import improv as ev
from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy, Table
from tablelog.projections.book import Book, Chapter
from tablelog.projections.improv.check import check
from tablelog.rules.improv.cards import pretty
from tablelog.rules.improv.conflict import gm_token_cap
from tablelog.rules.improv.state import GM, Conflict, ImprovState

_PLACES = {"pool": "the pool", "bank": "the bank", "out_of_play": "out of play", "gm": "the GM"}
_COLUMNS = ["side", "card", "bonuses", "total"]


@dataclass
class _Open(Chapter):
    """A conflict's account while the walk is inside it."""

    names: dict[str, str] = field(default_factory=dict)  # side key -> display
    bonuses: dict[int, list[str]] = field(default_factory=dict)  # round -> "on: what" texts
    by_side: dict[tuple[int, str], list[str]] = field(default_factory=dict)

    def name(self, key: str) -> str:
        return self.names.get(key, key)


class ImprovAuditor:
    """The Improv audit's walk (see `Auditor`)."""

    checks_every_event = False  # a check reads only the state before its event

    def check(self, state: ImprovState, seq: int, event: Event) -> list[Discrepancy]:
        return check(state, seq, event)

    def explain(self, book: Book, state: ImprovState, seq: int, event: Event) -> None:
        if isinstance(event, ev.ConflictOpened):
            rounds = f", {event.rounds} rounds" if event.kind == "extended" else ""
            book.begin(
                event.conflict,
                f"conflict {event.conflict} ({event.kind}{rounds})",
                seq,
                state.session or None,
                chapter=_Open,
            )
            return
        here = book.chapter(event.conflict_id())
        if isinstance(here, _Open):
            self._conflict_event(state, here, seq, event)

    def _conflict_event(self, state: ImprovState, here: _Open, seq: int, event: Event) -> None:
        conflict = state.conflicts.get(here.account.conflict)
        match event:
            case ev.StakeSet():
                here.names[event.side] = event.display
                who = "GM stake" if event.gm else f"{event.player}'s protagonist"
                against = f", opposing {here.name(event.opposes)}" if event.opposes else ""
                here.note(
                    "Stakes",
                    seq,
                    "stake",
                    f"{event.display} ({who}{against}): {event.text}",
                    side=event.side,
                    gm=event.gm,
                    opposes=event.opposes,
                    text=event.text,
                )
            case ev.CardPlayed():
                here.account.last_seq = seq
                here.section(f"Round {event.round}")
            case ev.BonusPlaced():
                self._bonus(state, conflict, here, seq, event)
            case ev.RoundRevealed():
                self._revealed(state, conflict, here, seq, event)
            case ev.FateCardDrawn():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "fate-draw",
                    f"Hand of Fate: {here.name(event.side)} draws {pretty(event.card)}",
                    side=event.side,
                    card=event.card,
                )
            case ev.FateResolved():
                draws = ", ".join(f"{pretty(w)} vs {pretty(lo)}" for w, lo in event.draws)
                here.note(
                    f"Round {event.round}",
                    seq,
                    "fate",
                    f"Hand of Fate: {here.name(event.winner)} beats {here.name(event.loser)} "
                    f"({draws}): {event.rule}" + _piles(here, event.victory, event.discarded),
                    winner=event.winner,
                    loser=event.loser,
                    draws=event.draws,
                    rule=event.rule,
                )
            case ev.FateChosen():
                outcome = {
                    "eliminated": "is eliminated: it loses its stakes and its victory cards",
                    "stayed": "stays in, seriously harmed",
                    "destroyed": "is destroyed (a second Hand-of-Fate loss in this conflict)",
                }[event.outcome]
                here.note(
                    f"Round {event.round}",
                    seq,
                    "fate-choice",
                    f"{here.name(event.side)} chooses to {event.choice}: it {outcome}",
                    side=event.side,
                    choice=event.choice,
                    outcome=event.outcome,
                )
            case ev.TokenAwarded():
                toward = f" (counts toward round {event.round})" if event.round else ""
                here.note(
                    _latest(here),
                    seq,
                    "award",
                    f"{event.giver} awards a story-token to {event.receiver}, taken from "
                    f"{_PLACES.get(event.source, event.source)}{toward}",
                    giver=event.giver,
                    receiver=event.receiver,
                    source=event.source,
                )
            case ev.TokenSpent():
                purpose = (
                    f"a redraw of {len(event.cards)} card(s)"
                    if event.purpose == "redraw"
                    else "a bribe"
                )
                here.note(
                    _latest(here),
                    seq,
                    "spend",
                    f"{event.player} spends a story-token on {purpose}; it goes to "
                    f"{_PLACES.get(event.to, event.to)}",
                    player=event.player,
                    purpose=event.purpose,
                    to=event.to,
                )
            case ev.VictoryCardGiven():
                how = " (a random card from its deck)" if event.random else ""
                here.note(
                    "Gifts",
                    seq,
                    "gift",
                    f"{here.name(event.giver)} gives {pretty(event.card)} to "
                    f"{here.name(event.receiver)}{how}",
                    giver=event.giver,
                    receiver=event.receiver,
                    card=event.card,
                )
            case ev.Narrated():
                final = " (final narration)" if event.final else ""
                here.note(
                    _latest(here),
                    seq,
                    "narration",
                    f"{here.name(event.side)}{final}: {event.text}",
                    side=event.side,
                    text=event.text,
                    final=event.final,
                )
            case ev.ConflictClosed():
                self._closed(conflict, here, seq, event)
            case _:
                here.touch(seq)

    def _bonus(
        self,
        state: ImprovState,
        conflict: Conflict | None,
        here: _Open,
        seq: int,
        event: ev.BonusPlaced,
    ) -> None:
        title = f"Round {event.round}"
        by = "the GM" if event.by == GM else here.name(event.by)
        if event.kind == "token":
            what = f"+{event.count} token(s) by {by}"
            text = f"{by} puts {event.count} story-token(s) on {here.name(event.on)}'s card"
            data: dict[str, object] = {"by": event.by, "on": event.on, "count": event.count}
            if event.by == GM and conflict is not None:
                limit, held = gm_token_cap(state, conflict)
                spent = conflict.gm_spent + event.count
                text += (
                    f"; the GM has now spent {spent} of the {min(limit, held)} it may spend "
                    f"in this conflict (limit {limit}, held {held} at the open)"
                )
                data |= {"gm_spent": spent, "gm_limit": limit, "gm_held_at_open": held}
        else:
            what = f"talent {event.talent} by {by}"
            character = state.characters.get(event.by)
            used = (character.used if character else 0) + 1
            cap = state.options.talent_uses_per_session
            text = (
                f"{by} puts a talent-marker ({event.talent}) on {here.name(event.on)}'s card: "
                f"use {used} of {cap} this session"
            )
            if event.assist:
                text += f"; assisting: {event.assist}"
            data = {
                "by": event.by,
                "on": event.on,
                "talent": event.talent,
                "used": used,
                "limit": cap,
            }
        here.by_side.setdefault((event.round, event.on), []).append(what)
        here.note(title, seq, "bonus", text, **data)

    def _revealed(
        self,
        state: ImprovState,
        conflict: Conflict | None,
        here: _Open,
        seq: int,
        event: ev.RoundRevealed,
    ) -> None:
        section = here.section(f"Round {event.round}")
        section.table = Table(
            columns=_COLUMNS,
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
            outcome = (
                f"{here.name(pair.winner)} wins" if pair.winner else "the Hand of Fate decides"
            )
            here.note(
                title,
                seq,
                "comparison",
                f"{first} {pair.first_total} vs {second} {pair.second_total}: {pair.rule}; "
                f"{outcome}",
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
            here.note(
                title,
                seq,
                "unopposed",
                f"{here.name(side)} is unopposed: its stake succeeds",
                side=side,
            )
        for move in event.token_moves:
            here.note(
                title,
                seq,
                "tokens",
                f"{move.count} token(s) from the table to {_PLACES.get(move.to, move.to)}: "
                f"{move.reason}",
                count=move.count,
                to=move.to,
                reason=move.reason,
            )
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
        piles = _piles(here, event.victory, event.discarded).removeprefix("; ")
        if piles:
            here.note(title, seq, "cards", piles, victory=event.victory, discarded=event.discarded)

    def _closed(
        self, conflict: Conflict | None, here: _Open, seq: int, event: ev.ConflictClosed
    ) -> None:
        title = "Outcome"
        if event.abandoned:
            here.note(title, seq, "abandoned", "closed before any card was played: no outcome")
        for pair in event.final:
            first = f"{here.name(pair.first)} ({_pile(pair.first_pile)})"
            second = f"{here.name(pair.second)} ({_pile(pair.second_pile)})"
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
        for move in event.token_moves:
            here.note(
                title,
                seq,
                "tokens",
                f"{move.count} token(s) from {_PLACES.get(move.source, move.source)} to "
                f"{_PLACES.get(move.to, move.to)}: {move.reason}",
                count=move.count,
                source=move.source,
                to=move.to,
                reason=move.reason,
            )
        beats = "; ".join(f"{here.name(w)} beats {here.name(lo)}" for w, lo in event.beats)
        if not event.abandoned:
            here.note(title, seq, "beats", beats or "nobody beats anybody", beats=event.beats)
        here.account.title += ", closed"
        here.closed = True

    def finish(self, book: Book, state: ImprovState) -> None:
        for here in book.open_chapters():
            assert isinstance(here, _Open)
            conflict = state.conflicts.get(here.account.conflict)
            here.account.title += ", open"
            rnd = conflict.current if conflict else None
            if conflict is not None and rnd is not None and not rnd.revealed:
                # Face down: who has played and what is on the cards, never the cards.
                here.section(f"Round {rnd.number}").table = Table(
                    columns=_COLUMNS,
                    rows=[
                        [
                            here.name(side),
                            "face down",
                            ", ".join(here.by_side.get((rnd.number, side), [])) or "-",
                            "?",
                        ]
                        for side in rnd.plays
                    ],
                )


def _pile(cards: list[str]) -> str:
    return " ".join(pretty(c) for c in cards) or "no cards"


def _latest(here: _Open) -> str:
    return here.latest or "Stakes"


def _piles(here: _Open, victory: dict[str, str], discarded: dict[str, str]) -> str:
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
