"""`tablelog serve`: the play-by-post service; `tablelog admin-token`: its admin's token."""

from __future__ import annotations

import gc
import os
from typing import TYPE_CHECKING, Annotated

import typer

from tablelog.cli.options import JsonOption, target
from tablelog.cli.output import emit_json, say
from tablelog.cli.serve_process import run_service
from tablelog.commands.admin import first_admin_token, new_admin_token
from tablelog.commands.admin_web import new_admin_link
from tablelog.commands.database import POOL_MOST, EventStore, open_store, opened
from tablelog.commands.session_policy import SESSION_IDLE_S, SessionPolicy
from tablelog.commands.signing import KEY_FILE_ENV, key_path, load_key
from tablelog.discord.settings import BOT_TOKEN_ENV, DISCORD_API, DiscordSettings
from tablelog.errors import InvalidInput
from tablelog.http.feeds import DEFAULT_PER_ADDRESS, DEFAULT_PER_TOKEN
from tablelog.http.throttle import DEFAULT_CAMPAIGN_LIMIT, DEFAULT_LIMIT

if TYPE_CHECKING:
    from tablelog.notices.mail import MailSettings

SHUTDOWN_GRACE_S = 5  # seconds a stopping service waits for the requests still running


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="The port to listen on.", min=0, max=65535)
    ] = 8000,
    auth_failures: Annotated[
        int,
        typer.Option(
            "--auth-failures",
            help="Failed sign-ins (unknown or revoked tokens) allowed per client address and "
            "minute; past them the address is refused (429) until a minute has passed.",
            min=1,
        ),
    ] = DEFAULT_LIMIT,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Behind a reverse proxy: the proxy's addresses (comma-separated IPs or "
            "networks, or '*'), whose X-Forwarded-For names the client. Without it no "
            "forwarded header is trusted: the client is the connection's peer.",
            show_default=False,
        ),
    ] = None,
    open_signup: Annotated[
        bool,
        typer.Option(
            "--open-signup",
            help="Let anyone create a campaign through the service (by default it takes the "
            "admin token this command prints on its first start).",
        ),
    ] = False,
    campaign_limit: Annotated[
        int,
        typer.Option(
            "--campaign-limit",
            help="Campaigns created through the service per client address and hour.",
            min=1,
        ),
    ] = DEFAULT_CAMPAIGN_LIMIT,
    feeds_per_token: Annotated[
        int,
        typer.Option(
            "--feeds-per-token",
            help="Live feeds (GET .../events) one access token may hold open at once; the "
            "next is refused (429) until one closes.",
            min=1,
        ),
    ] = DEFAULT_PER_TOKEN,
    feeds_per_address: Annotated[
        int,
        typer.Option(
            "--feeds-per-address",
            help="Live feeds one client address may hold open at once, whatever its tokens.",
            min=1,
        ),
    ] = DEFAULT_PER_ADDRESS,
    db_connections: Annotated[
        int,
        typer.Option(
            "--db-connections",
            help="Connections this service may hold to its database at once (and one more "
            "to listen, on PostgreSQL): several services on one PostgreSQL need max_connections "
            "above the sum.",
            min=2,
            max=1000,
        ),
    ] = POOL_MOST,
    key_file: Annotated[
        str | None,
        typer.Option(
            "--key-file",
            envvar=KEY_FILE_ENV,
            help="The key the service signs checkpoints with, created on first start "
            "(default: beside a SQLite file, else tablelog/service.key in your configuration "
            "directory); readable by its owner only.",
            show_default=False,
        ),
    ] = None,
    webhook_timeout: Annotated[
        float, typer.Option(help="Seconds a webhook's receiver has to answer a post.", min=0.01)
    ] = 10.0,
    webhook_backoff: Annotated[
        float,
        typer.Option(
            help="Seconds before a failed post is tried again; doubled each time.", min=0.01
        ),
    ] = 5.0,
    webhook_disable_after: Annotated[
        float,
        typer.Option(help="Seconds of failures after which a webhook is disabled.", min=0.01),
    ] = 86400.0,
    webhook_poll: Annotated[
        float, typer.Option(help="Seconds between looks at the webhooks' outbox.", min=0.01)
    ] = 1.0,
    session_idle: Annotated[
        float,
        typer.Option(
            help="Seconds a web session (a browser signed in with a link) may go without a "
            "request before the service ends it: 1209600 is 14 days. A session ends 30 days "
            "after its sign-in in any case.",
            min=1.0,
        ),
    ] = SESSION_IDLE_S,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The address players reach this service at, for the page links of turn "
            "notices (default: http://HOST:PORT as listened on).",
            show_default=False,
        ),
    ] = None,
    reminder_hour: Annotated[
        float,
        typer.Option(
            "--reminder-hour",
            help="For tests only: seconds an hour of the remind_hours option lasts.",
            min=0.001,
            hidden=True,
        ),
    ] = 3600.0,
    webhook_allow_private: Annotated[
        bool,
        typer.Option(
            help="Let webhooks post to loopback and private networks (by default the service "
            "posts to public addresses only)."
        ),
    ] = False,
    smtp: Annotated[
        str | None,
        typer.Option(
            "--smtp",
            help="Send notices by mail through this SMTP server: smtp://[USER@]HOST[:PORT] "
            "(port 587, STARTTLS whenever the server offers it; a USER needs it) or "
            "smtps://[USER@]HOST[:PORT] (port 465, TLS). The password is read from "
            "TABLELOG_SMTP_PASSWORD only. E.g. --smtp smtp://tablelog@mail.example.org:587",
            show_default=False,
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option(
            "--mail-from",
            help="The address notices by mail come from (with --smtp), e.g. --mail-from "
            "'tablelog <notices@example.org>'.",
            show_default=False,
        ),
    ] = None,
    smtp_ca_file: Annotated[
        str | None,
        typer.Option(
            "--smtp-ca-file",
            envvar="TABLELOG_SMTP_CA_FILE",
            help="Trust the SMTP server's certificate only if this PEM file's CA signed it "
            "(a private CA), instead of the system's trust store.",
            show_default=False,
        ),
    ] = None,
    discord_public_key: Annotated[
        str | None,
        typer.Option(
            "--discord-public-key",
            envvar="TABLELOG_DISCORD_PUBLIC_KEY",
            help="Take Discord's slash commands at /discord/interactions, checked with this "
            "public key of your Discord application (its General Information page).",
            show_default=False,
        ),
    ] = None,
    discord_api: Annotated[
        str,
        typer.Option(
            "--discord-api",
            envvar="TABLELOG_DISCORD_API",
            help="Discord's API, where follow-up messages go (a stand-in's in tests).",
        ),
    ] = DISCORD_API,
    discord_defer_after: Annotated[
        float,
        typer.Option(
            "--discord-defer-after",
            hidden=True,  # the tests' lever: Discord waits 3 s, deferring after 2 is right
            help="Seconds before a slow answer to Discord is deferred.",
            min=0.0,
        ),
    ] = 2.0,
) -> None:
    """Run the HTTP service over the chosen database (SQLite file or PostgreSQL URL).

    Players then use the CLI with `--server http://HOST:PORT --access-token TOKEN`; the
    OpenAPI document is at /schema/openapi.json. On its first start over a database it
    prints the admin token, which creating a campaign through the service needs; on every
    start, a one-time sign-in link for the admin page (/admin), where campaigns are created
    from a browser. Stop it with Ctrl-C.

    With --discord-public-key, players and the GM act from Discord: `/tl` slash commands
    in a channel the GM bound to a campaign (`tablelog discord --help`); Discord must reach
    the service at a public https address (--public-url). With TABLELOG_DISCORD_BOT_TOKEN
    too, the bot posts each turn notice in those channels, with a button for the step.

    With --smtp and --mail-from, notices to players (the table waits on you) go out by mail
    through that server; TABLELOG_SMTP_PASSWORD holds the password of the URL's user.

    Example: `tablelog --db tablelog.db serve --port 8000`, or behind a proxy on this host:
    `tablelog serve --forwarded-allow-ips 127.0.0.1`, or with notices by mail:
    `tablelog serve --smtp smtps://tablelog@mail.example.org --mail-from notices@example.org`
    """
    from tablelog.commands.deliver import Policy
    from tablelog.commands.notices import NoticePolicy, checked_public_url
    from tablelog.http.app import create_app

    public = checked_public_url(public_url or f"http://{host}:{port}")

    mail = _mail(smtp, mail_from, smtp_ca_file)  # a bad --smtp is refused before anything
    discord = _discord(discord_public_key, discord_api, discord_defer_after)
    location = target(ctx)
    assert isinstance(location, str)
    # Refuse a bad database before listening.
    store = open_store(location, create=True, connections=db_connections)
    # Every key the service looks up (the webhook key beside the signing key too) is found
    # from the one given, as README's Hosting tells hosts to copy them.
    store.key_file = key_file
    try:
        say(f"tablelog service on http://{host}:{port} over {store.label}", err=True)
        if mail is not None:
            say(f"notices by mail from {mail.mail_from} through {mail.url}", err=True)
        _announce_admin(store, open_signup)
        # A new one on every start (an earlier one not yet used stops working): the host
        # signs in to the admin page from the terminal it started the service in.
        link = admin_page_link(public, new_admin_link(store))
        say(f"admin page (this link signs in once, keep it safe): {link}")
        key = load_key(key_path(store, key_file), create=True)
        say(f"checkpoints are signed with the public key {key.public_hex}", err=True)
        app = create_app(
            store,
            auth_failures=auth_failures,
            open_signup=open_signup,
            campaign_limit=campaign_limit,
            feeds_per_token=feeds_per_token,
            feeds_per_address=feeds_per_address,
            key_file=key_file,
            session_policy=SessionPolicy(idle_s=session_idle),
            notice_policy=NoticePolicy(public_url=public, hour_s=reminder_hour),
            mail=mail,
            discord=discord,
            webhook_policy=Policy(
                timeout=webhook_timeout,
                backoff=webhook_backoff,
                disable_after=webhook_disable_after,
                poll=webhook_poll,
                allow_private=webhook_allow_private,
            ),
        )
        # The service's modules and routes live as long as it does: the garbage collector
        # need not walk them again on every full collection.
        gc.freeze()
        run_service(
            app,
            host=host,
            port=port,
            log_level="warning",
            # uvicorn's own default trusts X-Forwarded-For from 127.0.0.1: anyone on the
            # host could then choose the address the sign-in limit counts.
            proxy_headers=forwarded_allow_ips is not None,
            forwarded_allow_ips=forwarded_allow_ips or "",
            # What still runs then is cancelled: a stop never waits for ever.
            timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
        )
    finally:
        store.close()


