"""`tablelog discord register|bind|unbind|channels|code`: play from Discord (issue 30)."""

from __future__ import annotations

import json as jsonlib
import os
from typing import Annotated, Any
from urllib.parse import quote

import msgspec
import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import decoded, emit_json, say
from tablelog.commands import discord_links
from tablelog.commands.database import opened, resolve_campaign
from tablelog.discord.settings import BOT_TOKEN_ENV, DISCORD_API
from tablelog.errors import InvalidInput

TOKEN_ENV = BOT_TOKEN_ENV

app = typer.Typer(
    no_args_is_help=True,
    help="Play from Discord: the `/tl` slash commands, the channels that play a campaign, and "
    "the codes that link a player's Discord account to their seat.\n\nExample: `tablelog "
    "discord register --app-id 1234567890123456789`, then `tablelog discord bind "
    "1122334455667788990 -c heist`",
)

ChannelArg = Annotated[
    str, typer.Argument(help="The channel's id (Developer Mode: Copy Channel ID).")
]


@app.command("register")
def register_commands(
    ctx: typer.Context,
    app_id: Annotated[
        str, typer.Option("--app-id", help="Your Discord application's id (Application ID).")
    ],
    guild: Annotated[
        str | None,
        typer.Option("--guild", help="Register in one server only (at once; global ones lag)."),
    ] = None,
    ruleset: Annotated[
        list[str] | None,
        typer.Option(
            "--ruleset",
            help="A ruleset whose commands to include (repeatable; default: those the "
            "database's campaigns play).",
        ),
    ] = None,
    api: Annotated[
        str, typer.Option("--api", envvar="TABLELOG_DISCORD_API", help="Discord's API.")
    ] = DISCORD_API,
    show: Annotated[
        bool, typer.Option("--print", help="Print the command set as JSON; send nothing.")
    ] = False,
) -> None:
    """Put the `/tl` command set on your Discord application (the bot token from
    TABLELOG_DISCORD_BOT_TOKEN). Run it again after an upgrade of tablelog or a new ruleset.

    Discord takes at most 8,000 characters per command: `/tl` holds the core subcommands and
    one group per ruleset, so name the rulesets your campaigns play with --ruleset when the
    database holds campaigns of many.

    Example: `TABLELOG_DISCORD_BOT_TOKEN=... tablelog discord register --app-id
    1234567890123456789 --guild 1122334455667788990`
    """
    from tablelog.discord.register import put_commands
    from tablelog.discord.tree import command_set, problems

    names = ruleset or _played(ctx)
    commands = command_set(names)
    found = problems(commands)
    if found:
        raise InvalidInput(
            f"Discord would refuse the command set of {', '.join(names)}: {found[0]}; "
            "register fewer rulesets (--ruleset)",
            code="too-many-commands",
        )
    if show:
        say(jsonlib.dumps(commands, indent=2))
        return
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise InvalidInput(
            f"set {TOKEN_ENV} to your application's bot token (Developer Portal: Bot, Reset "
            "Token); it is read from the environment so it stays out of your shell history",
            code="no-bot-token",
        )
    put_commands(api, app_id, token, commands, guild)
    where = f"server {guild}" if guild else "every server the application is in"
    say(f"registered /tl ({', '.join(names)}) for {where}")


def _played(ctx: typer.Context) -> list[str]:
    """The rulesets the database's campaigns play (those in bound channels first)."""
    from tablelog.commands.endpoints import loading_rulesets

    loading = loading_rulesets()
    location = target(ctx)
    with opened(location) as store:
        heads = store.campaigns()
    played = [h.ruleset for h in heads if h.ruleset in loading]
    return list(dict.fromkeys(played)) or loading[:1]


@app.command("bind")
def bind(
    ctx: typer.Context,
    channel: ChannelArg,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Bind a Discord channel to the campaign: `/tl` there acts on it (the GM's).

    One campaign per channel; a campaign may have several channels.

    Example: `tablelog discord bind 1122334455667788990 -c heist`
    """
    client = remote(ctx)
    if client is not None:
        where = client.campaign(campaign)
        found = decoded(
            client.json(
                "POST", f"/campaigns/{quote(where)}/discord/channels", json={"channel": channel}
            ),
            discord_links.Bound,
        )
    else:
        with opened(target(ctx)) as store:
            found = discord_links.bind(store, resolve_campaign(store, campaign), channel)
    if json:
        emit_json(msgspec.to_builtins(found))
        return
    say(f"channel {found.channel} plays campaign {found.campaign}")


@app.command("unbind")
def unbind(
    ctx: typer.Context,
    channel: ChannelArg,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Unbind a channel: `/tl` there acts on nothing until it is bound again (the GM's).

    Example: `tablelog discord unbind 1122334455667788990 -c heist`
    """
    client = remote(ctx)
    if client is not None:
        where = client.campaign(campaign)
        path = f"/campaigns/{quote(where)}/discord/channels/{quote(channel.strip(), safe='')}"
        found = decoded(client.json("DELETE", path), discord_links.Bound)
    else:
        with opened(target(ctx)) as store:
            found = discord_links.unbind(store, resolve_campaign(store, campaign), channel)
    if json:
        emit_json(msgspec.to_builtins(found))
        return
    if found.bound:
        say(f"channel {found.channel} no longer plays campaign {found.campaign}")
    else:
        say(f"channel {found.channel} was not bound")


@app.command("channels")
def channels(ctx: typer.Context, campaign: CampaignOption = None, json: JsonOption = False) -> None:
    """The Discord channels that play the campaign.

    Example: `tablelog discord channels -c heist --json`
    """
    client = remote(ctx)
    if client is not None:
        where = client.campaign(campaign)
        found: list[str] = client.get(f"/campaigns/{quote(where)}/discord/channels")["channels"]
    else:
        with opened(target(ctx)) as store:
            found = discord_links.channels(store, resolve_campaign(store, campaign))
    if json:
        emit_json({"channels": found})
        return
    for channel in found:
        say(channel)
    if not found:
        say("no channel plays this campaign (`tablelog discord bind CHANNEL_ID`)")


@app.command("code")
def code(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The seat: a player, or gm.")],
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """A one-time code that links a Discord account to a seat: its holder types `/tl link
    CODE` in Discord (valid 48 hours; a newer code replaces it).

    The GM makes one for any seat (send it with the invite); a player for their own.

    Example: `tablelog discord code ben -c heist`
    """
    client = remote(ctx)
    if client is not None:
        where = client.campaign(campaign)
        path = f"/campaigns/{quote(where)}/discord/codes"
        found: Any = decoded(
            client.json("POST", path, json={"player": player}), discord_links.LinkCode
        )
    else:
        with opened(target(ctx)) as store:
            found = discord_links.new_code(store, resolve_campaign(store, campaign), player)
    if json:
        emit_json(msgspec.to_builtins(found))
        return
    say(f"{found.player} types in Discord: /tl link {found.code}")
    say(f"(once, until {found.expires.replace('T', ' ')})")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="discord")
