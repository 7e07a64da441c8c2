"""The Improv account: every round and outcome with the numbers and the rule that decided it.

Built in one walk over the log, each event seen with the state just before it, so a note can
say what the limits were at that moment (the GM's tokens against its cap, a character's talent
uses against the session's). Face-down cards and hands never enter it (see `account`).
"""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy, Table
from tablelog.projections.book import Book
from tablelog.rulesets.improv import events as ev
from tablelog.rulesets.improv.rules.cards import pretty
from tablelog.rulesets.improv.rules.conflict import gm_token_cap
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState
from tablelog.rulesets.improv.views import outcomes
from tablelog.rulesets.improv.views.check import check
from tablelog.rulesets.improv.views.outcomes import COLUMNS, PLACES, Open
from tablelog.rulesets.improv.views.sealed_notes import sealed_note


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
                chapter=Open,
            )
            return
        here = book.chapter(event.conflict_id())
        if isinstance(here, Open):
            self._conflict_event(state, here, seq, event)

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
                here.touch(seq)
                here.section(f"Round {event.round}")
            case ev.CardSealed() | ev.CardOpened() | ev.OpeningForfeited():
                sealed_note(here, seq, event)
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
                    here.latest_title(),
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
                    here.latest_title(),
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
                    here.latest_title(),
                    seq,
                    "narration",
                    f"{here.name(event.side)}{final}: {event.text}",
                    side=event.side,
                    text=event.text,
                    final=event.final,
                )
            case ev.ConflictClosed():
                outcomes.closed(here, seq, event)
                here.closed = True
            case _:
                here.touch(seq)

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

    def finish(self, book: Book, state: ImprovState) -> None:
        for here in book.open_chapters():
            assert isinstance(here, Open)
            conflict = state.conflicts.get(here.account.conflict)
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
