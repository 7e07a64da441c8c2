"""The audit's verdict for Improv: each recorded decision recomputed from the events before it.

A decision (a reveal, a Hand-of-Fate result or choice, a close, a session's start) is decided
again by the same rules code that decided it, on the state just before it, with the options
the campaign was created with. Actions bound by limits (a conflict's opening, which fixes the
GM's tokens; a card played; a bonus against the GM's cap, the tokens held and the talent cap;
an award; a gift) are put to the rules again the same way. Wording (`rule`, `reason`) is not
compared: a newer tablelog may explain better; only what the decision does must agree.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy
from tablelog.rules.common import StartSession
from tablelog.rules.registry import no_shuffle
from tablelog.rulesets.improv import events as ev
from tablelog.rulesets.improv.rules import (
    abandon,
    conflict,
    fate,
    finale,
    people,
    plays,
    reveal,
    sealed,
)
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.state import ImprovState

# Not compared: wording (a newer tablelog may explain better) and the random salt of hidden
# fields (drawn when the event was appended; see Event.hidden).
_WORDING = frozenset({"rule", "reason", "salt"})


def _first(events: list[Event], kind: type[Event]) -> Event | None:
    return next((e for e in events if isinstance(e, kind)), None)


def _expected(state: ImprovState, event: Event) -> Event | None:
    """The decision the rules reach in place of `event` (raises when they refuse it)."""
    match event:
        case ev.RoundRevealed():
            made = reveal.reveal(state, c.Reveal(conflict=event.conflict), no_shuffle)
            return _first(made, ev.RoundRevealed)
        case ev.FateResolved():
            found = state.conflicts[event.conflict]
            rnd = next(r for r in found.rounds if r.number == event.round)
            decided = fate.resolve(state, found, rnd, rnd.fate.draws)
            pair = {event.winner, event.loser}
            results = [e for e in decided if isinstance(e, ev.FateResolved)]
            return next((e for e in results if {e.winner, e.loser} == pair), None)
        case ev.FateChosen():
            made = fate.fate(
                state, c.Fate(conflict=event.conflict, side=event.side, choice=event.choice)
            )
            return _first(made, ev.FateChosen)
        case ev.ConflictClosed() if event.reason is not None:
            gave_up = c.Abandon(conflict=event.conflict, reason=event.reason)
            return _first(abandon.abandon(state, gave_up, no_shuffle), ev.ConflictClosed)
        case ev.ConflictClosed():
            made = finale.close(state, c.Close(conflict=event.conflict), no_shuffle)
            return _first(made, ev.ConflictClosed)
        case ev.SessionStarted():
            made = people.start_session(state, StartSession(), no_shuffle)
            return _first(made, ev.SessionStarted)
        case ev.ConflictOpened():
            extended = event.kind == "extended"
            opening = c.OpenConflict(
                conflict=event.conflict,
                extended=extended,
                rounds=event.rounds if extended else None,
            )
            return _first(conflict.open_conflict(state, opening), ev.ConflictOpened)
        case ev.CardPlayed():
            play = c.PlayCard(
                conflict=event.conflict,
                side=event.side,
                card=None if event.from_deck and state.managed else event.card,
                from_deck=event.from_deck,
            )
            return _first(plays.play_card(state, play, no_shuffle), ev.CardPlayed)
        case ev.CardSealed():
            seal = c.PlayCard(
                conflict=event.conflict,
                side=event.side,
                commitment=event.commitment,
                round=event.round,
            )
            return _first(plays.play_card(state, seal, no_shuffle), ev.CardSealed)
        case ev.CardOpened():
            # Decided again: the card and salt give the commitment sealed, and every side of
            # the round had sealed its card before this opening.
            opened = c.OpenCard(
                conflict=event.conflict, side=event.side, card=event.card, salt=event.salt_hex
            )
            return _first(sealed.open_card(state, opened), ev.CardOpened)
        case ev.OpeningForfeited():
            claim = c.ForfeitOpening(conflict=event.conflict, side=event.side, now=event.at)
            return _first(sealed.forfeit(state, claim), ev.OpeningForfeited)
        case ev.BonusPlaced():
            bonus = c.PlaceBonus(
                conflict=event.conflict,
                on=event.on,
                by=event.by,
                tokens=event.count if event.kind == "token" else 0,
                talent=event.talent if event.kind == "talent" else None,
                assist=event.assist,
            )
            return _first(conflict.place_bonus(state, bonus), ev.BonusPlaced)
        case ev.TokenAwarded():
            award = c.Award(giver=event.giver, receiver=event.receiver, conflict=event.conflict)
            return _first(people.award(state, award), ev.TokenAwarded)
        case ev.VictoryCardGiven() if not event.random:
            gift = c.Give(
                conflict=event.conflict, giver=event.giver, receiver=event.receiver, card=event.card
            )
            return _first(finale.give(state, gift, no_shuffle), ev.VictoryCardGiven)
    return None


CHECKED = (
    ev.RoundRevealed,
    ev.FateResolved,
    ev.FateChosen,
    ev.ConflictClosed,
    ev.SessionStarted,
    ev.ConflictOpened,
    ev.CardPlayed,
    ev.CardSealed,
    ev.CardOpened,
    ev.OpeningForfeited,
    ev.BonusPlaced,
    ev.TokenAwarded,
    ev.VictoryCardGiven,
)


def check(state: ImprovState, seq: int, event: Event) -> list[Discrepancy]:
    """Where `event` (recorded at `seq`) differs from what the rules decide; empty if it agrees."""
    if not isinstance(event, CHECKED):
        return []
    where = event.conflict_id()
    try:
        expected = _expected(state, event)
    except (TablelogError, LookupError, StopIteration, ValueError) as exc:
        refusal = str(exc) if isinstance(exc, TablelogError) else f"unknown {exc}"
        return [_one(seq, where, event, "*", "recorded", f"refused by the rules: {refusal}")]
    if expected is None:
        return [_one(seq, where, event, "*", "recorded", "no such decision follows")]
    recorded, decided = msgspec.to_builtins(event), msgspec.to_builtins(expected)
    assert isinstance(recorded, dict)
    assert isinstance(decided, dict)
    recorded.pop("salt", None)
    decided.pop("salt", None)
    if recorded == decided:  # the usual verdict, in one comparison
        return []
    recorded_fields = _comparable(recorded)
    expected_fields = _comparable(decided)
    return [
        _one(seq, where, event, name, recorded_fields.get(name), expected_fields.get(name))
        for name in sorted(set(recorded_fields) | set(expected_fields))
        if recorded_fields.get(name) != expected_fields.get(name)
    ]


def _one(seq: int, where: str | None, event: Event, field: str, got: Any, want: Any) -> Discrepancy:
    return Discrepancy(
        seq=seq, conflict=where, type=event.type_name(), field=field, recorded=got, expected=want
    )


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: _strip(v) for k, v in data.items() if k not in _WORDING and k != "type"}


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in _WORDING}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value
