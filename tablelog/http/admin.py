"""The service admin's page, `/admin`: the campaigns of the service, a new campaign of any
ruleset (its options as fields generated from the ruleset's options type), and the GM's
one-time sign-in link.

Sign-in is the campaign page's, for the service's admin: `tablelog serve` (or `tablelog
admin-link`) prints a link whose token is in the fragment; the page's script trades it once
at `POST /admin/session` for an HttpOnly, SameSite=Strict cookie scoped to /admin
(commands/admin_web.py). The admin session is a service token of its own kind: a campaign's
session is never one, and it opens no campaign.

The forms are plain `method="post"` forms, so the page works without its script (which
only trades the link, shows the chosen ruleset's options and copies a link). Each one
carries the session's CSRF token in a hidden field (the `X-CSRF-Token` header is taken too)
and must come from this service's Origin. Creating goes through `plan_campaign` and
`start_campaign`, as `POST /campaigns` does, with the same refusals, shown in one sentence.
"""

from __future__ import annotations

import contextlib
import hmac
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import anyio
import msgspec
from jinja2 import Environment, PackageLoader, select_autoescape
from litestar import Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie
from litestar.handlers import BaseRouteHandler, HTTPRouteHandler
from litestar.params import FromPath, JSONBody

from tablelog import __version__
from tablelog.commands.access import csrf_token
from tablelog.commands.admin_web import (
    AdminSession,
    admin_session,
    close_admin_session,
    new_gm_link,
    note_admin_use,
    open_admin_session,
)
from tablelog.commands.campaigns import list_campaigns, plan_campaign, start_campaign
from tablelog.commands.notices import page_link
from tablelog.commands.option_fields import OptionGroup, changed_options, core_group, ruleset_groups
from tablelog.commands.ruleset_list import found_rulesets
from tablelog.errors import (
    Forbidden,
    InvalidInput,
    StorageError,
    TablelogError,
    Unauthenticated,
    for_clients,
)
from tablelog.http.context import (
    CSRF_HEADER,
    client_address,
    same_origin,
    session_policy,
    store_of,
)
from tablelog.http.errors import status_of
from tablelog.http.isolation import FILTERS
from tablelog.http.throttle import CampaignQuota, FailedSignIns

