"""Replaying a campaign: its state after each event, from the first, up to any seq."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tablelog.events.envelope import Envelope
from tablelog.projections.fold import Folded, fold_steps
from tablelog.storage import EventStore


@dataclass
class Step:
    envelope: Envelope
    folded: Folded  # the state right after `envelope`; valid until the next step is taken


def replay(
    store: EventStore, campaign: str, *, conflict: str | None = None, upto: int | None = None
) -> Iterator[Step]:
    """Yield the state after each event (only `conflict`'s events, when given)."""
    wanted = conflict.strip().lower() if conflict else None
    for envelope, event, folded in fold_steps(store.read(campaign, upto_seq=upto)):
        if wanted is None or event.conflict_id() == wanted:
            yield Step(envelope, folded)
