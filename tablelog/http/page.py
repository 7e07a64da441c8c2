"""The web page per campaign: server-rendered HTML over the same commands and views.

`GET /campaigns/{campaign}/play` is the page. A sign-in link carries a `link` token in its
fragment (never sent to a server, so never in a log or a Referer); the page's script trades
it once at `POST .../play/session` for an HttpOnly, SameSite=Strict session cookie and
removes it from the address bar. The page then reads through the guarded routes like any
client (the cookie signs it in; every write also needs the session's CSRF token and this
service's Origin: `context.py`), posts each action to the command's own endpoint, and
follows the campaign's SSE feed. Nothing here decides or hides anything: the page model
(`commands.page`) comes from the ruleset's views, filtered for the caller.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import anyio
import msgspec
from jinja2 import Environment, PackageLoader, select_autoescape
from litestar import Request, Response, Router, get, post
from litestar.datastructures import Cookie
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.static_files import create_static_files_router

from tablelog import __version__
from tablelog.commands import discord_links
from tablelog.commands.access import (
    Caller,
    authenticate,
    close_session,
    csrf_token,
    link_seat,
    open_session,
)
from tablelog.commands.audit import audit
from tablelog.commands.database import EventStore
from tablelog.commands.log import MAX_SEQ
from tablelog.commands.page import Page, page_of
from tablelog.commands.page_notices import notices_box
from tablelog.commands.preview import Preview, preview
from tablelog.commands.reads import log_items
from tablelog.commands.session_policy import span
from tablelog.errors import TablelogError, Unauthenticated
from tablelog.http.context import (
    SESSION_COOKIE,
    caller_for,
    client_address,
    note_use,
    same_origin,
    session_cookie,
    session_policy,
    store_of,
)
from tablelog.http.isolation import FILTERS
from tablelog.http.reads import public_account
from tablelog.http.throttle import FailedSignIns
from tablelog.projections.account_text import account_lines
from tablelog.projections.page import directed_texts

AnyRequest = Request[Any, Any, Any]
ASSETS = Path(__file__).parent / "static"
_TEMPLATES = Environment(
    loader=PackageLoader("tablelog.http", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
_TEMPLATES.filters.update(FILTERS)  # players' texts are isolated: http/isolation.py


def tab_title(page: Page) -> str:
    """The tab's title: it says when the viewer is awaited, where a tab in the background
    shows it (`(1) Your move — heist`)."""
    if page.moves:
        return f"({page.moves}) Your move — {page.campaign}"
    return f"{page.campaign} · tablelog"


def tab_icon(page: Page) -> str:
    """The tab's icon: a second one, marked, while the viewer is awaited (a file of this
    service's own, as the Content-Security-Policy wants)."""
    name = "icon-move.svg" if page.moves else "icon.svg"
    return f"/assets/{name}?v={__version__}"


_TEMPLATES.globals.update(tab_title=tab_title, tab_icon=tab_icon)
# Only this service's own scripts, styles and connections: no inline script can run, and no
# asset comes from another site (the page works on a LAN without the internet).
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def _html(template: str, status: int = 200, **context: Any) -> Response[str]:
    text = _TEMPLATES.get_template(template).render(version=__version__, **context)
    return Response(text, media_type="text/html", status_code=status, headers=_HEADERS)


render = _html  # for the page's other route modules (invites.py)


def _session_caller(request: AnyRequest, campaign: str) -> tuple[Caller, str] | None:
    """The caller of the request's session cookie, if it still holds for this campaign (not
    signed out, revoked, or ended by the service's `SessionPolicy`); a use of it."""
    session = session_cookie(request)
    if session is None:
        return None
    state = request.app.state
    try:
        caller = authenticate(store_of(state), session, "session", session_policy(state))
    except TablelogError:
        return None
    if caller.campaign != campaign:
        return None
    note_use(state, caller)
    return caller, session


def _signed_out_why(request: AnyRequest) -> str | None:
    """Why this browser's session stopped working (a re-issue of its seat, another device,
    its age), for the sign-in prompt; None without a session cookie or a known reason."""
    session = session_cookie(request)
    if session is None:
        return None
    state = request.app.state
    try:
        authenticate(store_of(state), session, "session", session_policy(state))
    except Unauthenticated as refused:
        return refused.message if refused.code in ("revoked-token", "session-expired") else None
    except TablelogError:
        return None
    return None


