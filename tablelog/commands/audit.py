"""`tablelog audit`: every outcome explained, and every recorded decision checked."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from tablelog.errors import NotFound, StorageError
from tablelog.events.core import AccessReissued, AccessRevoked, CampaignCreated
from tablelog.events.envelope import Envelope
from tablelog.events.rng import RngDrawn
from tablelog.projections.account import Account, AuditStep, Discrepancy, Note
from tablelog.projections.book import Book, write
from tablelog.projections.fairness import missing_of
from tablelog.projections.fold import Folded, InconsistentLog, steps_before
from tablelog.projections.registry import reissued_text, revoked_text, views_for
from tablelog.rules import registry
from tablelog.storage import EventStore


def account_of(envelopes: Iterable[Envelope], *, scope: str | None = None) -> Account:
    """The ruleset's account of these events (a whole campaign's log, from its first event);
    with `scope`, of that conflict (and the campaign-wide events) only."""
    walk = iter(envelopes)
    first = next(walk, None)
    if first is None:
        raise NotFound("the campaign has no events", code="no-events")
    created = first.event()
    if not isinstance(created, CampaignCreated):
        raise StorageError(
            f"campaign {first.campaign} does not begin with campaign.created; "
            "`tablelog verify` checks the log"
        )
    walked = steps_before(chain([first], walk))
    folded: list[Folded] = []
    broken: list[InconsistentLog] = []
    access: list[Note] = []
    shuffles: list[Note] = []

    def steps() -> Iterator[AuditStep]:
        try:
            for envelope, event, before in walked:
                if not folded:
                    folded.append(before)
                if isinstance(event, AccessReissued):
                    access.append(_reissued(envelope.seq, event))
                elif isinstance(event, AccessRevoked):
                    access.append(_revoked(envelope.seq, event))
                elif isinstance(event, RngDrawn) and (gaps := missing_of(event)):
                    shuffles.append(_missing(envelope.seq, event, gaps))
                yield AuditStep(envelope, event, before.state)
        except InconsistentLog as exc:
            broken.append(exc)  # the account stops here; the verdict names the event

    rules = registry.get(created.ruleset)

    def after() -> Any:
        # The Folded moved on with the walk; a log of one event never started it.
        return folded[0].state if folded else rules.initial(created)

    book = Book(first.campaign, rules.name, scope)
    auditor = views_for(rules.name).auditor()
    account = write(book, auditor, steps(), rules.table, after)
    account.access = access
    account.shuffles = shuffles
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


def _reissued(seq: int, event: AccessReissued) -> Note:
    data = {"player": event.player, "role": event.role, "revoked": event.revoked, "by": event.by}
    return Note(seq=seq, kind="access-reissued", text=reissued_text(event, seq), data=data)


def _revoked(seq: int, event: AccessRevoked) -> Note:
    data = {"player": event.player, "revoked": event.revoked, "by": event.by}
    return Note(seq=seq, kind="access-revoked", text=revoked_text(event, seq), data=data)


def _missing(seq: int, event: RngDrawn, gaps: str) -> Note:
    data = {"request": event.request, "absent": event.absent, "withheld": event.withheld}
    text = f"shuffle {event.request} drawn at seq {seq}: {gaps}"
    return Note(seq=seq, kind="rng-missing", text=text, data=data)


def audit(store: EventStore, campaign: str, *, conflict: str | None = None) -> Account:
    """The account of the campaign (streamed from its log, never held whole), or of one
    conflict: every event is folded, only that conflict's and the campaign-wide ones are
    checked and explained."""
    wanted = conflict.strip().lower() if conflict is not None else None
    account = account_of(store.stream(campaign), scope=wanted)
    if wanted is not None:
        account.conflicts = [c for c in account.conflicts if c.conflict == wanted]
        if not account.conflicts:
            raise NotFound(f"campaign {campaign} has no conflict {conflict!r}", code="no-conflict")
        # Campaign-wide decisions (a session's start) stay: they set this conflict's limits.
        account.discrepancies = [d for d in account.discrepancies if d.conflict in (wanted, None)]
    return account
