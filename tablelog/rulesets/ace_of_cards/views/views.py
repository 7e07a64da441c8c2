"""Ace of Cards views: `state --json` (the top-level keys every ruleset shares, then its own)
and `ace-of-cards show --json`.

`viewer` None is the operator's own view (everything, the deck's order included); a player
key (or `gm`) sees a hand only if it is its own Ace's, and no deck's order: only how many
cards it holds.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.errors import Forbidden, RuleViolation
from tablelog.rulesets.ace_of_cards.rules import flow
from tablelog.rulesets.ace_of_cards.rules.sets import NAMES
from tablelog.rulesets.ace_of_cards.rules.state import (
    SKILLS,
    AceState,
    Character,
    Conflict,
    Reaction,
)
from tablelog.rulesets.ace_of_cards.views import text
from tablelog.rulesets.ace_of_cards.views.visibility import owner, sees_hand


def cards_view(state: AceState, who: Character, viewer: str | None) -> dict[str, Any] | None:
    pile = who.pile
    if pile is None:
        return None
    mine = sees_hand(state, who.key, viewer)
    return {
        "deck": len(pile.deck),
        "deck_order": list(pile.deck) if viewer is None else None,
        "hand": list(pile.hand) if mine else None,
        "hand_size": len(pile.hand),
        "discard": list(pile.discard),
    }


def character_view(state: AceState, who: Character, viewer: str | None) -> dict[str, Any]:
    return {
        "name": who.display,
        "player": who.player,
        "hp": who.hp,
        "max_hp": who.max_hp,
        "mp": who.mp,
        "max_mp": who.max_mp,
        "ace": who.cards is not None,
        "benefit": who.benefit,
        "suit_types": who.suit_types,
        "skills": {skill: who.sl(skill) for skill in SKILLS},
        "conflict": who.conflict,
        "cards": cards_view(state, who, viewer),
        "high_or_low": who.high_or_low,
        "owes_discard": who.owes_discard is not None,
        "mulligan_done": who.mulligan_done,
        "trap_hit": who.trap_window,
        "free_attack": who.free_attack,  # its Magic Pair (the set's index) may attack now
    }


def conflict_summary(conflict: Conflict) -> dict[str, Any]:
    summary = _summary(conflict)
    # What beats cannot say (amounts, damage types, statuses): whatif compares it too.
    summary["outcome"] = text.outcome(summary)
    return summary


def _summary(conflict: Conflict) -> dict[str, Any]:
    return {
        "status": conflict.status,
        "party": list(conflict.party),
        "enemies": list(conflict.enemies),
        "actions": [
            {
                "id": a.action_id,
                "actor": a.actor,
                "enemy": a.enemy,
                "visible": a.visible,
                "text": a.text,
            }
            for a in conflict.actions
        ],
        "checks": {
            key: {
                "character": k.character_id,
                "kind": k.kind,
                "offensive": k.offensive,
                "dice": [f"d{s}" for s in k.sizes],
                "modifier": k.modifier,
                "dl": k.dl,
                "damage": k.damage,
                "target": k.target,
                "magic_pair": k.magic_pair,  # the free attack of this set (its index)
                "damage_type": k.damage_type,
                "double_or_nothing": k.double,
                "rolled": k.values,
                "success": k.success,
                "dealt": k.dealt,
                "sections": k.sections,
                "rule": k.rule,
            }
            for key, k in conflict.checks.items()
        },
        "sets": [
            {
                "character": p.character_id,
                "mp": p.mp_spent,
                "cards": list(p.cards),
                "set": p.set,
                "name": NAMES.get(p.set or "", text.NO_EFFECT),
                "amount": p.amount,
                "damage_type": p.damage_type,
                "targets": list(p.targets),
                "statuses": list(p.statuses),
                "cured": p.cured,
                "attack": p.attack,  # Magic Pair: its free attack's Check
            }
            for p in conflict.sets
        ],
        "reactions": [reaction_view(r) for r in conflict.reactions],
        # [dealer, enemy] for each enemy a set or a Check dealt damage to (whatif compares).
        "beats": [list(b) for b in conflict.beats],
        # What happened in order: [kind, ref], ref an action's or check's id or an index into
        # sets or reactions.
        "order": [list(o) for o in conflict.order],
    }


def reaction_view(reaction: Reaction) -> dict[str, Any]:
    """A reaction's public facts (a draw is counted, never named), without the empty ones."""
    facts: dict[str, Any] = {"kind": reaction.kind, "character": reaction.character_id}
    for key, value in msgspec.structs.asdict(reaction).items():
        if key not in ("kind", "character_id") and value is not None and value != []:
            facts[key] = value
    return facts


def state_view(state: AceState, viewer: str | None = None) -> dict[str, Any]:
    """Ace of Cards' own keys of `state --json` (core code puts the shared ones first)."""
    return {
        "options": msgspec.to_builtins(state.options),
        "players": sorted(k for k in state.players if k != state.gm),
        "characters": {
            key: character_view(state, who, viewer) for key, who in sorted(state.characters.items())
        },
        "conflicts": {key: conflict_summary(c) for key, c in state.conflicts.items()},
    }


def show(state: AceState, given: str | None, viewer: str | None) -> dict[str, Any]:
    """`show`: the conflict `given` names (None: the only open one), its Aces' cards too."""
    conflict = flow.conflict(state, given)
    aces = {
        key: cards_view(state, state.characters[key], viewer)
        for key in conflict.party
        if state.characters[key].conflict == conflict.key and state.characters[key].pile is not None
    }
    return {"conflict": conflict.key, **conflict_summary(conflict), "aces": aces}


def hand(state: AceState, who: str, viewer: str | None) -> dict[str, Any]:
    """An Ace's hand, shown only to its player (`viewer` None: the local operator sees any),
    with the deck's size and the discard pile (face up)."""
    ace = flow.character(state, who)
    if viewer is not None and not sees_hand(state, ace.key, viewer):
        whose = "the GM's" if owner(state, ace.key) == "gm" else f"{ace.player}'s"
        raise Forbidden(f"{ace.display}'s hand is {whose} to see only", code="not-yours")
    flow.has_deck(ace)  # a party member without the class has no hand in any conflict
    if ace.pile is None:
        raise RuleViolation(
            f"deck, hand and discard exist only during a conflict; {ace.display} is in none",
            code="not-in-conflict",
        )
    return {
        "character": ace.key,
        "conflict": ace.conflict,
        "cards": list(ace.pile.hand),
        "deck": len(ace.pile.deck),
        "discard": list(ace.pile.discard),
    }
