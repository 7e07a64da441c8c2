"""The Ace of Cards audit's checks: each recorded decision recomputed from the state before
it by the rules' own functions (sets.fits, effects.effect_of, checks.outcome), and every
stored random fact checked against the cards it came from."""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.errors import TablelogError
from tablelog.events import ace_of_cards as ev
from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy
from tablelog.rules.ace_of_cards.cards import is_joker, suit_of
from tablelog.rules.ace_of_cards.checks import outcome, rolled
from tablelog.rules.ace_of_cards.effects import effect_of
from tablelog.rules.ace_of_cards.play import resolve
from tablelog.rules.ace_of_cards.sets import fits
from tablelog.rules.ace_of_cards.state import AceState


def found(seq: int, event: Event, field: str, recorded: Any, expected: Any) -> Discrepancy:
    return Discrepancy(
        seq=seq,
        conflict=event.conflict_id(),
        type=event.type_name(),
        field=field,
        recorded=msgspec.to_builtins(recorded),
        expected=msgspec.to_builtins(expected),
    )


def _compare(seq: int, event: Event, expected: dict[str, Any]) -> list[Discrepancy]:
    return [
        found(seq, event, name, getattr(event, name), value)
        for name, value in expected.items()
        if getattr(event, name) != value
    ]


class Checker:
    def __init__(self) -> None:
        self.used: dict[str, ev.MagicCardsUsed] = {}  # conflict -> its latest Magic Cards

    def check(self, state: AceState, seq: int, event: Event) -> list[Discrepancy]:
        match event:
            case ev.MagicCardsUsed():
                self.used[event.conflict] = event
                cards = resolve(event.cards, event.jokers)
                fitting = fits(cards, state.options.same_value_groups)
                chosen = event.set if event.set in fitting else (fitting[0] if fitting else None)
                return _compare(seq, event, {"fits": fitting, "set": chosen})
            case ev.SetEffectApplied():
                return self._effect(state, seq, event)
            case ev.CardsDrawn():
                return self._drawn(state, seq, event)
            case ev.TrapCardRevealed():
                pile = state.characters[event.character_id].pile
                hit = is_joker(event.card) or suit_of(event.card) == event.named_suit
                wanted: dict[str, Any] = {"hit": hit}
                if pile is not None and pile.deck and state.options.deck_mode == "managed":
                    wanted["card"] = pile.deck[-1]
                return _compare(seq, event, wanted)
            case ev.CheckRolled():
                result, crit, fumble = rolled([d.value for d in event.dice], event.modifier)
                return _compare(seq, event, {"result": result, "crit": crit, "fumble": fumble})
            case ev.CheckResolved():
                return self._resolved(state, seq, event)
        return []

    def _effect(self, state: AceState, seq: int, event: ev.SetEffectApplied) -> list[Discrepancy]:
        used = self.used.get(event.conflict)
        if used is None:
            return [found(seq, event, "set", event.set, None)]
        try:
            expected = effect_of(
                state,
                state.conflicts[event.conflict],
                event.character_id,
                event.set,
                resolve(used.cards, used.jokers),
                targets=event.targets if event.set == "double-trouble" else (),
                damage_type=event.damage_type
                if event.set in ("double-trouble", "magic-pair")
                else None,
                statuses=event.statuses,
            )
        except TablelogError as exc:
            return [found(seq, event, "set", event.set, exc.message)]
        names = ("set", "amount", "damage_type", "targets", "statuses", "cured", "recovered")
        return _compare(seq, event, {n: getattr(expected, n) for n in names})

    def _drawn(self, state: AceState, seq: int, event: ev.CardsDrawn) -> list[Discrepancy]:
        pile = state.characters[event.character_id].pile
        if pile is None:
            return [found(seq, event, "cards", event.cards, None)]
        if state.options.deck_mode == "managed":
            return _compare(seq, event, {"cards": pile.deck[: len(event.cards)]})
        missing = [card for card in event.cards if card not in pile.deck]
        return [found(seq, event, "cards", missing, [])] if missing else []

    def _resolved(self, state: AceState, seq: int, event: ev.CheckResolved) -> list[Discrepancy]:
        check = state.conflicts[event.conflict].checks.get(event.check_id)
        if check is None or check.values is None:
            return [found(seq, event, "check_id", event.check_id, None)]
        decided = outcome(
            kind=check.kind,
            values=check.values,
            modifier=check.modifier,
            dl=check.dl,
            damage=check.damage,
            double=check.double,
            don_miss=state.options.don_miss,
            opportunity_on_clock=event.opportunity_on_clock,
        )
        ace = state.characters[event.character_id].cards is not None
        return _compare(
            seq,
            event,
            {
                "success": decided.success,
                "doubled": decided.doubled,
                "critical_failure": decided.critical_failure,
                "damage": decided.damage,
                "sections": decided.sections,
                "high_or_low": decided.high_or_low and ace,
            },
        )
