"""The Litestar application: the same command and projection layers as the CLI, over HTTP.

No rule lives here: handlers parse, call one application function, and answer; the rules
decide and authorize inside `execute`. Blocking database work runs in worker threads.
"""

from __future__ import annotations

import asyncio
import dataclasses
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from litestar import Litestar, Router
from litestar.datastructures import State
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig

from tablelog import __version__
from tablelog.commands.database import EventStore, open_store
from tablelog.commands.deliver import Policy, Worker
from tablelog.commands.listening import listener_for
from tablelog.commands.notices import NoticePolicy, deliver_notices
from tablelog.commands.session_policy import SessionPolicy
from tablelog.commands.shared_limits import SharedLimits
from tablelog.commands.signing import key_path, load_key
from tablelog.errors import TablelogError
from tablelog.http import (
    admin,
    caching,
    checkpoints,
    contacts,
    discord_links,
    errors,
    invites,
    page,
    reads,
    sessions,
    stream,
    waiting,
    webhooks,
)
from tablelog.http import discord as discord_routes
from tablelog.http.body import JsonRequest
from tablelog.http.commands import command_routes
from tablelog.http.context import signed_in
from tablelog.http.feeds import DEFAULT_PER_ADDRESS, DEFAULT_PER_TOKEN, Feeds
from tablelog.http.rulesets import ruleset_routes
from tablelog.http.throttle import (
    DEFAULT_CAMPAIGN_LIMIT,
    DEFAULT_LIMIT,
    CampaignQuota,
    FailedSignIns,
)
from tablelog.http.watch import Watches

# Threads for what blocks: the reads, the campaigns' writers (a command waits for its
# campaign's writer on the loop, without a thread: http/commands.py), the commands with an
# Idempotency-Key. Asyncio's default pool (the CPUs + 4: six on two CPUs) would let six busy
# campaigns' writers hold every thread while reads waited behind them.
HANDLER_THREADS = 64

if TYPE_CHECKING:
    from tablelog.discord.settings import DiscordSettings
    from tablelog.notices.mail_settings import MailSettings


