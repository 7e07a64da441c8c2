"""`tablelog sessions` and `tablelog sessions end`: the web page's signed-in browsers."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

import msgspec
import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import columns, decoded, emit_json, say, when
from tablelog.commands import sessions
from tablelog.commands.database import opened, resolve_campaign

app = typer.Typer(invoke_without_command=True)

PlayerOption = Annotated[
    str | None,
    typer.Option(
        "--player",
        help="Only this player's sessions (the GM's or the operator's choice; a player sees "
        "only their own anyway).",
        show_default=False,
    ),
]


@app.callback()
def list_(
    ctx: typer.Context,
    campaign: CampaignOption = None,
    player: PlayerOption = None,
    json: JsonOption = False,
) -> None:
    """Web sessions: browsers signed in to the web page with a link (not game sessions,
    which are `tablelog session`). Lists the campaign's live ones: id, player, role,
    created, last used, and whether it is the one asking.

    Locally the operator sees every session of the campaign not signed out, revoked or
    ended (the service also ends a session left unused for its `--session-idle`, 14 days by
    default, and 30 days after its sign-in: a local list still shows those until then).
    Through the service the GM sees every session, a player or an observer their own. An id
    names a session; it is no secret and signs nobody in. `tablelog sessions end ID` ends one.

    Example: `tablelog sessions --json`, or as a player:
    `tablelog --server http://HOST:8000 --access-token TOKEN sessions`
    """
    if ctx.invoked_subcommand is not None:
        return
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        params = {} if player is None else {"player": player}
        found = decoded(
            client.json("GET", f"/campaigns/{quote(name)}/web-sessions", params=params),
            list[sessions.Session],
        )
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            found = sessions.listed(store, name, player=player)
    if json:
        emit_json({"campaign": name, "sessions": msgspec.to_builtins(found)})
        return
    if not found:
        say(f"{name} has no live web session{'' if player is None else ' of ' + player}")
        return
    rows = [
        [
            s.id,
            s.player,
            s.role,
            when(s.created_at),
            when(s.last_used_at),
            "this one" if s.current else "",
        ]
        for s in found
    ]
    say(columns(["id", "player", "role", "created", "last used", ""], rows))


@app.command("end")
def end(
    ctx: typer.Context,
    session_id: Annotated[
        str | None,
        typer.Argument(
            help="The session's id, as `tablelog sessions` lists it.", show_default=False
        ),
    ] = None,
    all_: Annotated[
        bool,
        typer.Option(
            "--all",
            help="End every session you may see instead (with --player: that player's).",
        ),
    ] = False,
    player: PlayerOption = None,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """End a web session by its id, or every one with --all.

    Each stops working at once: its page is signed out and its live feed ends. The operator
    or the GM ends anyone's; a player or an observer only their own.

    Example: `tablelog sessions end 3f9a1c0b7d2e`, or every one of bob's:
    `tablelog sessions end --all --player bob`
    """
    if all_ and session_id is not None:
        raise typer.BadParameter("give a session ID or --all, not both", param_hint="ID")
    if not all_ and session_id is None:
        raise typer.BadParameter(
            "give the ID of the session to end (`tablelog sessions` lists them), or --all",
            param_hint="ID",
        )
    if player is not None and not all_:
        raise typer.BadParameter("--player goes with --all", param_hint="--player")
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        path = f"/campaigns/{quote(name)}/web-sessions"
        if session_id is not None:
            path += f"/{sessions.checked_id(session_id)}"
        params = {} if player is None else {"player": player}
        ended = decoded(client.json("DELETE", path, params=params), sessions.Ended)
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            if session_id is not None:
                ended = sessions.end(store, name, session_id)
            else:
                ended = sessions.end_all(store, name, player=player)
    if json:
        emit_json({"campaign": name, **msgspec.to_builtins(ended)})
        return
    if not ended.ended:
        say(f"{name} had no live web session to end")
    for s in ended.ended:
        mine = " (this one)" if s.current else ""
        say(f"ended web session {s.id} of {s.role} {s.player}{mine} in {name}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="sessions")
