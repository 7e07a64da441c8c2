"""`tablelog waiting`: whom the table waits on, in every campaign the caller may see, oldest first.

The steps come from the contract's `awaiting` (projections/awaiting.py) with since when each
has lasted (awaits.py); who must act is public at the table, so every member of a campaign
sees the same rows. Notices (who was told, who reminded when) join them where the service
keeps any.
"""

from __future__ import annotations

import msgspec

from tablelog.commands import state
from tablelog.commands.awaits import awaiting_json
from tablelog.storage import EventStore


class Waiting(msgspec.Struct, frozen=True, kw_only=True):
    """One step a campaign's table waits on."""

    campaign: str
    player: str
    gm: bool
    character: str | None
    what: str
    conflict: str | None
    optional: bool
    since_seq: int
    since: str  # ISO 8601, UTC
    reminded: list[str] = []  # when a reminder went out for it (the GM's view)


def waiting_in(store: EventStore, campaign: str) -> list[Waiting]:
    """The steps one campaign's table waits on now, in the ruleset's order."""
    with state.reading(store, campaign) as folded:
        steps = awaiting_json(folded, state.tracked(store, folded).steps.values())
    return [msgspec.convert({"campaign": campaign, **step}, Waiting) for step in steps]


def oldest_first(found: list[Waiting]) -> list[Waiting]:
    """Across campaigns: the longest wait first (ties in each table's own order)."""
    return sorted(found, key=lambda w: w.since)


def waiting_everywhere(store: EventStore) -> list[Waiting]:
    """Every campaign of the database (the local operator sees them all)."""
    found: list[Waiting] = []
    for head in store.campaigns():
        found += waiting_in(store, head.name)
    return oldest_first(found)
