"""The committed shuffles still awaiting contributions: what `tablelog rng pending` lists and
what a player's client contributes to (`rng contribute`, and before each command it sends)."""

from __future__ import annotations

import msgspec

from tablelog.events.rng import RngCommitted, RngContributed
from tablelog.storage import EventStore
from tablelog.storage import rng_seeds as seeds


class PendingRequest(msgspec.Struct, frozen=True, kw_only=True):
    request: str
    conflict: str | None
    awaited: list[str]
    given: list[str]  # the awaited players who have contributed
    deadline: int  # microseconds UTC: the GM may close it from then


def pending(store: EventStore, campaign: str, player: str | None = None) -> list[PendingRequest]:
    """Every open request of the campaign, or those still awaiting `player`."""
    found: list[PendingRequest] = []
    with store.engine.connect() as conn:
        for row in seeds.in_state(conn, campaign, "open"):
            committed = seeds.event_at(conn, campaign, row.committed_seq).event()
            assert isinstance(committed, RngCommitted)
            given = {
                e.player
                for envelope in store.stream(campaign, after_seq=row.committed_seq)
                if envelope.type == "rng.contributed"
                and isinstance(e := envelope.event(), RngContributed)
                and e.request == row.request
            }
            if player is not None and (player not in committed.awaited or player in given):
                continue
            found.append(
                PendingRequest(
                    request=row.request,
                    conflict=committed.conflict,
                    awaited=committed.awaited,
                    given=[p for p in committed.awaited if p in given],
                    deadline=committed.deadline,
                )
            )
    return found
