"""Players' contacts over HTTP (`tablelog player` through the service) and the one-click
unsubscribe link of a turn notice's mail (no sign-in: the link's token is the key)."""

from __future__ import annotations

import html
from typing import Any

import anyio
import msgspec
from litestar import Request, Response, get, post
from litestar.params import FromPath, JSONBody

from tablelog.commands import contacts, notices
from tablelog.http.context import caller_for, store_of

AnyRequest = Request[Any, Any, Any]


class DiscordLink(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    user_id: str | None  # null unlinks


class EmailAddress(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    address: str | None  # null clears


class Contacts(msgspec.Struct, frozen=True, kw_only=True):
    contacts: list[contacts.Contact]


@post(
    "/campaigns/{campaign:str}/players/{player:str}/discord",
    sync_to_thread=True,
    tags=["contacts"],
    status_code=200,
)
def discord(
    request: AnyRequest, campaign: FromPath[str], player: FromPath[str], data: JSONBody[DiscordLink]
) -> contacts.Contact:
    """Link (null: unlink) a seat's Discord user id: the GM's for anyone, a player's own."""
    caller = caller_for(request, campaign)
    return contacts.set_discord(
        store_of(request.app.state), caller.campaign, player, data.user_id, caller
    )


@post(
    "/campaigns/{campaign:str}/players/{player:str}/email",
    sync_to_thread=True,
    tags=["contacts"],
    status_code=200,
)
def email(
    request: AnyRequest,
    campaign: FromPath[str],
    player: FromPath[str],
    data: JSONBody[EmailAddress],
) -> contacts.Contact:
    """Set (null: clear) a seat's e-mail address: the GM's for anyone, a player's own."""
    caller = caller_for(request, campaign)
    return contacts.set_email(
        store_of(request.app.state), caller.campaign, player, data.address, caller
    )


@get(
    "/campaigns/{campaign:str}/players/{player:str}/contact", sync_to_thread=True, tags=["contacts"]
)
def shown(request: AnyRequest, campaign: FromPath[str], player: FromPath[str]) -> contacts.Contact:
    """A seat's contact and latest notices: the GM's, or the player's own."""
    caller = caller_for(request, campaign)
    return contacts.shown(store_of(request.app.state), caller.campaign, player, caller)


@get("/campaigns/{campaign:str}/contacts", sync_to_thread=True, tags=["contacts"])
def listed(request: AnyRequest, campaign: FromPath[str]) -> Contacts:
    """Every seat's contact (addresses as hints) and the notices still waiting (GM only)."""
    caller = caller_for(request, campaign)
    return Contacts(contacts=contacts.listed(store_of(request.app.state), caller.campaign, caller))


_PAGE = (
    "<!doctype html><html lang=en><meta charset=utf-8>"
    "<meta name=viewport content='width=device-width, initial-scale=1'>"
    "<title>tablelog: {title}</title><main><h1>{title}</h1><p>{body}</p>{form}</main></html>"
)
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def _page(title: str, body: str, form: str = "", status: int = 200) -> Response[str]:
    text = _PAGE.format(title=html.escape(title), body=html.escape(body), form=form)
    return Response(text, media_type="text/html", status_code=status, headers=_HEADERS)


def _unsubscribe_page(request: AnyRequest, token: str) -> Response[str]:
    known = notices.unsubscribe_known(store_of(request.app.state), token)
    if known is None:
        return _page("Unknown link", "This unsubscribe link is not known here.", status=404)
    form = "<form method=post><button type=submit>Stop these mails</button></form>"
    return _page(
        "Stop these mails",
        f"No more mail about campaign {known[0]} to {known[1]}: one click below.",
        form,
    )


def _unsubscribe(request: AnyRequest, token: str) -> Response[str]:
    done = notices.unsubscribed(store_of(request.app.state), token)
    if done is None:
        return _page("Unknown link", "This unsubscribe link is not known here.", status=404)
    return _page(
        "Unsubscribed",
        f"{done[1]} gets no more mail about campaign {done[0]}. The GM or you can set an "
        "address again with `tablelog player email`.",
    )


@get("/unsubscribe/{token:str}", include_in_schema=False)
async def unsubscribe_page(request: AnyRequest, token: FromPath[str]) -> Response[str]:
    """The link in a mail: one button that stops the mails (a GET changes nothing, since
    mail scanners open links)."""
    return await anyio.to_thread.run_sync(_unsubscribe_page, request, token)


@post("/unsubscribe/{token:str}", status_code=200, include_in_schema=False)
async def unsubscribe(request: AnyRequest, token: FromPath[str]) -> Response[str]:
    """One-click unsubscribe (RFC 8058: the mail client posts here; so does the page)."""
    return await anyio.to_thread.run_sync(_unsubscribe, request, token)


ROUTES = [discord, email, shown, listed]
PUBLIC = [unsubscribe_page, unsubscribe]
