"""The Improv account: every round and outcome with the numbers and the rule that decided it.

Built in one walk over the log, each event seen with the state just before it, so a note can
say what the limits were at that moment (the GM's tokens against its cap, a character's talent
uses against the session's). Face-down cards and hands never enter it (see `account`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tablelog.events import improv as ev
from tablelog.events.base import Event
from tablelog.projections.account import (
    Account,
    AuditSteps,
    ConflictAccount,
    Note,
    Section,
    SessionSpan,
    Table,
)
from tablelog.projections.improv.check import check
from tablelog.rules.improv.cards import pretty
from tablelog.rules.improv.conflict import gm_token_cap
from tablelog.rules.improv.state import GM, Conflict, ImprovState

_PLACES = {"pool": "the pool", "bank": "the bank", "out_of_play": "out of play", "gm": "the GM"}
_COLUMNS = ["side", "card", "bonuses", "total"]


@dataclass
class _Open:
    """A conflict's account while the walk is inside it."""

    account: ConflictAccount
    names: dict[str, str] = field(default_factory=dict)  # side key -> display
    bonuses: dict[int, list[str]] = field(default_factory=dict)  # round -> "on: what" texts
    by_side: dict[tuple[int, str], list[str]] = field(default_factory=dict)

    def section(self, title: str) -> Section:
        sections = self.account.sections
        if not sections or sections[-1].title != title:
            sections.append(Section(title=title))
        return sections[-1]

    def note(self, title: str, seq: int, kind: str, text: str, /, **data: object) -> None:
        self.section(title).notes.append(Note(seq=seq, kind=kind, text=text, data=dict(data)))
        self.account.last_seq = seq

    def name(self, key: str) -> str:
        return self.names.get(key, key)


class _Walk:
    def __init__(self, campaign: str, scope: str | None) -> None:
        self.account = Account(
            campaign=campaign, ruleset="improv", seq=0, conflicts=[], discrepancies=[]
        )
        self.scope = scope
        self.open: dict[str, _Open] = {}
        self.session_first: dict[int, int] = {}
        self.session_last: dict[int, int] = {}

    def step(self, state: ImprovState, seq: int, event: Event) -> None:
        self.account.seq = seq
        if state.session and (state.session_open or isinstance(event, ev.SessionEnded)):
            self.session_last[state.session] = seq
        if isinstance(event, ev.SessionStarted):
            self.session_first[event.session] = seq
            self.session_last[event.session] = seq
        key = event.conflict_id()
        if self.scope is not None and key is not None and key != self.scope:
            return  # another conflict's: its checks depend on nothing the scope needs
        self.account.discrepancies.extend(check(state, seq, event))
        if isinstance(event, ev.ConflictOpened):
            self._opened(state, seq, event)
            return
        if key is None or key not in self.open:
            return
        self._conflict_event(state, self.open[key], seq, event)

    def _opened(self, state: ImprovState, seq: int, event: ev.ConflictOpened) -> None:
        rounds = f", {event.rounds} rounds" if event.kind == "extended" else ""
        account = ConflictAccount(
            conflict=event.conflict,
            title=f"conflict {event.conflict} ({event.kind}{rounds})",
            session=state.session or None,
            first_seq=seq,
            last_seq=seq,
        )
        self.account.conflicts.append(account)
        self.open[event.conflict] = _Open(account)

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
                here.account.last_seq = seq

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
        self.open.pop(here.account.conflict, None)

    def finish(self, state: ImprovState | None) -> Account:
        for key, here in self.open.items():
            conflict = state.conflicts.get(key) if state else None
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
        self.account.sessions = [
            SessionSpan(session=n, first_seq=first, last_seq=self.session_last.get(n, first))
            for n, first in sorted(self.session_first.items())
        ]
        return self.account


def _pile(cards: list[str]) -> str:
    return " ".join(pretty(c) for c in cards) or "no cards"


def _latest(here: _Open) -> str:
    sections = here.account.sections
    return sections[-1].title if sections else "Stakes"


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


def audit(
    campaign: str, steps: AuditSteps, after: Callable[[], Any], scope: str | None = None
) -> Account:
    """The account of the walk; `after()` is the state once the last step is folded in.
    With `scope`, that conflict's events and the campaign-wide ones only."""
    walk = _Walk(campaign, scope)
    for step in steps:
        walk.step(step.before, step.envelope.seq, step.event)
    return walk.finish(after())