def create_app(
    target: str | EventStore,
    *,
    auth_failures: int = DEFAULT_LIMIT,
    open_signup: bool = False,
    campaign_limit: int = DEFAULT_CAMPAIGN_LIMIT,
    feeds_per_token: int = DEFAULT_PER_TOKEN,
    feeds_per_address: int = DEFAULT_PER_ADDRESS,
    key_file: str | None = None,
    webhook_policy: Policy | None = None,
    session_policy: SessionPolicy | None = None,
    notice_policy: NoticePolicy | None = None,
    mail: MailSettings | None = None,
    discord: DiscordSettings | None = None,
) -> Litestar:
    """The service over the log at `target` (a path or URL, opened at start-up, or a store).

    `auth_failures`: failed sign-ins allowed per client address and minute; `open_signup`:
    anyone may create a campaign (otherwise only with the service's admin token);
    `campaign_limit`: campaigns created per client address and hour; `feeds_per_token`,
    `feeds_per_address`: live feeds open at once per access token and per client address
    (feeds.py); `key_file`: the signing key of its checkpoints (default:
    signing.key_path), created on first start; `webhook_policy`: how the webhooks' sender
    waits and retries (commands/deliver.py); `session_policy`: how long a web session lasts
    unused (commands/session_policy.py); `notice_policy`: the service's public address for
    the links in turn notices and the reminders' clock (commands/notices.py); `mail`: the SMTP
    server notices by mail go through (`serve --smtp`; None: no mail), as `app.state.mail`
    for the notices' sender; `discord`: the Discord application's public key and API
    (`serve --discord-public-key`; None: no Discord interactions)."""
    kept = session_policy or SessionPolicy()
    state = State(
        {
            "store": target if isinstance(target, EventStore) else None,
            "sign_ins": FailedSignIns(auth_failures),
            "open_signup": open_signup,
            "campaigns": CampaignQuota(campaign_limit),
            "watches": Watches(kept),
            "feeds": Feeds(feeds_per_token, feeds_per_address),
            "session_policy": kept,
            "key": None,
            "sender": None,
            "webhook_policy": webhook_policy or Policy(),
            "notice_policy": notice_policy or NoticePolicy(),
            "mail": mail,
            "discord": discord,
            "discord_out": None,
            "listener": None,
        }
    )

    def start() -> None:
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(HANDLER_THREADS, thread_name_prefix="tablelog-handler")
        )
        if state.store is None:
            state.store = open_store(str(target), create=True)
        state.store.checkpoint_in_background()  # no command waits for a checkpoint
        if key_file is not None:  # the webhook key lies beside it too (signing.key_path)
            state.store.key_file = key_file
        state.key = load_key(key_path(state.store), create=True)
        state.watches.start()
        shared = SharedLimits(state.store)  # the limits every service keeps together
        state.sign_ins.bind(shared)
        state.campaigns.bind(shared)
        state.feeds.bind(shared)
        watches = state.watches
        state.listener = listener_for(
            state.store,
            on_change=lambda change: watches.told(change.campaign, change.seq),
            on_listening=watches.listening,
            on_lost=watches.deaf,
        )
        if state.listener is not None:  # PostgreSQL: the feeds are told, they need not poll
            state.listener.start()
        store, policy = state.store, state.webhook_policy
        told = dataclasses.replace(state.notice_policy, mail=state.mail)
        if state.discord is not None:
            from tablelog.discord.followups import FollowUps

            state.discord_out = FollowUps(state.discord)
        if state.discord is not None and state.discord.bot_token:
            from tablelog.discord.notices import BotPoster

            poster = BotPoster(state.discord.api, state.discord.bot_token)
            told = dataclasses.replace(told, discord=poster)
        state.sender = Worker(
            store, policy, also=lambda client: deliver_notices(store, client, policy, told)
        )
        state.sender.start()  # posts go out beside the commands, never inside one

    def stop() -> None:
        if state.listener is not None:
            state.listener.stop()
        state.feeds.close()
        if state.sender is not None:
            state.sender.stop()
        if state.discord_out is not None:
            state.discord_out.close()
        if not isinstance(target, EventStore) and state.store is not None:
            state.store.close()

    # Every route but reads.PUBLIC signs its caller in before anything else of the request
    # is read (context.py).
    signed = Router(
        path="/",
        route_handlers=[
            *reads.ROUTES,
            *checkpoints.ROUTES,
            *webhooks.ROUTES,
            *contacts.ROUTES,
            *discord_links.ROUTES,
            *ruleset_routes(),
            *stream.ROUTES,
            *command_routes(),
            *page.ROUTES,
            *invites.ROUTES,
            *sessions.ROUTES,
            *waiting.ROUTES,
        ],
        before_request=signed_in,
    )
    return Litestar(
        route_handlers=[
            *reads.PUBLIC,
            *checkpoints.PUBLIC,
            *page.PUBLIC,
            *contacts.PUBLIC,
            *admin.ROUTES,  # the admin page signs in with its own cookie (http/admin.py)
            *discord_routes.ROUTES,  # Discord signs each interaction (http/discord.py)
            signed,
        ],
        request_class=JsonRequest,
        state=state,
        on_startup=[start],
        on_shutdown=[stop],
        # Every response but the static assets: no shared cache keeps it (caching.py).
        before_send=[caching.private],
        exception_handlers={
            TablelogError: errors.domain_error,
            ValidationException: errors.invalid_body,
            HTTPException: errors.http_error,
            Exception: errors.internal_error,
        },
        openapi_config=OpenAPIConfig(
            title="tablelog",
            version=__version__,
            description="The play-by-post service: every command and read of the CLI, with the "
            "caller's access token as `Authorization: Bearer TOKEN`.",
            path="/schema",
        ),
        request_max_body_size=errors.MAX_BODY,
        debug=False,
    )
