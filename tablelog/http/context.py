"""What every handler needs: the store, and the caller its token names."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.datastructures import State

from tablelog.commands.access import Caller, authenticate, require_campaign
from tablelog.commands.database import EventStore
from tablelog.errors import Unauthenticated
from tablelog.http.throttle import FailedSignIns


def store_of(state: State) -> EventStore:
    store = state.store
    assert isinstance(store, EventStore)
    return store


def bearer(request: Request[Any, Any, Any]) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def caller_for(request: Request[Any, Any, Any], campaign: str | None = None) -> Caller:
    """The caller named by the request's bearer token (and, given, its campaign must match).

    A token the service does not know (or a revoked one) counts against the client's address
    (throttle.py); past the limit, its tokens are not even looked at for a while."""
    token = bearer(request)
    sign_ins: FailedSignIns = request.app.state.sign_ins
    address = request.client.host if request.client is not None else "unknown"
    if token is not None:
        sign_ins.check(address)
    try:
        caller = authenticate(store_of(request.app.state), token)
    except Unauthenticated:
        if token is not None:
            sign_ins.failed(address)
        raise
    if campaign is not None:
        require_campaign(caller, campaign.strip().lower())
    return caller
