"""`tablelog invite` and `tablelog revoke`: access tokens for the service."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import decoded, emit_json, say
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
    link: Annotated[
        bool,
        typer.Option(
            "--link",
            help="Print a sign-in link for the web page instead of a bearer token: the "
            "browser trades it once for a session (a used link is refused).",
        ),
    ] = False,
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            envvar="TABLELOG_PUBLIC_URL",
            help="The service's address as players' browsers reach it, for --link "
            "(default: --server, else http://127.0.0.1:8000).",
        ),
    ] = None,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="With --role gm --link (locally): re-issue the GM's access, ending every "
            "earlier GM token and session, instead of adding a device.",
        ),
    ] = False,
) -> None:
    """Print a new access token for a player or an observer (shown once, stored hashed).

    Locally, or through the service as the GM. A player invited for the first time joins
    the campaign. Inviting someone who has held a token here before re-issues their access:
    every earlier token of theirs stops working, and the log says so for everyone
    (`access.reissued`), so nobody can keep a second working token of another's seat unseen.
    Through the service, a player or observer inviting itself gets a second token (another
    device) and nothing else changes.

    With `--link`, a link to the campaign's web page instead, the token in its fragment
    (never sent to a server); the browser trades it once for a session, so a link works
    once. `tablelog revoke` ends that session at once. A link for the GM (`--role gm
    --link`, locally) adds a device: the GM's CLI token and other browsers keep working;
    `--replace` re-issues instead (a lost device).

    Example: `tablelog invite bob` or `tablelog invite carol --role observer --json`; bob on
    a new laptop: `tablelog --access-token BOBS_TOKEN invite bob`; a link for a phone:
    `tablelog invite bob --link --url http://192.168.1.20:8000`
    """
    client = remote(ctx)
    if client is not None and replace:
        raise typer.BadParameter(
            "--replace is for the operator, on the database", param_hint="--replace"
        )
    if client is not None:
        name = client.campaign(campaign)
        path = f"/campaigns/{quote(name)}/players/{quote(player, safe='')}/tokens"
        body = {"role": role.value, "link": link}
        given = decoded(client.json("POST", path, json=body), access.Invited)
        base = url or client.server
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            given = access.grant(store, name, player, role.value, link=link, replace=replace)
        base = url or DEFAULT_URL
    address = sign_in_link(base, name, given.token) if link else None
    if json:
        emit_json(
            {
                "token": given.token,
                "campaign": name,
                "player": given.player,
                "role": given.role,
                "reissued": given.reissued,
                "revoked": given.revoked,
                "seq": given.seq,
                **({"link": address} if address else {}),
            }
        )
        return
    if given.reissued:
        say(
            f"{player}'s access to {name} re-issued: {given.revoked} earlier token(s) revoked; "
            f"the log says so at seq {given.seq}"
        )
    if address is not None:
        say(f"{given.role} {player}'s sign-in link for {name} (works once, keep it safe):")
        say(address)
        return
    say(f"{given.role} {player}'s access token for {name} (shown once, keep it safe):")
    say(given.token)


DEFAULT_URL = "http://127.0.0.1:8000"  # `tablelog serve`'s own default address


sign_in_link = access.sign_in_link  # where tests and `serve` found it first


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
