"""Bid & Challenge views: `state --json` (the top-level keys every ruleset shares, then its
own) and `bid-and-challenge show --json`.

Nothing in this ruleset is hidden: cards go into Play face up, decks are the characters' own
sheets and every roll is public, so every viewer sees the same views.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import lookup
from tablelog.rulesets.bid_and_challenge.rules.cards import value_text
from tablelog.rulesets.bid_and_challenge.rules.narration import decided
from tablelog.rulesets.bid_and_challenge.rules.state import (
    BidAndChallengeState,
    Holder,
    Round,
    Scene,
)


def holder_view(holder: Holder) -> dict[str, Any]:
    return {
        "cards": {
            key: {"name": card.name, "value": value_text(card.dice, card.mod)}
            for key, card in holder.cards.items()
        },
        "deck": holder.in_zone("deck"),
        "play": holder.in_zone("play"),
        "discard": holder.in_zone("discard"),
    }


def state_view(state: BidAndChallengeState, viewer: str | None = None) -> dict[str, Any]:
    """Bid & Challenge's own keys of `state --json` (core code puts the shared ones first)."""
    return {
        "options": msgspec.to_builtins(state.options),
        "players": sorted(state.players),
        "characters": {
            key: {
                "name": who.name,
                "player": who.player,
                "flow": who.flow,
                "dead": who.dead,
                **holder_view(who),
            }
            for key, who in sorted(state.characters.items())
        },
        "universe": holder_view(state.universe),
        "details": {
            key: {"text": d.text, "by": d.by, "scene": d.conflict}
            for key, d in state.details.items()
        },
        "conflicts": {key: summary(s) for key, s in state.scenes.items()},
    }


def kept_at(state: BidAndChallengeState, given: str | None) -> int | None:
    """The seq whose state still holds a compacted scene whole (None: this state does)."""
    if given is None:
        return None
    found = state.scenes.get(given.strip().lower())
    return found.ended_at if found is not None and found.compacted else None


def summary(scene: Scene) -> dict[str, Any]:
    rnd = scene.current if scene.rounds and scene.status == "open" else None
    return {
        "kind": "scene",
        "status": scene.status,
        "seating": list(scene.seating),
        "starting": scene.starting,
        "requested_by": scene.requested_by,
        "premise": scene.premise,
        "round": scene.round_number,
        "active": rnd.active if rnd else None,
        "phase": rnd.phase if rnd else "ended",
        "waiting_for": lookup.waiting_for(scene),
        "offer": _offer(rnd),
        "passes": scene.passes,
        "ended": scene.ended_reason or None,
        "beats": scene.beats(),
        "outcome": _outcome(scene),
        "narration_due": _narration_due(scene),
    }


def _outcome(scene: Scene) -> list[str]:
    """Each decided round in words, unchallenged ones too (`whatif` compares them: a bid won
    unopposed, and what it defined, is an outcome that `beats` alone does not show). A scene
    kept compact after its end has only its beats."""
    lines = []
    for rnd in [] if scene.compacted else scene.rounds:
        if rnd.resolved is None:
            continue
        how = "unchallenged" if rnd.resolved.loser is None else f"over {rnd.resolved.loser}"
        defined = "; ".join(f"defines {d.detail_id} ({d.text})" for d in rnd.details)
        lines.append(
            f"round {rnd.number}: {rnd.resolved.winner} wins {how}"
            + (f"; {defined}" if defined else "")
        )
    return lines


def _narration_due(scene: Scene) -> dict[str, Any] | None:
    """The round its winner may still narrate ({round, winner}), or None."""
    rnd = None if scene.compacted else decided(scene)
    if rnd is None or rnd.resolved is None or rnd.narration is not None:
        return None
    return {"round": rnd.number, "winner": rnd.resolved.winner}


def _offer(rnd: Round | None) -> dict[str, Any] | None:
    """The challenge offer under way: who answers it, the how-manieth of how many asked
    (rules/bid-and-challenge.md's "challenge-offer i of n"); None outside one."""
    if rnd is None or rnd.asked is None:
        return None
    return {"asked": rnd.asked, "at": len(rnd.declined) + 1, "of": len(rnd.offers)}


def show(state: BidAndChallengeState, given: str | None, viewer: str | None) -> dict[str, Any]:
    scene = lookup.scene(state, given)
    return {
        "conflict": scene.key,
        **summary(scene),
        "rounds": [round_view(r) for r in scene.rounds],
    }


def _power(power: ev.Power | None) -> dict[str, Any] | None:
    if power is None:
        return None
    shown: dict[str, Any] = msgspec.to_builtins(power)
    return {k: v for k, v in shown.items() if v not in (None, [])}


def _side(roll: ev.DiceRolled | None) -> dict[str, Any] | None:
    if roll is None:
        return None
    return {
        "character": roll.character,
        "rolls": [{"card": r.card_id, "faces": r.faces, "mod": r.mod} for r in roll.rolls],
        "total": roll.total,
    }


def round_view(rnd: Round) -> dict[str, Any]:
    bid, challenge, resolved = rnd.bid, rnd.challenge, rnd.resolved
    return {
        "round": rnd.number,
        "active": rnd.active,
        "phase": rnd.phase,
        "passed": rnd.passed,
        "bid": None
        if bid is None
        else {"description": bid.description, "cards": bid.cards, "power": _power(bid.power)},
        "offers": rnd.offers if bid is not None else [],
        "declined": rnd.declined,
        "challenge": None
        if challenge is None
        else {
            "challenger": challenge.challenger,
            "description": challenge.description,
            "cards": [{"card": c.card_id, "source": c.source} for c in challenge.cards],
            "power": _power(challenge.power),
        },
        "push": None
        if rnd.push is None
        else {"description": rnd.push.revised_description, "cards": rnd.push.cards},
        "rolls": {side: _side(rnd.rolls.get(side)) for side in ("active", "challenger")},
        "winner": resolved.winner if resolved else None,
        "loser": resolved.loser if resolved else None,
        "rule": resolved.rule if resolved else None,
        "power_void": resolved.power_void if resolved else "",
        "narration": None
        if rnd.narration is None
        else {"player": rnd.narration.player, "text": rnd.narration.text},
        "moves": [
            {"card": m.card_id, "owner": m.owner, "from": m.from_, "to": m.to, "reason": m.reason}
            for m in rnd.moves
        ],
        "details": [{"detail": d.detail_id, "text": d.text, "by": d.by} for d in rnd.details],
        "universe_cards": [
            {"card": u.card_id, "value": value_text(u.dice, u.mod), "by": u.by} for u in rnd.created
        ],
    }
