"""Paying a fallout or a price: which pools the trump allows, and the King/Queen/Jack trades.

The one place that checks a payment and finds the only one the rules allow, if any.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablelog.errors import RuleViolation
from tablelog.rulesets.night_terrors.rules.cards import (
    PAID_IN,
    POOLS,
    RANK_NAMES,
    SUIT_NAMES,
    TRADES,
)
from tablelog.rulesets.night_terrors.rules.options import NightTerrorsOptions


@dataclass(frozen=True)
class Split:
    blood: int
    sweat: int
    tears: int
    traded_from: str | None
    traded: int

    def of(self, pool: str) -> int:
        amount: int = getattr(self, pool)
        return amount


def _words(pools: tuple[str, ...]) -> str:
    return " or ".join(p.capitalize() for p in pools)


def trade_limit(due: int, pool_now: int, options: NightTerrorsOptions) -> int:
    """How much of what a pool owes its rank may move elsewhere: floor(half of this payment's
    amount due from that pool), or with option trade_limit=pool, half of the pool as it is."""
    return due // 2 if options.trade_limit == "payment" else pool_now // 2


def check(
    given: dict[str, int],
    amount: int,
    trump: str,
    rank: str,
    pools_now: dict[str, int],
    options: NightTerrorsOptions,
) -> Split:
    """The payment `given` ({pool: amount}) if the rules allow it; RuleViolation otherwise."""
    paid = {p: given.get(p, 0) for p in POOLS}
    if any(v < 0 for v in paid.values()):
        raise RuleViolation("a payment takes 0 or more from each pool", code="nt-payment-negative")
    total = sum(paid.values())
    if total != amount:
        raise RuleViolation(
            f"payment {total} does not equal amount due {amount}", code="nt-payment-total"
        )
    allowed = PAID_IN[trump]
    outside = {p: v for p, v in paid.items() if p not in allowed and v > 0}
    if not outside:
        return Split(**paid, traded_from=None, traded=0)
    own = TRADES[rank]
    name = RANK_NAMES[rank]
    if own not in allowed:
        pools = ", ".join(f"{p.capitalize()} {v}" for p, v in outside.items())
        # One pool: name the rank whose trade it is (Spades: "only a Jack may trade Blood").
        traders = [RANK_NAMES[r] for r, p in TRADES.items() if (p,) == allowed]
        why = f" (only a {traders[0]} may trade {allowed[0].capitalize()})" if traders else ""
        raise RuleViolation(
            f"{SUIT_NAMES[trump]} costs are paid in {_words(allowed)} only{why}; {pools} given",
            code="nt-payment-pool",
        )
    moved = sum(outside.values())
    due = paid[own] + moved
    limit = trade_limit(due, pools_now[own], options)
    if moved > limit:
        raise RuleViolation(
            f"a {name} may move at most {limit} of the {due} {own.capitalize()}",
            code="nt-trade-limit",
        )
    return Split(**paid, traded_from=own, traded=moved)


def forced(
    amount: int, trump: str, rank: str, pools_now: dict[str, int], options: NightTerrorsOptions
) -> Split | None:
    """The only payment the rules allow, or None when the payer has a choice (two pools, or a
    rank trade of at least 1)."""
    allowed = PAID_IN[trump]
    if len(allowed) > 1 and amount > 0:
        return None
    only = allowed[0]
    if TRADES[rank] == only and trade_limit(amount, pools_now[only], options) > 0:
        return None
    paid = {p: (amount if p == only else 0) for p in POOLS}
    return Split(**paid, traded_from=None, traded=0)
