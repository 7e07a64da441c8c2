"""The committed shuffles still awaiting the players: what `tablelog rng pending` lists and
what a player's client pledges or contributes to (`rng contribute`, and before each command
it sends)."""

from __future__ import annotations

import msgspec

from tablelog.events.rng import RngCommitted, RngContributed, RngPledged, RngPledgesClosed
from tablelog.storage import EventStore
from tablelog.storage import rng_seeds as seeds


class PendingRequest(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str  # bound into every pledge (rules/rng.py `pledge`), with request and player
    request: str
    conflict: str | None
    # "pledge": awaiting pledges; "reveal": the pledged reveal their values; "contribute": a
    # request committed before pledges, whose values come in one step.
    phase: str
    awaited: list[str]
    pledged: list[str]  # the awaited players who have pledged
    given: list[str]  # the players who have contributed (revealed)
    deadline: int  # microseconds UTC: the GM may close the phase from then
    player: str | None = None  # the player this list was asked for (who pledges, reveals)
    # The seq of `rng.pledges_closed`: a client reveals only once it holds a checkpoint the
    # service signed over it (cli/contributing.py), proof that every pledge came first.
    closed_seq: int | None = None


def pending(store: EventStore, campaign: str, player: str | None = None) -> list[PendingRequest]:
    """Every open request of the campaign, or those still awaiting a step of `player`."""
    found: list[PendingRequest] = []
    with store.engine.connect() as conn:
        for row in seeds.in_state(conn, campaign, "open"):
            committed = seeds.event_at(conn, campaign, row.committed_seq).event()
            assert isinstance(committed, RngCommitted)
            pledged: set[str] = set()
            given: set[str] = set()
            closed: RngPledgesClosed | None = None
            closed_seq: int | None = None
            for envelope in store.stream(campaign, after_seq=row.committed_seq):
                if not envelope.type.startswith("rng."):
                    continue
                event = envelope.event()
                if getattr(event, "request", None) != row.request:
                    continue
                if isinstance(event, RngPledged):
                    pledged.add(event.player)
                elif isinstance(event, RngPledgesClosed):
                    closed, closed_seq = event, envelope.seq
                elif isinstance(event, RngContributed):
                    given.add(event.player)
            if not committed.pledges:
                phase, due, deadline = "contribute", set(committed.awaited), committed.deadline
            elif closed is None:
                phase, due, deadline = "pledge", set(committed.awaited), committed.deadline
                given = set()
            else:
                phase, due, deadline = "reveal", set(closed.pledged), closed.deadline
            waiting = pledged if phase == "pledge" else given
            if player is not None and (player not in due or player in waiting):
                continue
            found.append(
                PendingRequest(
                    campaign=campaign,
                    request=row.request,
                    conflict=committed.conflict,
                    phase=phase,
                    awaited=committed.awaited,
                    pledged=[p for p in committed.awaited if p in pledged],
                    given=[p for p in committed.awaited if p in given],
                    deadline=deadline,
                    player=player,
                    closed_seq=closed_seq,
                )
            )
    return found
