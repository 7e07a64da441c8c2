"""The steps a committed shuffle waits on (rules/rng.py, commands/rng_flow.py), for every
ruleset alike: its requests live beside the table (`rng.*` events no ruleset folds), so the
awaits' tracker (awaits.py) folds them itself into this small record.

A request awaits each of its players' pledge (`add your share to the shuffle`), then, once the
pledges are closed, each pledged player's reveal (`reveal your share of the shuffle`); the GM
may close it once its deadline has passed (an option: the state holds no clock). The page and
the CLI answer both steps by themselves as soon as the player opens the page or runs a
command: telling the player is what gets it answered.
"""

from __future__ import annotations

import msgspec

from tablelog.events.base import Event
from tablelog.events.envelope import Envelope
from tablelog.events.rng import (
    RngCommitted,
    RngContributed,
    RngDrawn,
    RngPledged,
    RngPledgesClosed,
)
from tablelog.projections.await_step import Await
from tablelog.projections.fold import decoded
from tablelog.rules.table import GM

PLEDGE = "add your share to the shuffle"
REVEAL = "reveal your share of the shuffle"
CLOSE = "close the shuffle's request once its deadline has passed"


class Request(msgspec.Struct, kw_only=True):
    """One request still open: who it waits on, and how far each has come."""

    awaited: list[str]
    conflict: str | None
    pledges: bool
    pledged: list[str] = []
    closed: bool = False  # the pledges are closed: the pledged reveal now
    contributed: list[str] = []


def follow(requests: dict[str, Request], envelope: Envelope) -> None:
    """Move the open requests on by one event (anything but `rng.*` is passed over)."""
    if not envelope.type.startswith("rng."):
        return
    event: Event = decoded(envelope)
    match event:
        case RngCommitted():
            requests[event.request] = Request(
                awaited=list(event.awaited), conflict=event.conflict, pledges=event.pledges
            )
        case RngPledged() if event.request in requests:
            requests[event.request].pledged.append(event.player)
        case RngPledgesClosed() if event.request in requests:
            found = requests[event.request]
            found.closed, found.pledged = True, list(event.pledged)
        case RngContributed() if event.request in requests:
            requests[event.request].contributed.append(event.player)
        case RngDrawn():
            requests.pop(event.request, None)


def steps(requests: dict[str, Request]) -> list[Await]:
    """What the open requests wait on, request by request."""
    found: list[Await] = []
    for request in requests.values():
        if request.pledges and not request.closed:
            due, what = [p for p in request.awaited if p not in request.pledged], PLEDGE
        elif request.pledges:
            due, what = [p for p in request.pledged if p not in request.contributed], REVEAL
        else:
            due, what = [p for p in request.awaited if p not in request.contributed], PLEDGE
        found += [Await(player=p, what=what, conflict=request.conflict) for p in due]
        found.append(Await(player=GM, what=CLOSE, conflict=request.conflict, optional=True))
    return found
