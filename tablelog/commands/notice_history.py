"""What `tablelog waiting` shows of the notices: per player, the turn notices and reminders
that went out, oldest first."""

from __future__ import annotations

import msgspec

from tablelog.commands.awaits import iso
from tablelog.storage import EventStore
from tablelog.storage.notices import OWN_MOVE, notices_of


class Told(msgspec.Struct, frozen=True, kw_only=True):
    """One notice that went out: the turn notice (number 0) or a reminder."""

    what: str
    since_seq: int
    number: int
    channel: str
    at: str  # when it went out (ISO 8601, UTC)
    at_us: int


def history(store: EventStore, campaign: str) -> dict[str, list[Told]]:
    """Per player (the seat's key, `gm` for the GM), the notices and reminders sent, oldest
    first: who was reminded when."""
    found: dict[str, list[Told]] = {}
    for notice in notices_of(store, campaign):
        if notice.sent_at is None or (notice.channel == OWN_MOVE and notice.number == 0):
            continue
        found.setdefault(notice.player, []).append(
            Told(
                what=notice.sentence,
                since_seq=notice.since_seq,
                number=notice.number,
                channel=notice.channel,
                at=iso(notice.sent_at),
                at_us=notice.sent_at,
            )
        )
    return found
