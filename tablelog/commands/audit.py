"""`tablelog audit`: every outcome explained, and every recorded decision checked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tablelog.errors import NotFound, StorageError
from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import Envelope
from tablelog.projections.account import Account, AuditStep, Discrepancy
from tablelog.projections.fold import Folded, InconsistentLog, steps_before
from tablelog.projections.registry import views_for
from tablelog.storage import EventStore


def account_of(envelopes: list[Envelope]) -> Account:
    """The ruleset's account of these events (a whole campaign's log, from its first event)."""
    if not envelopes:
        raise NotFound("the campaign has no events", code="no-events")
    walk = steps_before(envelopes)
    folded: list[Folded] = []

    broken: list[InconsistentLog] = []

    def steps() -> Iterator[AuditStep]:
        try:
            for envelope, event, before in walk:
                if not folded:
                    folded.append(before)
                yield AuditStep(envelope, event, before.state)
        except InconsistentLog as exc:
            broken.append(exc)  # the account stops here; the verdict names the event

    def after() -> Any:
        return folded[0].state if folded else None

    first = envelopes[0].event()
    if not isinstance(first, CampaignCreated):
        raise StorageError(
            f"campaign {envelopes[0].campaign} does not begin with campaign.created; "
            "`tablelog verify` checks the log"
        )
    account = views_for(first.ruleset).audit(envelopes[0].campaign, steps(), after)
    for exc in broken:
        account.discrepancies.append(
            Discrepancy(
                seq=exc.seq,
                conflict=exc.event.conflict_id(),
                type=exc.event.type_name(),
                field="*",
                recorded="recorded",
                expected=f"cannot be applied: {exc.message}",
            )
        )
    return account


def audit(store: EventStore, campaign: str, *, conflict: str | None = None) -> Account:
    account = account_of(list(store.read(campaign)))
    if conflict is not None:
        wanted = conflict.strip().lower()
        kept = [c for c in account.conflicts if c.conflict == wanted]
        if not kept:
            raise NotFound(f"campaign {campaign} has no conflict {conflict!r}", code="no-conflict")
        account.conflicts = kept
        # Campaign-wide decisions (a session's start) stay: they set this conflict's limits.
        account.discrepancies = [d for d in account.discrepancies if d.conflict in (wanted, None)]
    return account
