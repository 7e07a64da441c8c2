"""`GET /campaigns/{campaign}/waiting`: whom the table waits on (`tablelog waiting`)."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.params import FromPath

from tablelog.commands.waiting import Waiting, waiting_in
from tablelog.http.context import caller_for, store_of

AnyRequest = Request[Any, Any, Any]


@get("/campaigns/{campaign:str}/waiting", sync_to_thread=True, tags=["campaigns"])
def waiting(request: AnyRequest, campaign: FromPath[str]) -> list[Waiting]:
    """Each step the campaign's table waits on now: who, for which character, what, in which
    conflict, and since when (the event's seq and time). Any member of the campaign may ask:
    who must act is public at the table; the GM also sees when each was told and reminded."""
    caller = caller_for(request, campaign)
    # Who was told and reminded when is the GM's to see (a player's own contacts are theirs).
    notices = caller.role == "gm"
    return waiting_in(store_of(request.app.state), caller.campaign, notices=notices)


ROUTES = [waiting]
