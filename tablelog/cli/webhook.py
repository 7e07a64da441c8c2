"""`tablelog webhook add|list|remove|deliver`: posts that land where the players are."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated
from urllib.parse import quote

import msgspec
import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import decoded, emit_json, say
from tablelog.commands import webhooks
from tablelog.commands.database import opened, resolve_campaign

app = typer.Typer(
    no_args_is_help=True,
    help="Webhooks: post reveals, closed conflicts and ended sessions to Discord or any "
    "receiver.\n\nExample: `tablelog webhook add https://discord.com/api/webhooks/ID/TOKEN`",
)


class Format(StrEnum):
    discord = "discord"
    json = "json"


@app.command("add")
def add(
    ctx: typer.Context,
    url: Annotated[str, typer.Argument(help="The webhook's URL (a secret: never shown again).")],
    fmt: Annotated[
        Format,
        typer.Option(
            "--format", help="discord: the export's Discord messages; json: signed events."
        ),
    ] = Format.discord,
    on: Annotated[
        str,
        typer.Option(
            "--on",
            help="What to post, comma-separated: reveal, close, session, and turn (a "
            "mention of each player the table begins to wait on, once they have linked a "
            "Discord id with `tablelog player discord`).",
        ),
    ] = "reveal,close,session",
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Register a webhook for the campaign (the GM's; locally or through the service).

    The URL is stored encrypted and never shown again, not even by `list`. A `json`
    webhook's signing secret is printed now, once: give it to the receiver, which checks
    each post's `X-Tablelog-Signature` with it.

    Example: `tablelog webhook add https://discord.com/api/webhooks/ID/TOKEN --on close,session`
    `tablelog webhook add https://discord.com/api/webhooks/ID/TOKEN --on turn`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        body = {"url": url, "format": fmt.value, "on": on}
        added = decoded(
            client.json("POST", f"/campaigns/{quote(name)}/webhooks", json=body),
            webhooks.Added,
        )
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            added = webhooks.add(store, name, url, fmt.value, on)
    if json:
        emit_json({"campaign": name, **msgspec.to_builtins(added)})
        return
    on_what = ", ".join(added.on)
    say(f"webhook {added.id} added to {name}: {added.format} to {added.url} on {on_what}")
    if added.secret is not None:
        say("its signing secret (shown once, give it to the receiver):")
        say(added.secret)


@app.command("list")
def list_(ctx: typer.Context, campaign: CampaignOption = None, json: JsonOption = False) -> None:
    """The campaign's webhooks: redacted URL, status, posts waiting, last error.

    Example: `tablelog webhook list`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        found = decoded(
            client.json("GET", f"/campaigns/{quote(name)}/webhooks")["webhooks"],
            list[webhooks.Listed],
        )
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            found = webhooks.listed(store, name)
    if json:
        emit_json({"campaign": name, "webhooks": msgspec.to_builtins(found)})
        return
    if not found:
        say(f"{name} has no webhooks; `tablelog webhook add URL` adds one")
    for hook in found:
        say(
            f"{hook.id}  {hook.format}  {hook.url}  on {','.join(hook.on)}  {hook.status}"
            f"  {hook.pending} waiting"
        )
        if hook.disabled_reason:
            say(f"    disabled: {hook.disabled_reason}")
        elif hook.last_error:
            say(f"    last error: {hook.last_error}")


@app.command("remove")
def remove(
    ctx: typer.Context,
    hook: Annotated[str, typer.Argument(help="The webhook's id, as `list` shows it.")],
    campaign: CampaignOption = None,
) -> None:
    """Remove a webhook and the posts it still owed.

    Example: `tablelog webhook remove wh-1a2b3c4d`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        client.json("DELETE", f"/campaigns/{quote(name)}/webhooks/{quote(hook, safe='')}")
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            webhooks.remove(store, name, hook)
    say(f"webhook {hook} removed from {name}")


@app.command("deliver")
def deliver(
    ctx: typer.Context,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for each answer.")] = 10.0,
    backoff: Annotated[
        float, typer.Option(help="Seconds before the first retry of a failed post; doubled.")
    ] = 5.0,
    disable_after: Annotated[
        float, typer.Option(help="Seconds of failures after which a webhook is disabled.")
    ] = 86400.0,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The service's address as players reach it, for the page link of turn "
            "notices (without it they carry none).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Send what the outbox holds for every campaign of a local database, then stop: posts,
    turn notices and the reminders due.

    For a database no service runs over (`tablelog serve` sends by itself): run it from
    cron. Posts still waiting for a retry are left for the next run.

    Example: `*/5 * * * * tablelog --db campaign.db webhook deliver`
    """
    from tablelog.commands.deliver import Policy, client_for, deliver_due
    from tablelog.commands.notices import NoticePolicy, checked_public_url, deliver_notices

    _positive(timeout=timeout, backoff=backoff, disable_after=disable_after)
    policy = Policy(timeout=timeout, backoff=backoff, disable_after=disable_after)
    told = NoticePolicy(public_url=None if public_url is None else checked_public_url(public_url))
    sent = notified = 0
    with opened(target(ctx)) as store, client_for(policy) as client:
        while attempts := deliver_due(store, client, policy):
            sent += attempts
        while attempts := deliver_notices(store, client, policy, told):
            notified += attempts
    say(f"{sent} post attempt(s) made, {notified} notice attempt(s)")


def _positive(**given: float) -> None:
    from tablelog.errors import InvalidInput

    for name, value in given.items():
        if not value > 0 or value == float("inf"):
            flag = "--" + name.replace("_", "-")
            raise InvalidInput(f"{flag} is a number of seconds above 0; got {value}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="webhook")
