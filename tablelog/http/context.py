"""What every handler needs: the store, and the caller its token names.

The caller is found by `signed_in`, a hook Litestar runs before it reads anything else of
the request: the body, the headers and the query are parsed only for a caller whose
token holds. So a request with an unknown token is 401 and counts against its address
(throttle.py) whatever its body, and only a signed-in caller's body is ever decoded.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

import anyio
from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.handlers import BaseRouteHandler

from tablelog.commands.access import (
    Caller,
    authenticate,
    csrf_token,
    record_use,
    require_campaign,
    use_due,
)
from tablelog.commands.admin import require_admin
from tablelog.commands.database import EventStore
from tablelog.commands.session_policy import SessionPolicy
from tablelog.errors import Forbidden, StorageError, Unauthenticated
from tablelog.http.throttle import CampaignQuota, FailedSignIns

AnyConnection = ASGIConnection[Any, Any, Any, Any]
_CALLER = "tablelog.caller"  # where the guard keeps the caller, in the request's scope state
# The web page's session: an HttpOnly, SameSite=Strict cookie scoped to its campaign's path.
SESSION_COOKIE = "tablelog_session"
CSRF_HEADER = "x-csrf-token"
_LOG = logging.getLogger("tablelog.http")
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def store_of(state: State) -> EventStore:
    store = state.store
    assert isinstance(store, EventStore)
    return store


def session_policy(state: State) -> SessionPolicy:
    policy = state.session_policy
    assert isinstance(policy, SessionPolicy)
    return policy


def note_use(state: State, caller: Caller) -> None:
    """Record a web session's use (at most once a minute: `record_use`). A database that
    cannot take the write now only delays it to a later request."""
    try:
        record_use(store_of(state), caller, session_policy(state))
    except StorageError:
        _LOG.warning("could not record a web session's use; a later request will")


def bearer(connection: AnyConnection) -> str | None:
    header = connection.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def client_address(connection: AnyConnection) -> str:
    """The peer's address: the socket's, or a trusted proxy's word for it (`serve
    --forwarded-allow-ips`; uvicorn rewrites the client only then)."""
    return connection.client.host if connection.client is not None else "unknown"


def session_cookie(connection: AnyConnection) -> str | None:
    value = connection.cookies.get(SESSION_COOKIE, "").strip()
    return value or None


def same_origin(connection: AnyConnection) -> None:
    """Refuse a browser's write sent from another site: its Origin must be this service's."""
    origin = connection.headers.get("origin")
    host = connection.headers.get("host", "")
    if origin is None or origin.rstrip("/") != f"{connection.url.scheme}://{host}":
        raise Forbidden(
            f"a write from the web page must come from this service's own page; origin "
            f"{origin or 'none'} is not {connection.url.scheme}://{host}",
            code="bad-origin",
        )


def _check_csrf(connection: AnyConnection, session: str) -> None:
    """A write carried by the session cookie needs the session's CSRF token in a header and
    this service's Origin: a page of another site can send the cookie, but neither."""
    if connection.scope.get("method", "GET") in _SAFE:
        return
    same_origin(connection)
    given = connection.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode(), csrf_token(session).encode()):
        raise Forbidden(
            "a write from the web page must carry its CSRF token (X-CSRF-Token); reload the page",
            code="csrf",
        )


def sign_in(
    connection: AnyConnection, campaign: str | None = None, *, record: bool = True
) -> Caller:
    """The caller named by the request's bearer token, or else its web session's cookie
    (and, given, its campaign must match). A session is refused once the service's
    `SessionPolicy` has ended it; its use is recorded (`record`), at most once a minute.

    A token the service does not know (or a revoked or ended one) counts against the
    client's address (throttle.py); past the limit, its tokens are not even looked at for a
    while."""
    token, kind = bearer(connection), "token"
    if token is None:
        session = session_cookie(connection)
        if session is not None:
            token, kind = session, "session"
    sign_ins: FailedSignIns = connection.app.state.sign_ins
    address = client_address(connection)
    if token is not None:
        sign_ins.check(address)
    try:
        caller = authenticate(
            store_of(connection.app.state), token, kind, session_policy(connection.app.state)
        )
    except Unauthenticated:
        if token is not None:
            sign_ins.failed(address)
        raise
    if campaign is not None:
        require_campaign(caller, campaign.strip().lower())
    if kind == "session" and token is not None:
        _check_csrf(connection, token)
        if record:
            note_use(connection.app.state, caller)
    return caller


async def signed_in(connection: AnyConnection) -> None:
    """Sign the caller in before the request's body or parameters are read: the routes'
    `before_request` hook, which Litestar calls before it parses anything for the handler.
    (A guard would do the same, but Litestar copies the route handler for each guard call:
    a tenth of the loop's own work on a command.)

    On a SQLite file the token's row is one indexed read of a WAL database, which never
    waits for a writer (checkpoints are PASSIVE): tens of microseconds, less than a hop to a
    worker thread and back, which doubled the CPU a read costs (bench/service.py). A server
    is asked from a worker thread: the loop never waits on the network."""
    campaign = connection.path_params.get("campaign")
    given = campaign if isinstance(campaign, str) else None
    state = connection.app.state
    if store_of(state).is_sqlite:
        caller = sign_in(connection, given, record=False)
        if use_due(caller, session_policy(state)):  # a write, once a minute: off the loop
            await anyio.to_thread.run_sync(note_use, state, caller)
    else:
        caller = await anyio.to_thread.run_sync(sign_in, connection, given)
    scoped: dict[str, Any] = connection.scope.setdefault("state", {})
    scoped[_CALLER] = caller


def caller_for(connection: AnyConnection, campaign: str | None = None) -> Caller:
    """The caller the guard signed in (or, on a route without it, signed in now)."""
    found = connection.scope.get("state", {}).get(_CALLER)
    if isinstance(found, Caller):
        return found
    return sign_in(connection, campaign)


def _admin(connection: AnyConnection) -> None:
    token = bearer(connection)
    sign_ins: FailedSignIns = connection.app.state.sign_ins
    address = client_address(connection)
    if token is not None:
        sign_ins.check(address)
    try:
        require_admin(store_of(connection.app.state), token)
    except Unauthenticated:
        if token is not None:
            sign_ins.failed(address)
        raise


async def may_create(connection: AnyConnection, _handler: BaseRouteHandler) -> None:
    """Guard of `POST /campaigns`: the service's admin token (anyone's request with `serve
    --open-signup`), from an address that has not used up its campaigns for the hour."""
    if not connection.app.state.open_signup:
        await anyio.to_thread.run_sync(_admin, connection)
    quota: CampaignQuota = connection.app.state.campaigns
    # Counted in the database, with every service's (throttle.py): off the loop.
    await anyio.to_thread.run_sync(quota.check, client_address(connection))
