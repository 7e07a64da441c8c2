"""The page's invites: a one-time sign-in link (and its QR code) for a seat, and the seats.

`POST /campaigns/{c}/play/invites` makes a link through `commands.invites` (the GM: any
player's or observer's; anyone: another device of their own seat) and answers it with its QR
code as inline SVG; a re-issue is made only when the body says the GM confirmed it, else it
is refused (409, `seat-held`) with the question the page asks. `GET .../play/seats` is the
GM's list of seats as an HTML fragment. Behind the guard like every campaign route: a write
by the page's cookie needs its CSRF token and this service's Origin (context.py).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, JSONBody

from tablelog.commands import invites
from tablelog.commands.notices import NoticePolicy
from tablelog.http.context import caller_for, session_policy, store_of
from tablelog.http.page import render
from tablelog.http.qr import qr_svg

AnyRequest = Request[Any, Any, Any]


class NewLink(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player: str
    role: str = "player"
    # The GM said yes to a re-issue (the page asked: `seat-held`).
    confirmed: bool = False


class LinkAnswer(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    role: str
    link: str  # shown once: its token signs a browser in, once
    qr: str  # the link as an inline <svg> QR code (http/qr.py)
    device: bool
    reissued: bool
    revoked: int
    seq: int | None
    said: str


def service_base(request: AnyRequest) -> str:
    """Where players' browsers reach this service: `serve --public-url` if given, else the
    address this page was opened at (the page's writes check its Origin against it)."""
    policy = request.app.state.notice_policy
    if isinstance(policy, NoticePolicy) and policy.public_url:
        return policy.public_url
    return f"{request.url.scheme}://{request.headers.get('host', '127.0.0.1:8000')}"


@post(
    "/campaigns/{campaign:str}/play/invites",
    include_in_schema=False,
    status_code=201,
    sync_to_thread=True,
)
def make_link(request: AnyRequest, campaign: FromPath[str], data: JSONBody[NewLink]) -> LinkAnswer:
    """A one-time sign-in link for a seat, with its QR code."""
    caller = caller_for(request, campaign)
    made = invites.invite_link(
        store_of(request.app.state),
        caller.campaign,
        data.player,
        data.role,
        caller=caller,
        base=service_base(request),
        confirmed=data.confirmed,
    )
    label = f"QR code of {made.player}'s sign-in link"
    return LinkAnswer(**msgspec.structs.asdict(made), qr=qr_svg(made.link, label))


@get("/campaigns/{campaign:str}/play/seats", include_in_schema=False, sync_to_thread=True)
def seats_fragment(request: AnyRequest, campaign: FromPath[str]) -> Response[str]:
    """The campaign's seats (the GM's): who, in which role, and whether any of theirs works."""
    caller = caller_for(request, campaign)
    state = request.app.state
    seats = invites.seats(
        store_of(state), caller.campaign, caller=caller, policy=session_policy(state)
    )
    return render("seats.html", seats=seats, texts=[])


ROUTES: list[HTTPRouteHandler] = [make_link, seats_fragment]
