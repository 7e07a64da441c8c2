"""The campaign's web sessions: list them, end them (commands/sessions.py decides who may).

Behind the guard like every campaign route; a write by the page's cookie needs its CSRF
token and this service's Origin (context.py). Ending the caller's own session also clears
its cookie, as signing out does.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, delete, get
from litestar.datastructures import Cookie
from litestar.params import FromPath, FromQuery

from tablelog.commands import sessions
from tablelog.http.context import SESSION_COOKIE, caller_for, session_policy, store_of

AnyRequest = Request[Any, Any, Any]


def _answer(ended: sessions.Ended, campaign: str) -> Response[sessions.Ended]:
    own = any(s.current for s in ended.ended)
    gone = [Cookie(key=SESSION_COOKIE, value="", path=f"/campaigns/{campaign}", max_age=0)]
    return Response(ended, status_code=200, cookies=gone if own else [])


@get("/campaigns/{campaign:str}/web-sessions", sync_to_thread=True, tags=["campaigns"])
def list_sessions(
    request: AnyRequest, campaign: FromPath[str], player: FromQuery[str | None] = None
) -> list[sessions.Session]:
    """The campaign's live web sessions (browsers signed in with a link; not game
    sessions, which `POST` here starts), never their secrets: the GM sees everyone's (or
    `player`'s), a player or an observer their own. `current` marks the caller's own."""
    caller = caller_for(request, campaign)
    store, policy = store_of(request.app.state), session_policy(request.app.state)
    return sessions.listed(store, caller.campaign, caller=caller, player=player, policy=policy)


@delete(
    "/campaigns/{campaign:str}/web-sessions/{session:str}",
    sync_to_thread=True,
    tags=["campaigns"],
    status_code=200,
)
def end_session(
    request: AnyRequest, campaign: FromPath[str], session: FromPath[str]
) -> Response[sessions.Ended]:
    """End one web session (a browser signed in, not a game session) by its listed id (the
    GM: anyone's; a player: their own); it stops working at once."""
    caller = caller_for(request, campaign)
    store, policy = store_of(request.app.state), session_policy(request.app.state)
    ended = sessions.end(store, caller.campaign, session, caller=caller, policy=policy)
    return _answer(ended, caller.campaign)


@delete(
    "/campaigns/{campaign:str}/web-sessions",
    sync_to_thread=True,
    tags=["campaigns"],
    status_code=200,
)
def end_sessions(
    request: AnyRequest, campaign: FromPath[str], player: FromQuery[str | None] = None
) -> Response[sessions.Ended]:
    """End every web session (browsers signed in, not the game session) the caller may see
    (the GM: the campaign's, or `player`'s; a player: their own)."""
    caller = caller_for(request, campaign)
    store, policy = store_of(request.app.state), session_policy(request.app.state)
    ended = sessions.end_all(store, caller.campaign, caller=caller, player=player, policy=policy)
    return _answer(ended, caller.campaign)


ROUTES = [list_sessions, end_session, end_sessions]
