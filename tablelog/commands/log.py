"""Reading a campaign's events, and re-checking the whole log."""

from __future__ import annotations

import re

from tablelog.errors import InvalidInput
from tablelog.events.codec import UndecodableEvent
from tablelog.events.envelope import Envelope
from tablelog.progress import SILENT, Progress
from tablelog.storage import EventStore
from tablelog.storage.verify import Break, Report, verify_log

__all__ = ["Break", "Report", "parse_head", "read_log", "verify"]

MAX_SEQ = 2**63 - 1  # the range of the seq column (BIGINT)
_HEAD = re.compile(r"(\d+):([0-9a-fA-F]{64})")


def read_log(
    store: EventStore, campaign: str, *, since: int = 0, conflict: str | None = None
) -> list[Envelope]:
    """Events with seq >= `since` (all by default), optionally of one conflict only."""
    if not 0 <= since <= MAX_SEQ:
        raise InvalidInput(
            f"--since must be a seq from 0 to {MAX_SEQ}; got {since}", code="bad-seq"
        )
    envelopes = store.read(campaign, after_seq=max(since - 1, 0))
    if conflict is None:
        return envelopes
    return [e for e in envelopes if _conflict_of(e) == conflict.lower()]


def _conflict_of(envelope: Envelope) -> str | None:
    try:
        return envelope.event().conflict_id()
    except UndecodableEvent:
        return None


def parse_head(text: str) -> tuple[int, bytes]:
    """`SEQ:HASH` as printed in an export's footer."""
    match = _HEAD.fullmatch(text.strip())
    if match is None:
        raise InvalidInput(
            f"--head must be SEQ:HASH with the full 64-digit hex hash; got {text!r}",
            code="bad-head",
        )
    seq = int(match.group(1))
    if not 1 <= seq <= MAX_SEQ:
        raise InvalidInput(
            f"the seq of --head must be from 1 to {MAX_SEQ}; got {seq}", code="bad-head"
        )
    return seq, bytes.fromhex(match.group(2))


def verify(
    store: EventStore,
    *,
    head: tuple[int, bytes] | None = None,
    campaign: str | None = None,
    progress: Progress = SILENT,
    workers: int | None = None,
) -> Report:
    """`verify_log`; by default with worker processes for a big log (this runs from the
    command line's guarded main, or the service's)."""
    return verify_log(store, head=head, campaign=campaign, progress=progress, workers=workers)
