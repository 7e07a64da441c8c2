"""Reading a campaign's events, and re-checking the whole log."""

from __future__ import annotations

import re

from tablelog.errors import InvalidInput
from tablelog.events.codec import UndecodableEvent
from tablelog.events.envelope import Envelope
from tablelog.storage import EventStore
from tablelog.storage.verify import Break, Report, verify_log

__all__ = ["Break", "Report", "parse_head", "read_log", "verify"]

_HEAD = re.compile(r"(\d+):([0-9a-fA-F]{64})")


def read_log(
    store: EventStore, campaign: str, *, since: int = 0, conflict: str | None = None
) -> list[Envelope]:
    """Events with seq >= `since` (all by default), optionally of one conflict only."""
    if since < 0:
        raise InvalidInput(f"--since must be a seq of 0 or more; got {since}")
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
    return int(match.group(1)), bytes.fromhex(match.group(2))


def verify(
    store: EventStore, *, head: tuple[int, bytes] | None = None, campaign: str | None = None
) -> Report:
    return verify_log(store, head=head, campaign=campaign)
