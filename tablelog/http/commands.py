"""One POST endpoint per command (from the endpoint tables), built once at start-up.

Each handler: the caller from its token, the command from path and body, `execute` (the rules
decide and authorize, inside the campaign's lock), then the events as the caller may see them.
`If-Match: SEQ` makes the write conditional on the head; `Idempotency-Key` makes a retry
return the first response.

A handler does not take a thread to wait in: it queues its command from the event loop for
the campaign's writer thread (`execute_soon`), which writes what queued in groups and tells
each request when its own is settled. With a thread per waiting command, each group's end
woke every waiting thread, one after the other, only for most to find their command done:
the commands cost 0.65-0.70 of a bare Litestar app's inserts; this way, more than it
(bench/service.py). A request with an Idempotency-Key runs in a thread as before: a retry
reads its first answer from the database.

This module has no `from __future__ import annotations`: handler signatures are built at run
time from real types.
"""

import asyncio
import contextlib
import inspect
from collections.abc import Sequence
from typing import Any

import msgspec
from litestar import Request, Response, post
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, HeaderParameter, JSONBody

from tablelog.commands.access import Caller
from tablelog.commands.database import EventStore
from tablelog.commands.endpoints import Endpoint, all_endpoints
from tablelog.commands.group_commit import Order
from tablelog.commands.reads import LogItem, items_of, items_seen
from tablelog.commands.retries import MAX_KEY, AlreadyDone, Retry
from tablelog.commands.table import execute, execute_soon
from tablelog.errors import InvalidInput, StorageError, TablelogError
from tablelog.events.envelope import Envelope
from tablelog.http.context import caller_for, store_of
from tablelog.projections.fold import Folded


