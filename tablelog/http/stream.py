"""The live feed: server-sent events per campaign, each new event filtered for the caller.

A client resumes with `Last-Event-ID` (the last seq it saw; the SSE event id is the seq). New
events are found by polling the log from that seq, which works whoever appended them (this
service, another one, or the CLI on the same database): one watcher per campaign does it for
all its feeds (watch.py), woken at once when this service appends, and feeds that wait for
the same events as the same viewer share one read of them. The watcher also reads the
campaign's live tokens, so a token revoked by any of them (`tablelog revoke` on the database,
too) ends its feed at the next poll, a quarter of a second later: a last `revoked` event
says why, and the stream closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
from litestar import Request, get
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from tablelog.commands.access import Caller
from tablelog.commands.database import EventStore
from tablelog.commands.log import MAX_SEQ
from tablelog.commands.reads import LogItem, log_items
from tablelog.errors import InvalidInput
from tablelog.http.context import caller_for, client_address, store_of
from tablelog.http.feeds import Feeds, Slot, holding
from tablelog.http.watch import Watches

HEARTBEAT_S = 15.0
_SHARED_MAX = 512  # reads kept for feeds that ask for the same events as the same viewer
Key = tuple[str, int, int, str]  # campaign, after, upto, viewer
# Per service (its event loop's own), a read in flight or done, per Key.
Shared = OrderedDict[Key, "asyncio.Future[list[LogItem]]"]


def _read(store: EventStore, caller: Caller, after: int, upto: int) -> list[LogItem]:
    items = log_items(store, caller.campaign, since=after + 1, viewer=caller.viewer)
    return [i for i in items if i.seq <= upto]  # what was asked, if more came since


def _forget_failed(shared: Shared, key: Key, done: asyncio.Future[list[LogItem]]) -> None:
    if done.cancelled() or done.exception() is not None:  # retried by the next feed
        shared.pop(key, None)


async def _items(
    shared: Shared, store: EventStore, caller: Caller, after: int, upto: int
) -> list[LogItem]:
    """The events after seq `after` up to `upto` as the caller sees them. Feeds of the same
    viewer waiting for the same events share one read (in flight or done), so a new event
    costs one read per viewer however many browsers watch."""
    key = (caller.campaign, after, upto, caller.viewer)
    found = shared.get(key)
    if found is None:
        # A task of its own: a feed that goes away (its browser closed) does not cancel the
        # read the others wait for.
        found = asyncio.ensure_future(anyio.to_thread.run_sync(_read, store, caller, after, upto))
        shared[key] = found
        found.add_done_callback(lambda done: _forget_failed(shared, key, done))
        while len(shared) > _SHARED_MAX:
            shared.popitem(last=False)
    return await asyncio.shield(found)


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
    watches: Watches = request.app.state.watches
    feeds: Feeds = request.app.state.feeds
    start = after or 0
    if last_event_id is not None:
        text = last_event_id.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 19):  # `²` is a digit too
            raise InvalidInput(
                f"Last-Event-ID must be a seq; got {last_event_id!r}", code="bad-last-event-id"
            )
        start = int(text)
    if caller.head is not None and start > caller.head.seq:
        # The client saw more than the log holds (a backup restored, or a seq made up): it
        # follows from the head as it was when it asked, read with its token. (The
        # watcher's first read may come after an append that the client has not seen.)
        start = caller.head.seq

    # Last, once nothing else can refuse the request: a refused feed takes no slot.
    address = client_address(request)
    if feeds.shared is None:
        slot = feeds.open(caller.digest, address)
    else:  # counted in the database, with every service's: off the loop
        slot = await anyio.to_thread.run_sync(feeds.open, caller.digest, address)
    feed = _feed(slot, watches, store, caller, start)
    holding(slot, feed)
    return ServerSentEvent(feed)


async def _feed(
    slot: Slot, watches: Watches, store: EventStore, caller: Caller, start: int
) -> AsyncIterator[ServerSentEventMessage]:
    """The feed's messages; its slot is given back however it ends (a reader gone cancels
    it, the service closes it on its way down)."""
    try:
        seen, quiet, joined = start, 0.0, time.monotonic()
        async with watches.watching(store, caller.campaign) as watch:
            while not watches.closing:  # the service stops: the stream ends
                if not watch.holds(caller.digest, joined):
                    yield ServerSentEventMessage(
                        data="the access token was revoked (or its web session ended)",
                        event="revoked",
                        id=str(seen),
                    )
                    return
                upto = watch.head
                if 0 <= upto < seen:
                    # The client saw more than the log holds (a backup restored, or a seq
                    # made up): it follows from the head, and `alive` says the real one.
                    seen = upto
                if upto > seen:
                    items = await _items(watches.shared, store, caller, seen, upto)
                    for item in items:
                        seen = item.seq
                        yield ServerSentEventMessage(
                            data=item.line, id=str(item.seq), event="event"
                        )
                    quiet = 0.0
                    seen = max(seen, upto)  # nothing more up to there
                    continue
                changed, started = watch.changed, time.monotonic()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), max(0.01, HEARTBEAT_S - quiet))
                quiet += time.monotonic() - started
                if quiet >= HEARTBEAT_S:
                    quiet = 0.0
                    # A named event, not a comment: a page's script sees it, and so
                    # tells a feed cut silently (a phone asleep) from a quiet table.
                    yield ServerSentEventMessage(data=str(seen), event="alive")
    finally:
        slot.release()


ROUTES = [events]
