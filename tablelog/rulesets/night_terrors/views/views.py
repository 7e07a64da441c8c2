"""Night Terrors views: `state --json` (the top-level keys every ruleset shares, then its own)
and `night-terrors show --json`.

`viewer` None is the operator's own view (everything); a player key (or `gm`) sees only its own
characters' hands (the others' as a count). Raises and answers are face up: public.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.errors import Forbidden
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import flow
from tablelog.rulesets.night_terrors.rules.state import (
    Character,
    Conflict,
    Exchange,
    NightTerrorsState,
)
from tablelog.rulesets.night_terrors.views.text import (
    Names,
    answer_words,
    emptied_words,
    escalated_words,
    left_words,
    paid_words,
    spellings,
)
from tablelog.rulesets.night_terrors.views.visibility import sees_hand


def character_view(
    state: NightTerrorsState, character: Character, viewer: str | None
) -> dict[str, Any]:
    shown = sees_hand(state, character.key, viewer)
    owed = state.draws.get(character.key)
    return {
        "name": character.display,
        "player": character.player,
        "card": character.rank + character.suit,
        "rank": character.rank,
        "suit": character.suit,
        "blood": character.blood,
        "sweat": character.sweat,
        "tears": character.tears,
        "hand": list(character.hand) if shown else None,
        "hand_size": len(character.hand),
        "held": character.held if shown else None,
        "emptied": list(character.emptied),
        "draw": owed.count if owed else 0,
        "discard": state.discards.get(character.key, 0),
        "costs": [
            {"conflict": c.conflict, "cause": c.cause, "amount": c.amount}
            for c in state.costs.get(character.key, [])
        ],
    }


def beats(found: Conflict) -> list[list[str]]:
    """[winner, loser] for each winner and each participant out, once the conflict ended."""
    if found.status != "ended":
        return []
    return [
        [w, lo]
        for w in found.winners
        for lo in found.opened.participants
        if lo not in found.winners
    ]


def conflict_summary(state: NightTerrorsState, found: Conflict) -> dict[str, Any]:
    exchange = found.current
    opened = found.opened
    live = found.status == "open"
    return {
        "status": found.status,
        "type": found.conflict_type,
        "trump": found.trump,
        "aggressor": opened.aggressor,
        "participants": list(opened.participants),
        "in": list(found.still_in),
        "left": dict(found.left),
        "stakes": opened.stakes,
        "place": opened.place,
        "approach": opened.approach,
        "exchange": len(found.exchanges) or found.exchange_count,
        "raise": None
        if exchange is None or not live
        else {**_raise(exchange.raised), "owing": list(exchange.owing) if live else []},
        "next_raiser": flow.next_raiser(state, found)
        if live and flow.exchange_over(state, found)
        else None,
        "winners": list(found.winners),
        "rule": found.rule,
        "beats": beats(found),
    }


def _raise(raised: ev.RaiseMade) -> dict[str, Any]:
    return {
        "raiser": raised.raiser,
        "cards": list(raised.cards),
        "value": raised.value,
        "trump_value": raised.trump_value,
        "trump_at_raise": raised.trump_at_raise,
        "reversal_card": raised.reversal_card,
        "narration": raised.narration,
    }


def _step_words(step: Any, names: Names) -> str:
    """A step in words, characters named as created (the view's values stay keys)."""
    match step:
        case ev.RaiseAnswered():
            return answer_words(step, names)
        case ev.ConflictEscalated():
            return escalated_words(step, names)
        case ev.CostPaid():
            return paid_words(step, names)
        case ev.PoolEmptied():
            return emptied_words(step, names)
        case ev.ParticipantLeft():
            return left_words(step, names)
    return ""


def exchange_view(exchange: Exchange, live: bool, names: Names) -> dict[str, Any]:
    return {
        "raise": _raise(exchange.raised),
        "answers": [_without(msgspec.to_builtins(a), "conflict", "type") for a in exchange.answers],
        "steps": [_step_words(s, names) for s in exchange.steps],
        "owing": list(exchange.owing) if live else [],
    }


def _without(data: Any, *names: str) -> dict[str, Any]:
    assert isinstance(data, dict)
    return {k: v for k, v in data.items() if k not in names}


def show_view(state: NightTerrorsState, found: Conflict, viewer: str | None) -> dict[str, Any]:
    live = found.status == "open"
    names = spellings(state)
    return {
        "conflict": found.key,
        **conflict_summary(state, found),
        "exchanges": [
            exchange_view(x, live and x is found.current, names) for x in found.exchanges
        ],
        "narrations": [list(n) for n in found.narrations],
    }


def kept_at(state: NightTerrorsState, given: str | None) -> int | None:
    """The seq whose state still holds an ended conflict's exchanges (see Conflict.kept_at)."""
    return flow.conflict(state, given).kept_at


def show(state: NightTerrorsState, given: str | None, viewer: str | None) -> dict[str, Any]:
    """`show`: the conflict `given` names (None: the only open one)."""
    return show_view(state, flow.conflict(state, given), viewer)


def state_view(state: NightTerrorsState, viewer: str | None = None) -> dict[str, Any]:
    """Night Terrors' own keys of `state --json` (core code puts the shared ones first)."""
    return {
        "options": msgspec.to_builtins(state.options),
        "deck": len(state.deck),
        "set_aside": len(state.set_aside),
        "characters": {
            key: character_view(state, c, viewer) for key, c in state.characters.items()
        },
        "conflicts": {key: conflict_summary(state, c) for key, c in state.conflicts.items()},
    }


def hand(state: NightTerrorsState, name: str, viewer: str | None) -> dict[str, Any]:
    """A character's hand, shown only to its player (the GM's for an NPC); `viewer` None:
    the local operator sees any."""
    who = flow.character(state, name)
    if not sees_hand(state, who.key, viewer):
        owner = "the GM (an NPC)" if who.player == state.gm else "its player"
        raise Forbidden(f"{who.display}'s hand is visible to {owner} only", code="not-yours")
    owed = state.draws.get(who.key)
    return {
        "character": who.key,
        "name": who.display,
        "cards": list(who.hand),
        "held": who.held,
        "deck": len(state.deck),
        "draw": owed.count if owed else 0,
        "discard": state.discards.get(who.key, 0),
    }
