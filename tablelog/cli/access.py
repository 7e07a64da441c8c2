"""`tablelog invite` and `tablelog revoke`: access tokens for the service."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import emit_json, say
from tablelog.commands import access
from tablelog.commands.database import opened, resolve_campaign


class InviteRole(StrEnum):
    player = "player"
    observer = "observer"
    gm = "gm"


def invite(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Who the token is for (created if new).")],
    role: Annotated[
        InviteRole,
        typer.Option(
            "--role",
            help="player: acts for its own character; observer: reads only; gm (locally, "
            "for the campaign's GM only): a new GM token.",
        ),
    ] = InviteRole.player,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Print a new access token for a player or an observer (shown once, stored hashed).

    Locally, or through the service as the GM. A player invited for the first time joins
    the campaign.

    Example: `tablelog invite bob` or `tablelog invite carol --role observer --json`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        path = f"/campaigns/{quote(name)}/players/{quote(player, safe='')}/tokens"
        token = str(client.json("POST", path, json={"role": role.value})["token"])
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            token = access.invite(store, name, player, role.value)
    if json:
        emit_json({"token": token, "campaign": name, "player": player, "role": role.value})
        return
    say(f"{role.value} {player}'s access token for {name} (shown once, keep it safe):")
    say(token)


def revoke(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="Whose tokens to revoke.")],
    campaign: CampaignOption = None,
) -> None:
    """Revoke every live access token of a player or observer.

    Example: `tablelog revoke bob`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        path = f"/campaigns/{quote(name)}/players/{quote(player, safe='')}/tokens"
        count = int(client.json("DELETE", path)["revoked"])
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            count = access.revoke(store, name, player)
    say(f"revoked {count} access token(s) of {player} in {name}")


def register(app: typer.Typer) -> None:
    app.command("invite")(invite)
    app.command("revoke")(revoke)