def _render(request: AnyRequest, campaign: str) -> Response[str]:
    name = campaign.strip().lower()
    signed = _session_caller(request, name)
    if signed is None:
        return _html("sign_in.html", campaign=name, ended=_signed_out_why(request))
    caller, session = signed
    page = page_of(store_of(request.app.state), name, caller, head=caller.head)
    idle = span(session_policy(request.app.state).idle_s)
    csrf = csrf_token(session)
    # Read afresh on every render: contacts are kept beside the log, not in the page model
    # shared until the campaign moves.
    box = notices_box(store_of(request.app.state), name, caller)
    # The box's Discord part says where the campaign is played (any member may know it).
    bound = [] if box is None else discord_links.channels(store_of(request.app.state), name)
    return _html(
        "page.html",
        page=page,
        texts=page.texts,
        csrf=csrf,
        idle=idle,
        fragment=False,
        notices=box,
        discord_channels=bound,
        discord_code_hours=discord_links.CODE_HOURS,
    )


@get("/campaigns/{campaign:str}/play", include_in_schema=False)
async def play_page(request: AnyRequest, campaign: FromPath[str]) -> Response[str]:
    """The campaign's page for a signed-in browser, else the page that signs it in."""
    return await anyio.to_thread.run_sync(_render, request, campaign)


