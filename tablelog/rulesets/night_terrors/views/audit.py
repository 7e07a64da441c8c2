"""The Night Terrors account: every exchange with its raise (value, trump value and the rule
behind them), each answer's outcome with its fallout, trump fallout and price, each payment's
split and rank trade, escalations, who went out and why, and who won.

Built in one walk over the log, each event seen with the state just before it. `check`
recomputes every recorded number with the same functions the commands use (rules/night_terrors
`cards` and `payment`) and reports where a record differs. Hands never enter the account.
"""

from __future__ import annotations

from typing import Any

from tablelog.errors import RuleViolation
from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy, Table
from tablelog.projections.book import Book, Chapter
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import payment
from tablelog.rulesets.night_terrors.rules.cards import (
    SUIT_NAMES,
    deciders,
    judge,
    trump_value,
    value,
)
from tablelog.rulesets.night_terrors.rules.settle import CONSEQUENCE
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState
from tablelog.rulesets.night_terrors.views.text import (
    answer_words,
    emptied_words,
    escalated_words,
    left_words,
    listed,
    named,
    paid_words,
    raise_words,
    spellings,
)

_VALUE_RULE = "faces double the number cards once; faces alone are {face} each; Ace = {ace}"


def _found(seq: int, event: Event, field: str, recorded: Any, expected: Any) -> Discrepancy:
    return Discrepancy(
        seq=seq,
        conflict=event.conflict_id(),
        type=event.type_name(),
        field=field,
        recorded=recorded,
        expected=expected,
    )


def _compare(seq: int, event: Event, expected: dict[str, Any]) -> list[Discrepancy]:
    return [
        _found(seq, event, name, getattr(event, name), want)
        for name, want in expected.items()
        if getattr(event, name) != want
    ]


def expected_raise(state: NightTerrorsState, event: ev.RaiseMade) -> dict[str, Any]:
    trump = state.conflicts[event.conflict].trump
    return {
        "value": value(event.cards, state.options),
        "trump_value": trump_value(event.cards, trump, state.options),
        "trump_at_raise": trump,
    }


def expected_answer(state: NightTerrorsState, event: ev.RaiseAnswered) -> dict[str, Any]:
    exchange = state.conflicts[event.conflict].current
    assert exchange is not None
    raised = exchange.raised
    judged = judge(
        event.cards,
        raised.value,
        raised.trump_value,
        raised.trump_at_raise,
        event.outcome == "push",
        state.options,
    )
    return {
        "raise_value": raised.value,
        "total": judged.total,
        "outcome": judged.outcome,
        "fallout": judged.fallout,
        "trump_fallout": judged.trump_fallout,
        "price": judged.price,
    }


