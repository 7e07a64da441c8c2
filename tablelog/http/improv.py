"""Improv's own reads through the service: a conflict, and the caller's hand."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.params import FromPath

from tablelog.commands import improv as reads
from tablelog.commands.reads import Shown
from tablelog.http.context import caller_for, store_of


@get(
    "/campaigns/{campaign:str}/improv/conflicts/{conflict:str}", sync_to_thread=True, tags=["reads"]
)
def show(
    request: Request[Any, Any, Any], campaign: FromPath[str], conflict: FromPath[str]
) -> Shown:
    """A conflict round by round; face-down cards not the caller's own are null."""
    caller = caller_for(request, campaign)
    given = None if conflict == "~" else conflict
    return reads.show(store_of(request.app.state), caller.campaign, given, caller.viewer)


@get("/campaigns/{campaign:str}/improv/hands/{who:str}", sync_to_thread=True, tags=["reads"])
def hand(
    request: Request[Any, Any, Any], campaign: FromPath[str], who: FromPath[str]
) -> dict[str, Any]:
    """Managed decks: the caller's own hand (`who` is the caller, or gm for the GM)."""
    caller = caller_for(request, campaign)
    return reads.hand(store_of(request.app.state), caller.campaign, who, caller.viewer)


ROUTES = [show, hand]
