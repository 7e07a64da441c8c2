"""One line of words for each core event of a committed shuffle (events/rng.py)."""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.events.rng import (
    RngCommitted,
    RngContributed,
    RngDrawn,
    RngPledged,
    RngPledgesClosed,
    RngRevealed,
)


def rng_text(event: Event) -> str | None:
    match event:
        case RngCommitted():
            awaited = ", ".join(event.awaited) or "no player (drawn from the server seed alone)"
            return (
                f"shuffle {event.request} committed ({event.commitment[:16]}…); awaiting {awaited}"
            )
        case RngPledged():
            return f"{event.player} pledged to shuffle {event.request} ({event.commitment[:16]}…)"
        case RngPledgesClosed():
            pledged = ", ".join(event.pledged) or "nobody"
            absent = f"; absent: {', '.join(event.absent)}" if event.absent else ""
            return f"shuffle {event.request}: pledges closed; to reveal: {pledged}{absent}"
        case RngContributed():
            return f"{event.player} contributed to shuffle {event.request}"
        case RngDrawn():
            absent = f"; absent: {', '.join(event.absent)}" if event.absent else ""
            absent += f"; withheld: {', '.join(event.withheld)}" if event.withheld else ""
            lapsed = f"; the command lapsed ({event.lapsed})" if event.lapsed else ""
            return f"shuffle {event.request} drawn ({len(event.draws)} shuffle(s)){absent}{lapsed}"
        case RngRevealed():
            return f"shuffle {event.request}'s server seed revealed: {event.seed}"
    return None
