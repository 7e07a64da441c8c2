"""The live feed: server-sent events per campaign, each new event filtered for the caller.

A client resumes with `Last-Event-ID` (the last seq it saw; the SSE event id is the seq). New
events are found by polling the log from that seq, which works whoever appended them (this
service, another one, or the CLI on the same database).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
from litestar import Request, get
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from tablelog.commands.access import Caller
from tablelog.commands.database import EventStore
from tablelog.commands.reads import LogItem, log_items
from tablelog.http.context import caller_for, store_of

POLL_S = 0.25
HEARTBEAT_S = 15.0


def _new(store: EventStore, caller: Caller, after: int) -> list[LogItem]:
    head = store.head(caller.campaign)
    if head is None or head.seq <= after:
        return []
    return log_items(store, caller.campaign, since=after + 1, viewer=caller.viewer)


@get("/campaigns/{campaign:str}/events", tags=["reads"])
async def events(
    request: Request[Any, Any, Any],
    campaign: FromPath[str],
    last_event_id: Annotated[
        str | None,
        HeaderParameter(name="Last-Event-ID", required=False, description="Resume after this seq."),
    ] = None,
    after: Annotated[
        int | None, QueryParameter(ge=0, required=False, description="Start after this seq.")
    ] = None,
) -> ServerSentEvent:
    """Each new event of the campaign as it is appended (`data`: the log line as the caller
    may see it; `id`: its seq; `event`: its type)."""
    caller = await anyio.to_thread.run_sync(caller_for, request, campaign)
    store = store_of(request.app.state)
    start = after or 0
    if last_event_id is not None and last_event_id.strip().isdigit():
        start = int(last_event_id.strip())

    async def feed() -> AsyncIterator[ServerSentEventMessage]:
        seen, quiet = start, 0.0
        while True:
            items = await anyio.to_thread.run_sync(_new, store, caller, seen)
            for item in items:
                seen = item.seq
                yield ServerSentEventMessage(data=item.line, id=str(item.seq), event="event")
            if items:
                quiet = 0.0
                continue
            if quiet >= HEARTBEAT_S:
                quiet = 0.0
                yield ServerSentEventMessage(comment="still here")
            await asyncio.sleep(POLL_S)
            quiet += POLL_S

    return ServerSentEvent(feed())


ROUTES = [events]
