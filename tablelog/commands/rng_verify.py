"""`tablelog verify --rng`: the chain first (plain verify), then every committed shuffle
recomputed from its revealed seed and contributions (projections/rng_check.py)."""

from __future__ import annotations

from tablelog.errors import NotFound
from tablelog.projections.rng_check import RngChecker, RngMismatch, RngReport
from tablelog.storage import EventStore
from tablelog.storage.verify import verify_log


def verify_rng(store: EventStore, *, campaign: str | None = None) -> RngReport:
    """The first campaign whose chain breaks or whose shuffles do not recompute is named;
    requests whose seed is not revealed yet are listed as pending."""
    chain = verify_log(store, campaign=campaign)
    if chain.first_bad is not None:
        bad = chain.first_bad
        broken = RngMismatch(campaign=bad.campaign or "", seq=bad.seq or 0, reason=bad.reason)
        return RngReport(ok=False, requests=0, verified=0, pending=[], first_bad=broken)
    names = [campaign] if campaign is not None else [h.name for h in store.campaigns()]
    checker = RngChecker()
    for name in names:
        if store.head(name) is None:
            raise NotFound(f"the log holds no campaign {name}", code="no-campaign")
        checker.campaign(name, store.stream(name))
    return checker.report()
