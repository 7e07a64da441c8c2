"""The GM's Discord channels and the players' link codes over HTTP (`tablelog discord`
through the service, and the page's Discord box)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, delete, get, post
from litestar.params import FromPath, JSONBody

from tablelog.commands import discord_links
from tablelog.http.context import caller_for, store_of

AnyRequest = Request[Any, Any, Any]


class ChannelAsk(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    channel: str


class CodeAsk(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player: str | None = None  # None: the caller's own seat


class Channels(msgspec.Struct, frozen=True, kw_only=True):
    channels: list[str]


@get("/campaigns/{campaign:str}/discord/channels", sync_to_thread=True, tags=["discord"])
def channels(request: AnyRequest, campaign: FromPath[str]) -> Channels:
    """The Discord channels that play the campaign (any member may know where it is played)."""
    caller = caller_for(request, campaign)
    found = discord_links.channels(store_of(request.app.state), caller.campaign)
    return Channels(channels=found)


@post(
    "/campaigns/{campaign:str}/discord/channels",
    sync_to_thread=True,
    tags=["discord"],
    status_code=200,
)
def bind(
    request: AnyRequest, campaign: FromPath[str], data: JSONBody[ChannelAsk]
) -> discord_links.Bound:
    """Bind a channel to the campaign (the GM's)."""
    caller = caller_for(request, campaign)
    return discord_links.bind(store_of(request.app.state), caller.campaign, data.channel, caller)


@delete(
    "/campaigns/{campaign:str}/discord/channels/{channel:str}",
    sync_to_thread=True,
    tags=["discord"],
    status_code=200,
)
def unbind(
    request: AnyRequest, campaign: FromPath[str], channel: FromPath[str]
) -> discord_links.Bound:
    """Unbind a channel (the GM's)."""
    caller = caller_for(request, campaign)
    return discord_links.unbind(store_of(request.app.state), caller.campaign, channel, caller)


@post(
    "/campaigns/{campaign:str}/discord/codes",
    sync_to_thread=True,
    tags=["discord"],
    status_code=200,
)
def code(
    request: AnyRequest, campaign: FromPath[str], data: JSONBody[CodeAsk]
) -> discord_links.LinkCode:
    """A one-time code for `/tl link CODE`: the GM's for any seat, a player's for their own."""
    caller = caller_for(request, campaign)
    seat = data.player if data.player is not None else caller.player
    return discord_links.new_code(store_of(request.app.state), caller.campaign, seat, caller)


ROUTES = [channels, bind, unbind, code]
