"""The Improv account: every round and outcome with the numbers and the rule that decided it.

Built in one walk over the log, each event seen with the state just before it, so a note can
say what the limits were at that moment (the GM's tokens against its cap, a character's talent
uses against the session's). Face-down cards and hands never enter it (see `account`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelog.events import improv as ev
from tablelog.events.base import Event
from tablelog.projections.account import (
    Account,
    AuditSteps,
    ConflictAccount,
    SessionSpan,
    Table,
)
from tablelog.projections.improv import outcomes
from tablelog.projections.improv.check import check
from tablelog.projections.improv.outcomes import COLUMNS, PLACES, Open
from tablelog.rules.improv.cards import pretty
from tablelog.rules.improv.conflict import gm_token_cap
from tablelog.rules.improv.state import GM, Conflict, ImprovState


class _Walk:
    def __init__(self, campaign: str, scope: str | None) -> None:
        self.account = Account(
            campaign=campaign, ruleset="improv", seq=0, conflicts=[], discrepancies=[]
        )
        self.scope = scope
        self.open: dict[str, Open] = {}
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
        self.open[event.conflict] = Open(account)

    def _conflict_event(self, state: ImprovState, here: Open, seq: int, event: Event) -> None:
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
                outcomes.revealed(state, conflict, here, seq, event)
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
                    f"({draws}): {event.rule}"
                    + outcomes.piles(here, event.victory, event.discarded),
                    winner=event.winner,
                    loser=event.loser,
                    draws=event.draws,
                    rule=event.rule,
                )
            case ev.FateChosen():
                text = {
                    "eliminated": "chooses to leave: it is eliminated, losing its stakes and "
                    "its victory cards",
                    "stayed": "chooses to stay in, seriously harmed",
                    "destroyed": "loses the Hand of Fate a second time in this conflict: it is "
                    "destroyed",
                }[event.outcome]
                here.note(
                    f"Round {event.round}",
                    seq,
                    "fate-choice",
                    f"{here.name(event.side)} {text}",
                    side=event.side,
                    choice=event.choice,
                    outcome=event.outcome,
                )
            case ev.TokenAwarded():
                toward = f" (counts toward round {event.round})" if event.round else ""
                here.note(
                    here.latest(),
                    seq,
                    "award",
                    f"{event.giver} awards a story-token to {event.receiver}, taken from "
                    f"{PLACES.get(event.source, event.source)}{toward}",
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
                    here.latest(),
                    seq,
                    "spend",
                    f"{event.player} spends a story-token on {purpose}; it goes to "
                    f"{PLACES.get(event.to, event.to)}",
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
                    here.latest(),
                    seq,
                    "narration",
                    f"{here.name(event.side)}{final}: {event.text}",
                    side=event.side,
                    text=event.text,
                    final=event.final,
                )
            case ev.ConflictClosed():
                outcomes.closed(here, seq, event)
                self.open.pop(here.account.conflict, None)
            case _:
                here.account.last_seq = seq

    def _bonus(
        self,
        state: ImprovState,
        conflict: Conflict | None,
        here: Open,
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

    def finish(self, state: ImprovState | None) -> Account:
        for key, here in self.open.items():
            conflict = state.conflicts.get(key) if state else None
            here.account.title += ", open"
            rnd = conflict.current if conflict else None
            if conflict is not None and rnd is not None and not rnd.revealed:
                # Face down: who has played and what is on the cards, never the cards.
                here.section(f"Round {rnd.number}").table = Table(
                    columns=COLUMNS,
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


def audit(
    campaign: str, steps: AuditSteps, after: Callable[[], Any], scope: str | None = None
) -> Account:
    """The account of the walk; `after()` is the state once the last step is folded in.
    With `scope`, that conflict's events and the campaign-wide ones only."""
    walk = _Walk(campaign, scope)
    for step in steps:
        walk.step(step.before, step.envelope.seq, step.event)
    return walk.finish(after())