class LinkToken(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    token: str
    # The person said yes to leaving the seat this browser is signed in as (see `_trade`).
    replace: bool = False


class SignedIn(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    role: str
    # False: this browser was signed in as the link's seat already; the link stays unused.
    traded: bool = True


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    role: str


class OtherSeat(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to a link of another seat opened where a session is signed in."""

    code: str
    message: str
    current: Seat
    link: Seat


def _who(seat: Seat, campaign: str) -> str:
    return f"the GM of {campaign}" if seat.role == "gm" else f"{seat.player} ({seat.role})"


def _trade(request: AnyRequest, campaign: str, data: LinkToken) -> Response[Any]:
    """Trade the link for a session, unless this browser is signed in already: then a link
    of another seat is traded only with `replace` (the person said yes), and one of the same
    seat not at all. Both leave the link unused and the session as it was."""
    same_origin(request)  # no other site may sign a browser in (to its own seat)
    sign_ins: FailedSignIns = request.app.state.sign_ins
    address = client_address(request)
    sign_ins.check(address)
    name = campaign.strip().lower()
    store = store_of(request.app.state)
    try:
        seat = link_seat(store, name, data.token)
    except Unauthenticated:
        sign_ins.failed(address)
        raise
    earlier = _session_caller(request, name)
    if earlier is not None:
        now, wanted = Seat(player=earlier[0].player, role=earlier[0].role), Seat(**seat)
        if now == wanted:
            return Response(SignedIn(**seat, traded=False), status_code=200)
        if not data.replace:
            question = (
                f"You are signed in as {_who(now, name)}; sign in as {_who(wanted, name)} instead?"
            )
            answer = OtherSeat(code="signed-in", message=question, current=now, link=wanted)
            return Response(answer, status_code=409)
    try:
        session, caller = open_session(store, name, data.token)
    except Unauthenticated:
        sign_ins.failed(address)
        raise
    if earlier is not None:  # this browser's cookie is replaced: its session ends with it
        close_session(store, earlier[0], "switched")
    cookie = Cookie(
        key=SESSION_COOKIE,
        value=session,
        path=f"/campaigns/{name}",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=int(session_policy(request.app.state).max_s),
    )
    return Response(
        SignedIn(player=caller.player, role=caller.role), status_code=201, cookies=[cookie]
    )


@post("/campaigns/{campaign:str}/play/session", include_in_schema=False, status_code=201)
async def trade_link(
    request: AnyRequest, campaign: FromPath[str], data: JSONBody[LinkToken]
) -> Response[Any]:
    """Trade a sign-in link's token (once) for this browser's session cookie (asking first
    where another seat is signed in: `_trade`)."""
    return await anyio.to_thread.run_sync(_trade, request, campaign, data)


@post(
    "/campaigns/{campaign:str}/play/sign-out",
    include_in_schema=False,
    status_code=200,
    sync_to_thread=True,
)
def sign_out(request: AnyRequest, campaign: FromPath[str]) -> Response[dict[str, str]]:
    """End this browser's session at once (its token is revoked; its feed ends)."""
    caller = caller_for(request, campaign)
    close_session(store_of(request.app.state), caller)
    gone = Cookie(key=SESSION_COOKIE, value="", path=f"/campaigns/{caller.campaign}", max_age=0)
    return Response({"signed_out": caller.player}, cookies=[gone])


@get("/campaigns/{campaign:str}/play/table", include_in_schema=False, sync_to_thread=True)
def table_fragment(
    request: AnyRequest,
    campaign: FromPath[str],
    at: Annotated[int | None, QueryParameter(ge=1, le=MAX_SEQ, required=False)] = None,
) -> Response[str]:
    """The panels and forms (now, or as of seq `at`), for the page to swap in."""
    caller = caller_for(request, campaign)
    page: Page = page_of(
        store_of(request.app.state), caller.campaign, caller, at=at, head=caller.head
    )
    return _html("table.html", page=page, texts=page.texts, fragment=True)


@get("/campaigns/{campaign:str}/play/notices", include_in_schema=False, sync_to_thread=True)
def notices_fragment(request: AnyRequest, campaign: FromPath[str]) -> Response[str]:
    """The caller's own "Notices" box as it stands, for the page to swap in after it changed
    a contact (empty for an observer)."""
    caller = caller_for(request, campaign)
    box = notices_box(store_of(request.app.state), caller.campaign, caller)
    return _html("notices.html", notices=box, texts=[])


@get("/campaigns/{campaign:str}/play/audit", include_in_schema=False, sync_to_thread=True)
def audit_fragment(
    request: AnyRequest, campaign: FromPath[str], conflict: FromQuery[str | None] = None
) -> Response[str]:
    """A conflict's audit as the CLI prints it (an account is public by construction), each
    player's text on the caller's page isolated where a line quotes it."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    account = public_account(audit(store, caller.campaign, conflict=conflict))
    texts = audit_texts(store, caller, conflict)
    return _html("lines.html", lines=account_lines(account), ok=account.ok, texts=texts)


class PreviewAsk(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A form as the page would send it: its command's path below the campaign, its body."""

    path: str
    body: dict[str, Any]


@post(
    "/campaigns/{campaign:str}/play/preview",
    include_in_schema=False,
    status_code=200,
    sync_to_thread=True,
)
def preview_form(
    request: AnyRequest, campaign: FromPath[str], data: JSONBody[PreviewAsk]
) -> Preview:
    """What the form would do if sent now (commands/preview.py): nothing is appended."""
    caller = caller_for(request, campaign)
    return preview(store_of(request.app.state), caller.campaign, caller, data.path, data.body)


@post(
    "/campaigns/{campaign:str}/play/no-script",
    include_in_schema=False,
    status_code=400,
)
async def no_script(campaign: FromPath[str]) -> Response[str]:
    """Where the page's forms post when no script sends them (JavaScript off): the forms say
    `method="post"`, so typed text never lands in an address, a history or a server's log,
    and this answers that nothing was sent. The body is never read."""
    return _html("no_script.html", status=400, campaign=campaign.strip().lower())


def audit_texts(store: EventStore, caller: Caller, conflict: str | None) -> list[str]:
    """The players' texts an audit may quote: the page's, and those in the conflict's events
    (it may be closed, no longer on the page), as the caller may read them in the log."""
    texts = page_of(store, caller.campaign, caller, head=caller.head).texts
    items = log_items(store, caller.campaign, conflict=conflict, viewer=caller.viewer)
    return directed_texts([msgspec.json.decode(i.line) for i in items], texts)


ROUTES: list[HTTPRouteHandler] = [  # behind the guard
    sign_out,
    preview_form,
    table_fragment,
    notices_fragment,
    audit_fragment,
]
PUBLIC: list[HTTPRouteHandler | Router] = [
    play_page,
    trade_link,
    no_script,
    create_static_files_router(
        path="/assets", directories=[ASSETS], include_in_schema=False, send_as_attachment=False
    ),
]
