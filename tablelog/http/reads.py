"""The service's reads and account routes: every read filtered for its caller."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter

from tablelog import __version__
from tablelog.commands import access
from tablelog.commands.audit import audit
from tablelog.commands.campaigns import list_campaigns, plan_campaign, start_campaign
from tablelog.commands.endpoints import CommandCall, command_of_call
from tablelog.commands.log import Report, parse_head, verify
from tablelog.commands.post import post as post_text
from tablelog.commands.reads import LogItem, ReplayItem, log_items, replay_items
from tablelog.commands.rng_reads import PendingRequest, pending
from tablelog.commands.table import state_view_of
from tablelog.commands.whatif import WhatIfResult, play_whatif
from tablelog.errors import InvalidInput, NotFound
from tablelog.http.context import caller_for, client_address, may_create, store_of
from tablelog.http.throttle import CampaignQuota
from tablelog.projections.account import Account, Discrepancy

AnyRequest = Request[Any, Any, Any]
HIDDEN_TYPES = ("card_played", "cards_drawn", "cards_discarded", "deck_shuffled", "token_spent")


class NewCampaign(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    ruleset: str
    gm: str = "gm"
    options: dict[str, str] = {}


class CreatedCampaign(msgspec.Struct, frozen=True, kw_only=True):
    campaign: FromPath[str]
    ruleset: str
    gm: str
    seq: int
    hash: str
    token: str


class Me(msgspec.Struct, frozen=True, kw_only=True):
    campaign: FromPath[str]
    player: str
    role: str


class Invitation(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    role: str = "player"
    link: bool = False  # a sign-in link's token: traded once by the web page for a session


class Token(msgspec.Struct, frozen=True, kw_only=True):
    token: str
    player: str
    role: str
    reissued: bool = False  # in place of every earlier token of `player` (see `revoked`)
    revoked: int = 0
    seq: int | None = None  # where the log says so


class Revoked(msgspec.Struct, frozen=True, kw_only=True):
    revoked: int


class Health(msgspec.Struct, frozen=True, kw_only=True):
    service: str
    version: str


@get("/", sync_to_thread=False, tags=["service"])
def health() -> Health:
    """The service and its version (no token needed)."""
    return Health(service="tablelog", version=__version__)


@post("/campaigns", sync_to_thread=True, tags=["campaigns"], status_code=201, guards=[may_create])
def create(request: AnyRequest, data: JSONBody[NewCampaign]) -> CreatedCampaign:
    """Create a campaign, with the service's admin token as the bearer (no token when the
    service runs with `--open-signup`); a few per address and hour. The response holds the
    GM's access token (shown once)."""
    plan = plan_campaign(data.name, ruleset=data.ruleset, gm=data.gm, options=data.options)
    created = start_campaign(store_of(request.app.state), plan)
    quota: CampaignQuota = request.app.state.campaigns
    quota.created(client_address(request))
    return CreatedCampaign(
        campaign=created.campaign,
        ruleset=created.ruleset,
        gm=created.gm,
        seq=created.event.seq,
        hash=created.event.hash.hex(),
        token=created.token,
    )


@get("/campaigns", sync_to_thread=True, tags=["campaigns"])
def campaigns(request: AnyRequest) -> list[dict[str, Any]]:
    """The caller's campaign (a token belongs to one)."""
    caller = caller_for(request)
    return [
        msgspec.to_builtins(s)
        for s in list_campaigns(store_of(request.app.state))
        if s.campaign == caller.campaign
    ]


@get("/me", sync_to_thread=True, tags=["campaigns"])
def me(request: AnyRequest) -> Me:
    """Who the token says the caller is."""
    caller = caller_for(request)
    return Me(campaign=caller.campaign, player=caller.player, role=caller.role)


@post(
    "/campaigns/{campaign:str}/players/{player:str}/tokens",
    sync_to_thread=True,
    tags=["campaigns"],
    status_code=201,
)
def invite(
    request: AnyRequest, campaign: FromPath[str], player: FromPath[str], data: JSONBody[Invitation]
) -> Token:
    """A new access token, shown once. The GM invites a player (who joins) or an observer;
    for someone who has held access before it is a re-issue: every earlier token of theirs
    stops working and the log says so (`access.reissued`, public). A caller asking for
    itself gets a second token of its own role (another device)."""
    caller = caller_for(request, campaign)
    given = access.grant(
        store_of(request.app.state),
        caller.campaign,
        player,
        data.role,
        caller=caller,
        link=data.link,
    )
    return Token(
        token=given.token,
        player=given.player,
        role=given.role,
        reissued=given.reissued,
        revoked=given.revoked,
        seq=given.seq,
    )


@delete(
    "/campaigns/{campaign:str}/players/{player:str}/tokens",
    sync_to_thread=True,
    tags=["campaigns"],
    status_code=200,
)
def revoke(request: AnyRequest, campaign: FromPath[str], player: FromPath[str]) -> Revoked:
    """Revoke every live token of a player (GM only)."""
    caller = caller_for(request, campaign)
    count = access.revoke(store_of(request.app.state), caller.campaign, player, caller=caller)
    return Revoked(revoked=count)