def _discord(public_key: str | None, api: str, defer_after: float) -> DiscordSettings | None:
    """Discord's settings, or None without a public key; one sentence for a bad key."""
    from tablelog.discord.signature import BadKey
    from tablelog.discord.signature import public_key as key_of

    if public_key is None:
        return None
    try:
        key = key_of(public_key)
    except BadKey as exc:
        raise InvalidInput(str(exc), code="bad-discord-key") from None
    token = os.environ.get(BOT_TOKEN_ENV, "").strip() or None
    say(f"Discord interactions at /discord/interactions (follow-ups to {api})", err=True)
    if token is None:
        say(f"no {BOT_TOKEN_ENV}: turn notices are not posted in the bound channels", err=True)
    return DiscordSettings(key=key, api=api.rstrip("/"), defer_after_s=defer_after, bot_token=token)


def _mail(smtp: str | None, mail_from: str | None, ca_file: str | None) -> MailSettings | None:
    """The SMTP settings of --smtp, --mail-from and TABLELOG_SMTP_PASSWORD, or None without
    --smtp; one sentence (exit 1) for anything wrong with them."""
    from tablelog.notices.mail import mail_settings

    if smtp is None:
        if mail_from is not None:
            raise InvalidInput(
                "--mail-from goes with --smtp URL, the server that sends the mail",
                code="bad-mail-from",
            )
        return None
    return mail_settings(smtp, mail_from, ca_file=ca_file)


