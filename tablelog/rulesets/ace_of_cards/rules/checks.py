"""The one place that decides a Check (Fabula Ultima's core terms, rules/ace-of-cards.md):
its Result, critical and fumble, success, Double or Nothing, damage and Clock sections.

Called by the command that rolls a Check, by the audit and by the views alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

DIE_SIZES = (6, 8, 10, 12)
OPPORTUNITY_SECTIONS = 2


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    result: int
    crit: bool
    fumble: bool
    success: bool
    doubled: bool
    critical_failure: bool
    damage: int | None
    sections: int | None
    rule: str

    @property
    def high_or_low(self) -> bool:
        """High or Low may be used: a critical success, a fumble, or a critical failure."""
        return self.crit or self.fumble or self.critical_failure


def rolled(values: Sequence[int], modifier: int) -> tuple[int, bool, bool]:
    """Result, critical success (both dice alike and >= 6), fumble (double 1)."""
    a, b = values
    return a + b + modifier, a == b and a >= 6, a == b == 1


def clock_sections(result: int, dl: int) -> int:
    """A successful Check fills 1, plus 1 more if it beat the DL by >= 3, or 2 more by >= 6."""
    margin = result - dl
    return 1 + (2 if margin >= 6 else 1 if margin >= 3 else 0)


def outcome(
    *,
    kind: str,
    values: Sequence[int],
    modifier: int,
    dl: int,
    damage: int | None,
    double: bool,
    don_miss: str,
    opportunity_on_clock: bool = False,
) -> Outcome:
    result, crit, fumble = rolled(values, modifier)
    plain = crit or (not fumble and result >= dl)
    why = f"{values[0]} + {values[1]}" + (f" {modifier:+d}" if modifier else "")
    why += f" = {result} against {dl}"
    if crit:
        why += f": critical success (both dice {values[0]}, >= 6)"
    elif fumble:
        why += ": fumble (double 1)"
    else:
        why += ": success" if plain else ": failure"
    critical_failure = fumble
    success, doubled = plain, False
    if double:
        if crit:
            doubled = True
            why += "; double or nothing doubles it"
        else:
            success = False
            if don_miss == "fumble":
                critical_failure = True
                why += "; double or nothing without a critical: a critical failure"
            elif plain:
                why += "; double or nothing without a critical: the success becomes a failure"
    dealt: int | None = None
    if kind in ("accuracy", "magic") and damage is not None and success:
        high = max(values)
        dealt = (high + damage) * (2 if doubled else 1)
        why += f"; damage HR {high} + {damage}" + (f" = {high + damage}, x 2" if doubled else "")
        why += f" = {dealt}"
    sections: int | None = None
    if kind == "clock":
        if success:
            base = clock_sections(result, dl)
            extra = OPPORTUNITY_SECTIONS if opportunity_on_clock else 0
            sections = (base + extra) * (2 if doubled else 1)
            filled = f"{base} + {extra} (the opportunity)" if extra else str(base)
            if doubled:
                filled = f"({filled}) x 2" if extra else f"{filled} x 2"
            shown = filled if filled == str(sections) else f"{filled} = {sections}"
            why += f"; margin {result - dl}: {shown} section(s)"
        else:
            sections = 0
    return Outcome(
        result=result,
        crit=crit,
        fumble=fumble,
        success=success,
        doubled=doubled,
        critical_failure=critical_failure,
        damage=dealt,
        sections=sections,
        rule=why,
    )
