"""`tablelog rng`: committed shuffles (README, "Committed shuffles"): contribute (pledge, then
reveal), list, close, reveal. A player's client takes part by itself before every command it
sends."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

import msgspec
import typer

from tablelog.cli.contributing import contribute_pending, take_part
from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import emit_json, say
from tablelog.cli.play import Appended, run
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.rng_reads import pending
from tablelog.errors import InvalidInput
from tablelog.rules.common import Command
from tablelog.rules.names import player_name
from tablelog.rules.rng_commands import CloseRequest, RevealSeed

app = typer.Typer(
    no_args_is_help=True,
    help="Committed shuffles nobody can steer.\n\nExample: `tablelog rng contribute`",
)

RequestArg = Annotated[str, typer.Argument(help="The request's id (`tablelog rng pending`).")]


def register(holder: typer.Typer) -> None:
    holder.add_typer(app, name="rng")


@app.command("contribute")
def contribute(
    ctx: typer.Context,
    campaign: CampaignOption = None,
    as_player: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="On a local database: the player whose contribution this is (the operator "
            "relays it, so it protects only against the other players).",
        ),
    ] = None,
) -> None:
    """Take your part in every committed shuffle awaiting you: pledge fresh random bytes, and
    reveal them once every pledge is in.

    The value is kept on this machine (0600, in the user's data directory) between the two
    steps; your client does both by itself before every command it sends.

    Example: `tablelog rng contribute` (through the service, with a player's token)
    """
    client = remote(ctx)
    if client is not None:
        from tablelog.cli.play import report

        events = contribute_pending(client, client.campaign(campaign))
        written = [Appended(seq=e["seq"], text=e["text"], conflict=None) for e in events]
        report(written)
        if not written:
            say("nothing awaits your contribution")
        return
    if as_player is None:
        raise InvalidInput(
            "on a local database, name the player whose bytes these are with --as PLAYER",
            code="no-player",
        )
    player = player_name(as_player)
    with opened(target(ctx)) as store:
        name = resolve_campaign(store, campaign)

    def listed() -> list[dict[str, Any]]:
        with opened(target(ctx)) as store:
            return [msgspec.to_builtins(p) for p in pending(store, name, player)]

    def send(command: Command) -> list[Any]:
        return list(run(ctx, name, command))

    if not take_part(player, listed, send):
        say(f"nothing awaits {player}'s contribution")


@app.command("pending")
def pending_command(
    ctx: typer.Context, campaign: CampaignOption = None, json: JsonOption = False
) -> None:
    """List the committed shuffles awaiting pledges or reveals (a player sees their own).

    Example: `tablelog rng pending --json`
    """
    client = remote(ctx)
    items: list[Any]
    if client is not None:
        name = client.campaign(campaign)
        items = client.get(f"/campaigns/{quote(name)}/rng/pending")
    else:
        with opened(target(ctx)) as store:
            found = pending(store, resolve_campaign(store, campaign))
        items = msgspec.to_builtins(found)
    if json:
        emit_json(items)
        return
    for item in items:
        where = f" (conflict {item['conflict']})" if item["conflict"] else ""
        say(f"{item['request']}{where}: {_awaiting(item)}")
    if not items:
        say("no committed shuffle awaits a contribution")


def _awaiting(item: dict[str, Any]) -> str:
    if item["phase"] == "pledge":
        waiting = [p for p in item["awaited"] if p not in item["pledged"]]
        return f"awaiting the pledges of {', '.join(waiting)}"
    if item["phase"] == "reveal":
        waiting = [p for p in item["pledged"] if p not in item["given"]]
        return f"pledges closed; awaiting the reveals of {', '.join(waiting)}"
    waiting = [p for p in item["awaited"] if p not in item["given"]]
    return f"awaiting {', '.join(waiting)}"


@app.command("close")
def close(ctx: typer.Context, request: RequestArg, campaign: CampaignOption = None) -> None:
    """Close a request's pledges, or its reveals, after their deadline (GM).

    Closing the pledges logs the players who never pledged as absent; the pledged then
    reveal. Closing the reveals draws at once: a pledge never revealed is logged as withheld,
    by name.

    Example: `tablelog rng close 5f0c2a9e1b7d4c30`
    """
    run(ctx, campaign, CloseRequest(request=request))


@app.command("reveal")
def reveal(ctx: typer.Context, request: RequestArg, campaign: CampaignOption = None) -> None:
    """Reveal a drawn request's server seed (GM) once its conflict is over.

    It is revealed by itself when the conflict ends (a dealt hand's: the session).

    Example: `tablelog rng reveal 5f0c2a9e1b7d4c30`
    """
    run(ctx, campaign, RevealSeed(request=request))
