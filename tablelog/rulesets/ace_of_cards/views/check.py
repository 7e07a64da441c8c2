"""The Ace of Cards audit's checks: each recorded decision recomputed from the state before
it by the rules' own functions (sets.fits, effects.effect_of, checks.outcome), every limited
card play (Magic Cards' MP, Mulligan, a Trap Card's trigger, its free spell) re-checked by
the rules' own refusals, and every stored random fact checked against the cards it came
from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.cards import is_joker, suit_of
from tablelog.rulesets.ace_of_cards.rules.checkflow import double_allowed, may_draw, pair_type
from tablelog.rulesets.ace_of_cards.rules.checks import outcome, rolled
from tablelog.rulesets.ace_of_cards.rules.effects import effect_of
from tablelog.rulesets.ace_of_cards.rules.play import (
    free_spell,
    magic_limits,
    mulligan_limits,
    resolve,
    trap_card,
)
from tablelog.rulesets.ace_of_cards.rules.sets import fits
from tablelog.rulesets.ace_of_cards.rules.state import AceState


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


def _allowed(seq: int, event: Event, decide: Callable[[], object]) -> list[Discrepancy]:
    """A limited play (Magic Cards' MP, a Trap Card's trigger, its free spell's window and
    cost) re-checked by the rules' own function on the state before it."""
    try:
        decide()
    except TablelogError as exc:
        return [found(seq, event, "*", "recorded", f"refused by the rules: {exc}")]
    return []


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
                return _allowed(
                    seq,
                    event,
                    lambda: magic_limits(
                        state, event.conflict, event.character_id, event.mp_spent, event.cards
                    ),
                ) + _compare(seq, event, {"fits": fitting, "set": chosen})
            case ev.MulliganTaken():  # after its discards and draws, which no limit reads
                who = state.characters[event.character_id]
                return _allowed(seq, event, lambda: mulligan_limits(who, len(event.discarded)))
            case ev.FreeSpellCast():
                spell = c.FreeSpell(
                    conflict=event.conflict,
                    character=event.character_id,
                    spell=event.spell,
                    mp=event.mp_cost,
                )
                return _allowed(seq, event, lambda: free_spell(state, spell))
            case ev.SetEffectApplied():
                return self._effect(state, seq, event)
            case ev.CardsDrawn():
                return self._drawn(state, seq, event)
            case ev.TrapCardRevealed():
                trap = c.TrapCard(
                    conflict=event.conflict,
                    character=event.character_id,
                    suit=event.named_suit,
                    action=event.trigger_action_id,
                    card=event.card if state.options.deck_mode == "recorded" else None,
                )
                refused = _allowed(seq, event, lambda: trap_card(state, trap))
                if refused:
                    return refused
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
            case ev.DoubleOrNothingDeclared():
                check = state.conflicts[event.conflict].checks[event.check_id]
                who = state.characters[event.character_id]
                return _allowed(
                    seq, event, lambda: double_allowed(state, who, check.kind, check.offensive)
                )
            case ev.CheckCalled() if event.magic_pair is not None:
                # The Magic Pair its player just played, and an Accuracy Check (a weapon's).
                pending = state.characters[event.character_id].free_attack
                pair = pending if event.kind == "accuracy" else None
                return _compare(seq, event, {"magic_pair": pair})
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
        who = state.characters[event.character_id]
        found_in = state.conflicts[event.conflict]
        return _compare(
            seq,
            event,
            {
                "success": decided.success,
                "doubled": decided.doubled,
                "critical_failure": decided.critical_failure,
                "damage": decided.damage,
                "sections": decided.sections,
                "high_or_low": decided.high_or_low and may_draw(state, who),
                "damage_type": pair_type(found_in, check, decided.damage),
            },
        )
