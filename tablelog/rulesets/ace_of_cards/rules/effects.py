"""What a set's effect does at this table: its targets, damage type, statuses and the HP and
MP each member of the party regains (capped at each maximum). One pure function,
`effect_of`, called by the command and by the audit."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.rules.names import player_name
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import sets as s
from tablelog.rulesets.ace_of_cards.rules.cards import Resolved
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Conflict


def _recovered(state: AceState, conflict: Conflict, amount: int) -> list[ev.Recovery]:
    """You and every ally present regain `amount` HP and MP, never above the maximum."""
    found = []
    for key in conflict.party:
        who = state.characters[key]
        found.append(
            ev.Recovery(
                character_id=key,
                hp=min(amount, who.max_hp - who.hp),
                mp=min(amount, who.max_mp - who.mp),
            )
        )
    return found


def _targets(conflict: Conflict, given: Sequence[str]) -> list[str]:
    """Double Trouble: up to 2 different enemies you can see (default: the only 1 or 2)."""
    if not given:
        if len(conflict.enemies) > 2:
            raise InvalidInput(
                "Double Trouble hits up to 2 different enemies you can see; name them "
                f"(--target) among {', '.join(conflict.enemies)}",
                code="choose-targets",
            )
        return list(conflict.enemies)
    keys = [player_name(t, "target") for t in given]
    if len(set(keys)) != len(keys) or len(keys) > 2:
        raise RuleViolation(
            f"Double Trouble hits up to 2 different enemies; {', '.join(keys)} given",
            code="targets",
        )
    for key in keys:
        if key not in conflict.enemies:
            raise RuleViolation(
                f"{key} is not an enemy present in conflict {conflict.key}", code="targets"
            )
    return keys


def _damage_type(
    name: str, cards: Sequence[Resolved], suit_types: dict[str, str], given: str | None
) -> str | None:
    fixed = s.fixed_type(name, cards, suit_types)
    choices = s.type_choices(name, cards, suit_types)
    if given is None:
        if len(choices) > 1:
            raise InvalidInput(
                f"{s.NAMES[name]}'s damage type is one of the resolved suits' types: choose "
                f"one of {', '.join(choices)}",
                code="choose-type",
            )
        return fixed or (choices[0] if choices else None)
    kind = given.strip().lower()
    if not choices:
        raise InvalidInput(
            f"{s.NAMES[name]} leaves no damage type to choose"
            + (f" (it is {fixed})" if fixed else ""),
            code="no-choice",
        )
    if kind not in choices:
        raise RuleViolation(
            f"{s.NAMES[name]}'s damage type is one of the resolved suits' types "
            f"({', '.join(choices)}); {kind} given",
            code="bad-type",
        )
    return kind


def _statuses(name: str, given: Sequence[str]) -> list[str]:
    keys = [g.strip().lower() for g in given]
    if name != s.FULL_STATUS:
        if keys:
            raise InvalidInput(
                f"only Full Status takes statuses; the set is {s.NAMES[name]}", code="no-choice"
            )
        return []
    if len(set(keys)) != 2 or any(k not in s.STATUSES for k in keys):
        raise RuleViolation(
            f"Full Status: choose two of {', '.join(s.STATUSES)}; "
            f"{', '.join(keys) or 'none'} given",
            code="statuses",
        )
    return keys


def effect_of(
    state: AceState,
    conflict: Conflict,
    character: str,
    name: str,
    cards: Sequence[Resolved],
    *,
    targets: Sequence[str] = (),
    damage_type: str | None = None,
    statuses: Sequence[str] = (),
) -> ev.SetEffectApplied:
    """The effect of set `name` played by `character` (its MP already spent), the Ace's
    choices checked against the rules."""
    who = state.characters[character]
    suit_types = who.suit_types or {}
    if targets and name != s.DOUBLE_TROUBLE:
        raise InvalidInput(
            f"only Double Trouble takes targets; {s.NAMES[name]} hits every enemy present"
            if name in (s.MAGIC_FLUSH, s.BLINDING_FLUSH)
            else f"{s.NAMES[name]} takes no targets",
            code="no-choice",
        )
    kind = _damage_type(name, cards, suit_types, damage_type)
    chosen = _statuses(name, statuses)
    amount = s.amount_of(name, cards)
    base = ev.SetEffectApplied(
        conflict=conflict.key, character_id=character, set=name, amount=amount, damage_type=kind
    )
    if name in (s.MAGIC_FLUSH, s.BLINDING_FLUSH):
        return _with(base, targets=list(conflict.enemies))
    if name == s.DOUBLE_TROUBLE:
        return _with(base, targets=_targets(conflict, targets))
    if name in (s.JACKPOT, s.TRIPLE_SUPPORT):
        assert amount is not None
        return _with(
            base, targets=list(conflict.party), recovered=_recovered(state, conflict, amount)
        )
    if name == s.FULL_STATUS:
        cured = s.cures(cards)
        return _with(
            base,
            statuses=chosen,
            cured=cured,
            targets=list(conflict.party if cured else conflict.enemies),
        )
    return base  # Magic Pair: a free attack (a Check of its own), its damage of this type


def _with(base: ev.SetEffectApplied, **changes: object) -> ev.SetEffectApplied:
    return msgspec.structs.replace(base, **changes)
