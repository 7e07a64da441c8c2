"""Beer Run's own read through the service: a conflict, pools not yet rolled hidden."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.params import FromPath

from tablelog.commands import beer_run as reads
from tablelog.commands.reads import Shown
from tablelog.http.context import caller_for, store_of
from tablelog.http.endpoints import DEFAULT


@get(
    "/campaigns/{campaign:str}/beer-run/conflicts/{conflict:str}",
    sync_to_thread=True,
    tags=["reads"],
)
def show(
    request: Request[Any, Any, Any], campaign: FromPath[str], conflict: FromPath[str]
) -> Shown:
    """A conflict round by round; a pool not yet rolled shows only to its owner."""
    caller = caller_for(request, campaign)
    given = None if conflict == DEFAULT else conflict
    return reads.show(store_of(request.app.state), caller.campaign, given, caller.viewer)


ROUTES = [show]