def _announce_admin(store: EventStore, open_signup: bool) -> None:
    if open_signup:
        say("anyone may create a campaign here (--open-signup)", err=True)
        return
    token = first_admin_token(store)
    if token is None:
        say(
            "creating a campaign here takes the admin token printed on this database's first "
            "serve (`tablelog admin-token` prints a new one)",
            err=True,
        )
        return
    say(f"admin token (shown once, keep it safe; creating a campaign here takes it): {token}")


def admin_page_link(base: str, token: str) -> str:
    """The admin page's sign-in link: the token in the fragment, which a browser never sends
    to a server (so it reaches no log and no Referer)."""
    return f"{base.rstrip('/')}/admin#token={token}"


def admin_link(
    ctx: typer.Context,
    url: Annotated[
        str,
        typer.Option(
            "--url",
            help="The service's address as the admin's browser reaches it.",
        ),
    ] = "http://127.0.0.1:8000",
    json: JsonOption = False,
) -> None:
    """Print a new one-time sign-in link for the service's admin page (/admin), where the
    admin lists and creates campaigns and hands out each GM's sign-in link. An earlier link
    not yet used stops working; the admin token and signed-in browsers stay as they are.
    `tablelog serve` prints one each time it starts.

    Only on the database itself (not through --server).

    Example: `tablelog --db tablelog.db admin-link --url http://gm-host:8000`
    """
    from tablelog.commands.notices import checked_public_url

    base = checked_public_url(url)
    with opened(target(ctx), create=True) as store:
        token = new_admin_link(store)
    link = admin_page_link(base, token)
    if json:
        emit_json({"link": link, "token": token})
        return
    say("the admin page's sign-in link (works once, keep it safe):")
    say(link)


def admin_token(ctx: typer.Context, json: JsonOption = False) -> None:
    """Print a new admin token for the service over this database (shown once, stored
    hashed); the earlier one stops working. Creating a campaign through the service takes it:
    `tablelog --server URL --access-token ADMIN_TOKEN campaign create NAME --ruleset improv`.

    Only on the database itself (not through --server).

    Example: `tablelog --db tablelog.db admin-token`
    """
    with opened(target(ctx), create=True) as store:
        token = new_admin_token(store)
        where = store.label
    if json:
        emit_json({"token": token})
        return
    say(f"admin token for the service over {where} (shown once; any earlier one stops working):")
    say(token)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("admin-token")(admin_token)
    app.command("admin-link")(admin_link)