AnyRequest = Request[Any, Any, Any]
AnyConnection = ASGIConnection[Any, Any, Any, Any]
ADMIN_COOKIE = "tablelog_admin"  # not the campaign page's cookie: neither opens the other
ADMIN_PATH = "/admin"
_SESSION = "tablelog.admin"  # where the guard keeps the admin session, in the scope's state
SHOWN = "_shown"  # a group's marker field: its fieldset was enabled (the chosen ruleset's)
_TEMPLATES = Environment(
    loader=PackageLoader("tablelog.http", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
_TEMPLATES.filters.update(FILTERS)
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'",
    # Not `no-referrer` as on the campaign page: then a browser sends `Origin: null` with a
    # form's POST, and the Origin check would refuse every form. The admin page's address
    # holds no secret (the link's token is in the fragment, which no Referer carries), and
    # `same-origin` sends no Referer to another site.
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class Made(msgspec.Struct, frozen=True, kw_only=True):
    """A GM's sign-in link just made (shown once)."""

    campaign: str
    gm: str
    link: str
    created: bool  # a new campaign, or a new link for an existing one
    reissued: int = 0  # earlier tokens of the GM that stopped working


class AdminLink(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    token: str


def _html(template: str, status: int = 200, **context: Any) -> Response[str]:
    text = _TEMPLATES.get_template(template).render(version=__version__, **context)
    return Response(text, media_type="text/html", status_code=status, headers=_HEADERS)


def _cookie(request: AnyRequest) -> str | None:
    value = request.cookies.get(ADMIN_COOKIE, "").strip()
    return value or None


def _signed(request: AnyRequest) -> tuple[AdminSession, str]:
    """The admin session of the request's cookie (Unauthenticated otherwise); a use."""
    state = request.app.state
    token = _cookie(request)
    sign_ins: FailedSignIns = state.sign_ins
    address = client_address(request)
    if token is not None:
        sign_ins.check(address)
    try:
        session = admin_session(store_of(state), token, session_policy(state))
    except Unauthenticated:
        if token is not None:
            sign_ins.failed(address)
        raise
    # A database busy now only delays the record to a later request.
    with contextlib.suppress(StorageError):
        note_admin_use(store_of(state), session, session_policy(state))
    assert token is not None
    return session, token


async def signed_admin(connection: AnyConnection, _handler: BaseRouteHandler) -> None:
    """Guard of the admin page's writes: its admin session signed in before anything else
    of the request (its form) is read, as `context.signed_in` does for a campaign's."""
    request: Any = connection
    signed = await anyio.to_thread.run_sync(_signed, request)
    scoped: dict[str, Any] = connection.scope.setdefault("state", {})
    scoped[_SESSION] = signed


def _checked(request: AnyRequest, form: Mapping[str, str]) -> tuple[AdminSession, str]:
    """A write's admin session (the guard's): from this service's Origin, with the
    session's CSRF token (the form's hidden field, or the header a script sends)."""
    found = request.scope.get("state", {}).get(_SESSION)
    session, token = found if found is not None else _signed(request)
    same_origin(request)
    given = request.headers.get(CSRF_HEADER) or form.get("csrf", "")
    if not hmac.compare_digest(given.encode(), csrf_token(token).encode()):
        raise Forbidden(
            "a write from the admin page must carry its CSRF token; reload the page",
            code="csrf",
        )
    return session, token


async def _form(request: AnyRequest) -> dict[str, str]:
    """The posted form's fields (the last value of each); a file is refused."""
    posted = await request.form()
    fields: dict[str, str] = {}
    for key, value in posted.multi_items():
        if not isinstance(value, str):
            raise InvalidInput("the admin page's forms take text only", code="bad-form")
        fields[str(key)] = value
    return fields


def _when(us: int) -> str:
    return datetime.fromtimestamp(us / 1_000_000, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _origin(request: AnyRequest) -> str:
    return f"{request.url.scheme}://{request.headers.get('host', '')}"


def _rulesets() -> tuple[list[str], list[str]]:
    """The rulesets that load, and a sentence for each found that does not."""
    found = found_rulesets()
    broken = [f"{f.name}: {f.problem}" for f in found if not f.ok]
    return [f.name for f in found if f.ok], broken


def _page(
    request: AnyRequest,
    token: str,
    *,
    values: Mapping[str, str] | None = None,
    error: str | None = None,
    made: Made | None = None,
    status: int = 200,
) -> Response[str]:
    store = store_of(request.app.state)
    names, broken = _rulesets()
    given = dict(values or {})
    chosen = given.get("ruleset", "")
    if chosen not in names:
        chosen = names[0] if names else ""
    rows = [
        {
            "name": c.campaign,
            "ruleset": c.ruleset,
            "events": c.events,
            "last": _when(c.last_activity),
        }
        for c in list_campaigns(store)
    ]
    return _html(
        "admin.html",
        status=status,
        csrf=csrf_token(token),
        campaigns=rows,
        names=names,
        broken=broken,
        groups=ruleset_groups(names),
        core=core_group(),
        chosen=chosen,
        values=given,
        shown=SHOWN,
        error=error,
        made=made,
        texts=[v for v in given.values() if v],
    )


def _show(request: AnyRequest) -> Response[str]:
    try:
        _session, token = _signed(request)
    except Unauthenticated as exc:
        why = None if _cookie(request) is None else exc.message
        return _html("admin_sign_in.html", why=why, status=200)
    return _page(request, token)


@get(ADMIN_PATH, include_in_schema=False)
async def admin_page(request: AnyRequest) -> Response[str]:
    """The admin page for a signed-in browser, else the page that signs it in."""
    return await anyio.to_thread.run_sync(_show, request)


def _trade(request: AnyRequest, data: AdminLink) -> Response[Any]:
    same_origin(request)  # no other site may sign a browser in
    state = request.app.state
    sign_ins: FailedSignIns = state.sign_ins
    address = client_address(request)
    sign_ins.check(address)
    store = store_of(state)
    try:
        session = open_admin_session(store, data.token)
    except Unauthenticated:
        sign_ins.failed(address)
        raise
    earlier = _cookie(request)
    if earlier is not None:  # this browser's earlier admin session ends with its cookie
        with contextlib.suppress(Unauthenticated):
            close_admin_session(store, admin_session(store, earlier, session_policy(state)))
    cookie = Cookie(
        key=ADMIN_COOKIE,
        value=session,
        path=ADMIN_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=int(session_policy(state).max_s),
    )
    return Response({"signed_in": "admin"}, status_code=201, cookies=[cookie])


@post(f"{ADMIN_PATH}/session", include_in_schema=False, status_code=201)
async def trade_admin_link(request: AnyRequest, data: JSONBody[AdminLink]) -> Response[Any]:
    """Trade the admin page's sign-in link (once) for this browser's admin session."""
    return await anyio.to_thread.run_sync(_trade, request, data)


def _create(request: AnyRequest, form: dict[str, str]) -> Response[str]:
    _session, token = _checked(request, form)
    state = request.app.state
    quota: CampaignQuota = state.campaigns
    address = client_address(request)
    ruleset = form.get("ruleset", "").strip()
    names, _broken = _rulesets()
    groups: list[OptionGroup] = [core_group()]
    if ruleset in names:
        groups = [*ruleset_groups([ruleset]), *groups]
    try:
        quota.check(address)
        options = changed_options([g for g in groups if f"{g.name}.{SHOWN}" in form], form)
        plan = plan_campaign(
            form.get("name", ""), ruleset=ruleset, gm=form.get("gm", "") or "gm", options=options
        )
        created = start_campaign(store_of(state), plan, link=True)
    except TablelogError as exc:
        sentence = f"{exc.code}: {for_clients(exc)}"
        return _page(request, token, values=form, error=sentence, status=status_of(exc))
    quota.created(address)
    link = f"{page_link(_origin(request), created.campaign)}#token={created.token}"
    made = Made(campaign=created.campaign, gm=created.gm, link=link, created=True)
    return _page(request, token, made=made, status=201)


@post(f"{ADMIN_PATH}/campaigns", include_in_schema=False, status_code=201, guards=[signed_admin])
async def create_campaign(request: AnyRequest) -> Response[str]:
    """Create a campaign from the admin page's form; the page shows the GM's link."""
    form = await _form(request)
    return await anyio.to_thread.run_sync(_create, request, form)


def _gm_link(request: AnyRequest, campaign: str, form: dict[str, str]) -> Response[str]:
    _session, token = _checked(request, form)
    name = campaign.strip().lower()
    try:
        given = new_gm_link(store_of(request.app.state), name)
    except TablelogError as exc:
        sentence = f"{exc.code}: {for_clients(exc)}"
        return _page(request, token, error=sentence, status=status_of(exc))
    link = f"{page_link(_origin(request), name)}#token={given.token}"
    made = Made(campaign=name, gm=given.player, link=link, created=False, reissued=given.revoked)
    return _page(request, token, made=made, status=201)


@post(
    f"{ADMIN_PATH}/campaigns/{{campaign:str}}/gm-link",
    include_in_schema=False,
    status_code=201,
    guards=[signed_admin],
)
async def gm_link(request: AnyRequest, campaign: FromPath[str]) -> Response[str]:
    """A new one-time sign-in link for an existing campaign's GM."""
    form = await _form(request)
    return await anyio.to_thread.run_sync(_gm_link, request, campaign, form)


def _options(request: AnyRequest, form: dict[str, str]) -> Response[str]:
    _session, token = _checked(request, form)
    return _page(request, token, values=form)


@post(f"{ADMIN_PATH}/options", include_in_schema=False, status_code=200, guards=[signed_admin])
async def show_options(request: AnyRequest) -> Response[str]:
    """The page again with the chosen ruleset's options (the form's way without a script)."""
    form = await _form(request)
    return await anyio.to_thread.run_sync(_options, request, form)


def _sign_out(request: AnyRequest, form: dict[str, str]) -> Response[str]:
    session, _token = _checked(request, form)
    close_admin_session(store_of(request.app.state), session)
    gone = Cookie(key=ADMIN_COOKIE, value="", path=ADMIN_PATH, max_age=0)
    answer = _html("admin_sign_in.html", why="You are signed out of the admin page.")
    answer.cookies.append(gone)
    return answer


@post(f"{ADMIN_PATH}/sign-out", include_in_schema=False, status_code=200, guards=[signed_admin])
async def sign_out(request: AnyRequest) -> Response[str]:
    """End this browser's admin session at once."""
    form = await _form(request)
    return await anyio.to_thread.run_sync(_sign_out, request, form)


# Public: each signs its caller in with the admin cookie itself (never a campaign's token).
ROUTES: list[HTTPRouteHandler] = [
    admin_page,
    trade_admin_link,
    create_campaign,
    gm_link,
    show_options,
    sign_out,
]