@get("/campaigns/{campaign:str}/state", sync_to_thread=True, tags=["reads"])
def state(
    request: AnyRequest,
    campaign: FromPath[str],
    at: Annotated[int | None, QueryParameter(ge=1, required=False)] = None,
) -> dict[str, Any]:
    """The table, token ledger and talent use (now, or as of seq `at`), as the caller sees it."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    return state_view_of(store, caller.campaign, caller.viewer, at=at, head=caller.head)


@get("/campaigns/{campaign:str}/log", sync_to_thread=True, tags=["reads"])
def log(
    request: AnyRequest,
    campaign: FromPath[str],
    since: Annotated[int, QueryParameter(ge=0)] = 0,
    conflict: FromQuery[str | None] = None,
) -> list[LogItem]:
    """The events, oldest first; a payload holding what the caller may not see is redacted."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    return log_items(store, caller.campaign, since=since, conflict=conflict, viewer=caller.viewer)


@get("/campaigns/{campaign:str}/replay", sync_to_thread=True, tags=["reads"])
def replay(
    request: AnyRequest,
    campaign: FromPath[str],
    conflict: FromQuery[str | None] = None,
    at: Annotated[int | None, QueryParameter(ge=1, required=False)] = None,
) -> list[ReplayItem]:
    """The table after each event (of one conflict, up to `at`), as the caller sees it."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    return list(
        replay_items(store, caller.campaign, conflict=conflict, upto=at, viewer=caller.viewer)
    )


@get("/campaigns/{campaign:str}/audit", sync_to_thread=True, tags=["reads"])
def audit_route(
    request: AnyRequest, campaign: FromPath[str], conflict: FromQuery[str | None] = None
) -> dict[str, Any]:
    """Every outcome explained, and every recorded decision checked (exit 3 in the CLI)."""
    caller = caller_for(request, campaign)
    account = audit(store_of(request.app.state), caller.campaign, conflict=conflict)
    return {"ok": account.ok, **msgspec.to_builtins(public_account(account))}


def public_account(account: Account) -> Account:
    # An account is public by construction; a discrepancy's values may name hidden cards.
    account.discrepancies = [
        d
        if not d.type.endswith(HIDDEN_TYPES)
        else Discrepancy(
            seq=d.seq,
            conflict=d.conflict,
            type=d.type,
            field=d.field,
            recorded="hidden",
            expected="hidden",
        )
        for d in account.discrepancies
    ]
    return account


@get(
    "/campaigns/{campaign:str}/export", sync_to_thread=True, tags=["reads"], media_type="text/plain"
)
def export(
    request: AnyRequest,
    campaign: FromPath[str],
    format: FromQuery[str] = "jsonl",
    conflict: FromQuery[str | None] = None,
    session: Annotated[int | None, QueryParameter(ge=1, required=False)] = None,
) -> Response[bytes]:
    """A post (markdown, bbcode, discord) or the caller's view of the log as JSON Lines."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    if format == "jsonl":
        if conflict is not None or session is not None:
            raise InvalidInput("a jsonl export is always the whole campaign", code="bad-scope")
        items = log_items(store, caller.campaign, viewer=caller.viewer)
        data = "".join(i.line + "\n" for i in items).encode()
        return Response(data, media_type="application/x-ndjson")
    text = post_text(store, caller.campaign, format, conflict=conflict, session=session)
    return Response(text.encode(), media_type="text/plain; charset=utf-8")


@get("/campaigns/{campaign:str}/verify", sync_to_thread=True, tags=["reads"])
def verify_route(
    request: AnyRequest, campaign: FromPath[str], head: FromQuery[str | None] = None
) -> Report:
    """Re-check the campaign's hash chain (and, with `head` SEQ:HASH, that it holds it)."""
    caller = caller_for(request, campaign)
    expected = parse_head(head) if head is not None else None
    return verify(store_of(request.app.state), head=expected, campaign=caller.campaign)


@get("/campaigns/{campaign:str}/rng/pending", sync_to_thread=True, tags=["reads"])
def rng_pending_route(request: AnyRequest, campaign: FromPath[str]) -> list[PendingRequest]:
    """The committed shuffles awaiting contributions: a player's own, or (the GM) all."""
    caller = caller_for(request, campaign)
    mine = None if caller.role != "player" else caller.player
    return pending(store_of(request.app.state), caller.campaign, mine)


# Outside the guard of context.py: the health check; creation, which needs no campaign's
# token (see `may_create`); and the list, which shares its path and signs its caller in itself
# (it reads no body and no parameter).
PUBLIC = [health, create, campaigns]
ROUTES = [
    me,
    invite,
    revoke,
    state,
    log,
    replay,
    audit_route,
    export,
    verify_route,
    rng_pending_route,
]

__all__ = ["PUBLIC", "ROUTES"]


class WhatIfRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    at: int
    commands: list[CommandCall]


@post("/campaigns/{campaign:str}/whatif", sync_to_thread=True, tags=["reads"], status_code=200)
def whatif_route(
    request: AnyRequest, campaign: FromPath[str], data: JSONBody[WhatIfRequest]
) -> WhatIfResult:
    """Play typed commands on a scratch copy cut after `at` (each allowed for the caller as on
    the real campaign); the resulting state and outcome differences. Nothing is written."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    head = store.head(caller.campaign)
    if head is None:
        raise NotFound(f"there is no campaign {campaign!r}", code="unknown-campaign")
    commands = []
    for number, call in enumerate(data.commands, start=1):
        try:
            commands.append(command_of_call(call, head.ruleset))
        except ValueError as exc:
            raise InvalidInput(f"command {number}: {exc}", code="bad-command") from None
    return play_whatif(store, caller.campaign, data.at, commands, caller)


ROUTES.append(whatif_route)