class Written(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    type: str
    text: str
    line: str


class WriteResult(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    seq: int
    events: list[Written]


def _expected_seq(header: str | None) -> int | None:
    if header is None:
        return None
    text = header.strip().removeprefix("W/").strip('"')
    if not text.isdigit() or len(text) > 19:
        raise InvalidInput(
            f"If-Match must be the campaign's seq; got {header!r}", code="bad-if-match"
        )
    return int(text)


def _result(
    store: EventStore, campaign: str, caller: Caller, written: Sequence[Envelope]
) -> WriteResult:
    if not written:
        head = store.head(campaign)
        return WriteResult(campaign=campaign, seq=head.seq if head else 0, events=[])
    return _written(campaign, written, items_of(store, campaign, written, caller.viewer))


def _written(campaign: str, written: Sequence[Envelope], items: list[LogItem]) -> WriteResult:
    return WriteResult(
        campaign=campaign,
        seq=written[-1].seq,
        events=[
            Written(seq=i.seq, type=e.type, text=i.text, line=i.line)
            for e, i in zip(written, items, strict=True)
        ],
    )


def run_command(
    request: Request[Any, Any, Any], endpoint: Endpoint, path: dict[str, str], data: Any
) -> Response[Any]:
    campaign = path.pop("campaign").strip().lower()
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    command = endpoint.command_of(data, path)
    expected = _expected_seq(request.headers.get("if-match"))
    key = request.headers.get("idempotency-key")
    retry = None
    if key is not None:
        body = msgspec.to_builtins(data)
        retry = Retry.of(
            store, campaign, caller.digest, key, [request.method, request.url.path, body]
        )
        earlier = _recalled(retry, caller)
        if earlier is not None:
            return earlier

    answer: list[WriteResult] = []

    def respond(folded: Folded, written: list[Envelope]) -> None:
        # The events as the caller may see them, from the state they just moved on (built
        # again if the command is tried again: only the last answer stands).
        answer.clear()
        if written:
            answer.append(_written(campaign, written, items_seen(folded, written, caller.viewer)))

    try:
        written = execute(
            store,
            campaign,
            command,
            caller=caller,
            expected_seq=expected,
            on_begin=retry.first_try_done if retry else None,
            on_commit=retry.keep if retry else None,
            on_done=respond,
        )
    except (AlreadyDone, StorageError):
        if retry is not None:  # a concurrent retry with the same key won the race
            earlier = _recalled(retry, caller)
            if earlier is not None:
                return earlier
        raise
    if written:
        request.app.state.watches.wake(campaign)  # its live feeds need not wait for a poll
    result = answer[0] if answer else _result(store, campaign, caller, written)
    return Response(result, status_code=201)


async def run_command_soon(
    request: Request[Any, Any, Any], endpoint: Endpoint, path: dict[str, str], data: Any
) -> Response[Any]:
    """`run_command` without a thread of its own: the command is queued from the event loop
    for the campaign's writer (group_commit.place_soon) and awaited. A request with an
    Idempotency-Key takes `run_command` in a thread: a retry reads its first answer back."""
    loop = asyncio.get_running_loop()
    if request.headers.get("idempotency-key") is not None:
        return await loop.run_in_executor(None, run_command, request, endpoint, path, data)
    campaign = path.pop("campaign").strip().lower()
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    command = endpoint.command_of(data, path)
    expected = _expected_seq(request.headers.get("if-match"))
    settled: asyncio.Future[Order] = loop.create_future()
    answer: list[WriteResult] = []

    def respond(folded: Folded, written: list[Envelope]) -> None:
        answer.clear()  # as in run_command: only the last try's answer stands
        if written:
            answer.append(_written(campaign, written, items_seen(folded, written, caller.viewer)))

    execute_soon(
        store,
        campaign,
        command,
        caller=caller,
        expected_seq=expected,
        on_done=respond,
        on_settled=lambda order: _tell_soon(loop, settled, order),
        submit=lambda write: loop.run_in_executor(None, write),
    )
    written = (await settled).outcome()
    if written:
        request.app.state.watches.wake(campaign)
    if answer:
        return Response(answer[0], status_code=201)
    result = await loop.run_in_executor(None, _result, store, campaign, caller, written)
    return Response(result, status_code=201)


def _tell_soon(
    loop: asyncio.AbstractEventLoop, settled: "asyncio.Future[Order]", order: Order
) -> None:
    """From the writing thread: the order is settled, its request may answer."""
    with contextlib.suppress(RuntimeError):  # the loop closed: the service stopped meanwhile
        loop.call_soon_threadsafe(_tell, settled, order)


def _tell(settled: "asyncio.Future[Order]", order: Order) -> None:
    if not settled.done():  # cancelled: the client went away (the command stands)
        settled.set_result(order)


def _recalled(retry: Retry, caller: Caller) -> Response[Any] | None:
    found = retry.earlier()
    if found is None:
        return None
    status, envelopes = found
    return Response(_result(retry.store, retry.campaign, caller, envelopes), status_code=status)


def _handler(endpoint: Endpoint) -> HTTPRouteHandler:
    names = ["campaign", *endpoint.path_fields]

    async def handler(**kwargs: Any) -> Response[Any]:
        request = kwargs["request"]
        path = {name: kwargs[name] for name in names}
        return await run_command_soon(request, endpoint, path, kwargs["data"])

    body: Any = JSONBody[endpoint.body]  # type: ignore[name-defined,misc]  # built at run time
    params = [
        inspect.Parameter("request", inspect.Parameter.KEYWORD_ONLY, annotation=Request),
        inspect.Parameter("data", inspect.Parameter.KEYWORD_ONLY, annotation=body),
    ]
    params += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=FromPath[str])
        for name in names
    ]
    params += [
        inspect.Parameter(
            "if_match",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=str | None,
            default=HeaderParameter(
                name="If-Match",
                required=False,
                pattern=r'^(W/)?"?[0-9]{1,19}"?$',
                description="Append only if the campaign's seq is still this.",
            ),
        ),
        inspect.Parameter(
            "idempotency_key",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=str | None,
            default=HeaderParameter(
                name="Idempotency-Key",
                required=False,
                min_length=1,
                max_length=MAX_KEY,
                description="A retry with the same key returns the first response.",
            ),
        ),
    ]
    handler.__signature__ = inspect.Signature(params, return_annotation=Response[WriteResult])  # type: ignore[attr-defined]
    handler.__annotations__ = {p.name: p.annotation for p in params} | {
        "return": Response[WriteResult]
    }
    handler.__name__ = handler.__qualname__ = endpoint.command.__name__
    handler.__doc__ = endpoint.summary
    return post(
        "/campaigns/{campaign:str}" + endpoint.path.replace("}", ":str}"),
        summary=endpoint.summary,
        tags=["commands"],
        status_code=201,
    )(handler)


def command_routes() -> list[HTTPRouteHandler]:
    return [_handler(endpoint) for endpoint in all_endpoints()]


__all__ = ["TablelogError", "WriteResult", "command_routes"]
