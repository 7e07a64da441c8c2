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
from tablelog.commands.notice_history import Told, history
from tablelog.rules.table import GM
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
    notified: str | None = None  # when its first notice went out (the GM's view)
    reminded: list[str] = []  # when each reminder went out for it (the GM's view)


def waiting_in(store: EventStore, campaign: str, *, notices: bool = True) -> list[Waiting]:
    """The steps one campaign's table waits on now, in the ruleset's order; with `notices`
    (the GM, the operator), when each was first told and reminded."""
    with state.reading(store, campaign) as folded:
        steps = awaiting_json(folded, state.tracked(store, folded).steps.values())
    found = [msgspec.convert({"campaign": campaign, **step}, Waiting) for step in steps]
    if not notices:
        return found
    told = history(store, campaign)
    return [_with_notices(w, told.get(GM if w.gm else w.player, [])) for w in found]


def _with_notices(step: Waiting, told: list[Told]) -> Waiting:
    """`step` with the notices that went out for this very wait (its seat, since when)."""
    mine = sorted(
        (t for t in told if t.since_seq == step.since_seq and step.what in t.what),
        key=lambda t: t.at_us,
    )
    first = next((t.at for t in mine if t.number == 0), None)
    # One time per reminder, however many channels it went out on.
    times = list({t.number: t.at for t in mine if t.number > 0}.values())
    return msgspec.structs.replace(step, notified=first, reminded=times)


def oldest_first(found: list[Waiting]) -> list[Waiting]:
    """Across campaigns: the longest wait first (ties in each table's own order)."""
    return sorted(found, key=lambda w: w.since)


def waiting_everywhere(store: EventStore) -> list[Waiting]:
    """Every campaign of the database (the local operator sees them all)."""
    found: list[Waiting] = []
    for head in store.campaigns():
        found += waiting_in(store, head.name)
    return oldest_first(found)