class NightTerrorsAuditor:
    """The Night Terrors audit's walk (see `Auditor`)."""

    checks_every_event = False

    def check(self, state: NightTerrorsState, seq: int, event: Event) -> list[Discrepancy]:
        match event:
            case ev.RaiseMade():
                return _compare(seq, event, expected_raise(state, event))
            case ev.RaiseAnswered():
                return _compare(seq, event, expected_answer(state, event))
            case ev.CostPaid():
                return self._paid(state, seq, event)
            case ev.ConflictEnded():
                still = [] if event.abandoned else state.conflicts[event.conflict].still_in
                return _compare(seq, event, {"winners": list(still)})
            case ev.PoolEmptied():
                # The pool is 0 once the payment before it is folded in.
                left = state.characters[event.character_id].pool(event.pool)
                return _compare(seq, event, {"consequence": CONSEQUENCE[event.pool]}) + (
                    [] if left == 0 else [_found(seq, event, "pool", event.pool, f"{left} left")]
                )
            case ev.CardsDrawn() if state.options.deck == "managed":
                # A managed deck deals from the top of the order its shuffles stored.
                return _compare(seq, event, {"cards": state.deck[: len(event.cards)]})
        return []

    def _paid(self, state: NightTerrorsState, seq: int, event: ev.CostPaid) -> list[Discrepancy]:
        owed = state.costs.get(event.character_id) or []
        if not owed:
            return [_found(seq, event, "amount", event.amount, None)]
        cost = owed[0]
        character = state.characters[event.character_id]
        trump = state.conflicts[cost.conflict].trump
        found = _compare(seq, event, {"amount": cost.amount, "cause": cost.cause, "trump": trump})
        try:
            split = payment.check(
                {"blood": event.blood, "sweat": event.sweat, "tears": event.tears},
                cost.amount,
                trump,
                character.rank,
                character.pools(),
                state.options,
            )
        except RuleViolation as exc:
            return [*found, _found(seq, event, "split", paid_words(event), exc.message)]
        return found + _compare(
            seq, event, {"traded_from": split.traded_from, "traded": split.traded}
        )

    def explain(self, book: Book, state: NightTerrorsState, seq: int, event: Event) -> None:
        names = spellings(state)  # characters named as created in the account's words
        if isinstance(event, ev.ConflictOpened):
            title = (
                f"conflict {event.conflict} ({listed(names, event.participants)}; "
                f"{event.conflict_type}, trump {SUIT_NAMES[event.trump]})"
            )
            here: Chapter = book.begin(event.conflict, title, seq, state.table.session or None)
            what = f"; stakes: {event.stakes}" if event.stakes else ""
            here.note(
                "Setup", seq, "open", f"{named(names, event.aggressor)} is the aggressor{what}"
            )
            o = state.options
            rule = _VALUE_RULE.format(face=o.face_value, ace=o.ace_value)
            here.note("Setup", seq, "rules", f"card values: {rule}; middle card: {o.middle}")
            return
        if isinstance(event, ev.CostPaid):  # a cost may be paid after its conflict ended
            chapter = book.chapters.get(event.conflict)
        else:
            chapter = book.chapter(event.conflict_id())
        if chapter is None:
            return
        found = state.conflicts.get(event.conflict_id() or "")
        title = f"Exchange {len(found.exchanges) if found else 0}"
        match event:
            case ev.RaiseMade():
                title = f"Exchange {len(found.exchanges) + 1 if found else 1}"
                chapter.note(
                    title,
                    seq,
                    "raise",
                    raise_words(event, names),
                    value=event.value,
                    trump_value=event.trump_value,
                )
            case ev.RaiseAnswered():
                chapter.note(
                    title,
                    seq,
                    "answer",
                    answer_words(event, names),
                    total=event.total,
                    outcome=event.outcome,
                    fallout=event.fallout,
                    trump_fallout=event.trump_fallout,
                    price=event.price,
                )
            case ev.ConflictEscalated():
                chapter.note(
                    title,
                    seq,
                    "escalation",
                    f"{escalated_words(event, names)}; everyone still in draws",
                )
            case ev.CostPaid():
                chapter.note(
                    chapter.latest or title,
                    seq,
                    "payment",
                    paid_words(event, names),
                    blood=event.blood,
                    sweat=event.sweat,
                    tears=event.tears,
                )
            case ev.PoolEmptied():
                chapter.note(
                    title,
                    seq,
                    "pool",
                    emptied_words(event, names),
                )
            case ev.ParticipantLeft():
                chapter.note(
                    title,
                    seq,
                    "out",
                    left_words(event, names),
                )
            case ev.ConflictEnded():
                left = found.left if found else {}
                stopped = "abandoned" if event.abandoned else "out"
                section = chapter.section("Outcome")
                section.table = Table(
                    columns=["character", "result"],
                    rows=[
                        [named(names, k), "wins" if k in event.winners else left.get(k, stopped)]
                        for k in (found.opened.participants if found else [])
                    ],
                )
                chapter.note(
                    "Outcome",
                    seq,
                    "outcome",
                    f"{deciders([named(names, w) for w in event.winners])} the stakes: "
                    f"{event.rule}",
                    winners=event.winners,
                )
            case ev.OutcomeNarrated():
                who = named(names, event.character_id)
                chapter.note("Outcome", seq, "narration", f"{who}: {event.text}")
            case _:
                chapter.touch(seq)

    def finish(self, book: Book, state: NightTerrorsState) -> None:
        pass
