"""The live feed: server-sent events per campaign, each new event filtered for the caller.

A client resumes with `Last-Event-ID` (the last seq it saw; the SSE event id is the seq). New
events are found by polling the log from that seq, which works whoever appended them (this
service, another one, or the CLI on the same database); a command this service appends also
wakes its campaign's feeds at once (`Wakeups`), and feeds that wait for the same events as
the same viewer share one read of them (`_shared`), so a campaign watched by hundreds of
browsers costs one read per viewer per new event, not one per browser. Each poll reads the
caller's token row with the head (one indexed read), so a token revoked by any of them
(`tablelog revoke` on the database, too) ends its feed at the next poll, a quarter of a
second later: a last `revoked` event says why, and the stream closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
from litestar import Request, get
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from tablelog.commands.access import Caller, head_if_signed_in
from tablelog.commands.database import EventStore
from tablelog.commands.log import MAX_SEQ
from tablelog.commands.reads import LogItem, log_items
from tablelog.errors import InvalidInput
from tablelog.http.context import caller_for, store_of

POLL_S = 0.25  # also how soon a revoked token's feed ends
HEARTBEAT_S = 15.0
_SHARED_MAX = 512  # reads kept for feeds that ask for the same events as the same viewer


class Wakeups:
    """Per campaign, an event its feeds wait on between polls; `wake` (from any thread, e.g.
    a command's worker) sets it, and the next waiter gets a fresh one."""

    def __init__(self) -> None:
        self._waiting: dict[str, asyncio.Event] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def wait(self, campaign: str, timeout: float) -> None:
        event = self._waiting.setdefault(campaign, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    def wake(self, campaign: str) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._set, campaign)

    def _set(self, campaign: str) -> None:
        event = self._waiting.pop(campaign, None)
        if event is not None:
            event.set()


_shared: OrderedDict[tuple[str, int, int, str], list[LogItem]] = OrderedDict()
_shared_lock = threading.Lock()


def _new(store: EventStore, caller: Caller, after: int) -> list[LogItem] | None:
    """The events after seq `after` as the caller sees them; None once its token was revoked."""
    head = head_if_signed_in(store, caller)
    if head is None:
        return None
    if head.seq <= after:
        return []
    key = (caller.campaign, after, head.seq, caller.viewer)
    with _shared_lock:
        found = _shared.get(key)
    if found is not None:
        return found
    items = log_items(store, caller.campaign, since=after + 1, viewer=caller.viewer)
    items = [i for i in items if i.seq <= head.seq]  # what the key says, if more came since
    with _shared_lock:
        _shared[key] = items
        while len(_shared) > _SHARED_MAX:
            _shared.popitem(last=False)
    return items


@get("/campaigns/{campaign:str}/events", tags=["reads"])
async def events(
    request: Request[Any, Any, Any],
    campaign: FromPath[str],
    last_event_id: Annotated[
        str | None,
        HeaderParameter(
            name="Last-Event-ID",
            required=False,
            pattern=r"^[0-9]{1,19}$",
            description="Resume after this seq.",
        ),
    ] = None,
    after: Annotated[
        int | None,
        QueryParameter(ge=0, le=MAX_SEQ, required=False, description="Start after this seq."),
    ] = None,
) -> ServerSentEvent:
    """Each new event of the campaign as it is appended (`data`: the log line as the caller
    may see it; `id`: its seq; `event`: its type). A revoked token's feed ends with an
    event `revoked`."""
    caller = caller_for(request, campaign)  # signed in by the guard (context.py)
    store = store_of(request.app.state)
    wakeups: Wakeups = request.app.state.wakeups
    start = after or 0
    if last_event_id is not None:
        text = last_event_id.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 19):  # `²` is a digit too
            raise InvalidInput(
                f"Last-Event-ID must be a seq; got {last_event_id!r}", code="bad-last-event-id"
            )
        start = int(text)

    async def feed() -> AsyncIterator[ServerSentEventMessage]:
        seen, quiet = start, 0.0
        while True:
            items = await anyio.to_thread.run_sync(_new, store, caller, seen)
            if items is None:
                yield ServerSentEventMessage(
                    data="the access token was revoked", event="revoked", id=str(seen)
                )
                return
            for item in items:
                seen = item.seq
                yield ServerSentEventMessage(data=item.line, id=str(item.seq), event="event")
            if items:
                quiet = 0.0
                continue
            if quiet >= HEARTBEAT_S:
                quiet = 0.0
                yield ServerSentEventMessage(comment="still here")
            started = time.monotonic()
            await wakeups.wait(caller.campaign, POLL_S)
            quiet += time.monotonic() - started

    return ServerSentEvent(feed())


ROUTES = [events]
