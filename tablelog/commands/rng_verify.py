"""`tablelog verify --rng`: the chain first (plain verify), then every committed shuffle
recomputed from its revealed seed and contributions (projections/rng_check.py), then every
drawn command decided again with that shuffle on the state it was drawn in: the events the
rules give must be the ones logged after its `rng.drawn` (salts aside), so an order changed
in a ruleset's own event (a deck, a die) is named too."""

from __future__ import annotations

from collections import deque
from typing import Any

import msgspec

from tablelog.commands.rng_flow import command_of
from tablelog.errors import NotFound, TablelogError
from tablelog.projections.fold import steps_before
from tablelog.projections.rng_check import Redraw, RngChecker, RngMismatch, RngReport
from tablelog.rules import rng
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
    report = checker.report()
    for name, redraws in checker.redraws.items():
        if report.first_bad is not None:
            break
        differs = _redecided(store, name, redraws)
        if differs is not None:
            report = msgspec.structs.replace(report, ok=False, first_bad=differs)
    return report


def _redecided(store: EventStore, campaign: str, redraws: dict[int, Redraw]) -> RngMismatch | None:
    expected: deque[Any] = deque()
    for envelope, event, before in steps_before(store.stream(campaign)):
        if expected:
            wanted = expected.popleft()
            found, want = _plain(event), _plain(wanted)
            if found != want:
                field = next(k for k in sorted({*found, *want}) if found.get(k) != want.get(k))
                return RngMismatch(
                    campaign=campaign,
                    seq=envelope.seq,
                    reason=f"{envelope.type} logs {field} {found.get(field)!r}; the rules, "
                    f"decided again with the committed shuffle, give {want.get(field)!r}",
                )
        redraw = redraws.get(envelope.seq)
        if redraw is None:
            continue
        try:
            command = command_of(before.ruleset, redraw.command)
            events = before.ruleset.decide(before.state, command, rng.CommittedShuffle(redraw.seed))
        except TablelogError as exc:
            return RngMismatch(
                campaign=campaign,
                seq=envelope.seq,
                reason=f"the command drawn here is refused when decided again ({exc})",
            )
        expected.extend(events)
    if expected:
        return RngMismatch(
            campaign=campaign, seq=0, reason="the log ends before a drawn command's events"
        )
    return None


def _plain(event: Any) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event)
    data.pop("salt", None)
    return data
