"""The campaign's webhooks over HTTP (the GM's): `tablelog webhook` through the service."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, delete, get, post
from litestar.params import FromPath, JSONBody

from tablelog.commands import webhooks
from tablelog.http.context import caller_for, store_of

AnyRequest = Request[Any, Any, Any]


class NewWebhook(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    url: str
    format: str = "discord"
    on: str = "reveal,close,session"


class Webhooks(msgspec.Struct, frozen=True, kw_only=True):
    webhooks: list[webhooks.Listed]


@post("/campaigns/{campaign:str}/webhooks", sync_to_thread=True, tags=["webhooks"])
def add(request: AnyRequest, campaign: FromPath[str], data: JSONBody[NewWebhook]) -> webhooks.Added:
    """Register a webhook (GM only); a json webhook's signing secret is in this answer only."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    private = bool(request.app.state.webhook_policy.allow_private)
    return webhooks.add(
        store, caller.campaign, data.url, data.format, data.on, caller, allow_private=private
    )


@get("/campaigns/{campaign:str}/webhooks", sync_to_thread=True, tags=["webhooks"])
def listed(request: AnyRequest, campaign: FromPath[str]) -> Webhooks:
    """The campaign's webhooks, URLs redacted (GM only)."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    return Webhooks(webhooks=webhooks.listed(store, caller.campaign, caller))


@delete(
    "/campaigns/{campaign:str}/webhooks/{hook:str}",
    sync_to_thread=True,
    tags=["webhooks"],
    status_code=200,
)
def remove(request: AnyRequest, campaign: FromPath[str], hook: FromPath[str]) -> dict[str, str]:
    """Remove a webhook and the posts it still owed (GM only)."""
    caller = caller_for(request, campaign)
    webhooks.remove(store_of(request.app.state), caller.campaign, hook, caller)
    return {"removed": hook}


ROUTES = [add, listed, remove]
