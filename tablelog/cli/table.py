"""Table-wide commands: `session`, `scene` and `state`."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption, no_view_choice, remote, target
from tablelog.cli.output import emit_json, say
from tablelog.cli.play import run
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.table import state_view_of, viewer_named
from tablelog.projections.registry import views_for
from tablelog.rules.common import EndScene, EndSession, StartScene, StartSession

session_app = typer.Typer(
    no_args_is_help=True, help="Start and end game sessions.\n\nExample: `tablelog session start`"
)
scene_app = typer.Typer(
    no_args_is_help=True,
    help='Frame scenes (optional).\n\nExample: `tablelog scene start "Riso\'s bar"`',
)


@session_app.command("start")
def session_start(ctx: typer.Context, campaign: CampaignOption = None) -> None:
    """Start a session: tokens, talent uses (and managed hands) reset for the players.

    Example: `tablelog session start -c bar-fight`
    """
    run(ctx, campaign, StartSession())


@session_app.command("end")
def session_end(ctx: typer.Context, campaign: CampaignOption = None) -> None:
    """End the running session (every conflict must be closed).

    The checkpoint the service signs for the session's end is kept in your checkpoints file
    (`tablelog checkpoint --help`).

    Example: `tablelog session end`
    """
    written = run(ctx, campaign, EndSession())
    if written:
        from tablelog.cli.checkpoint import keep_session_end

        keep_session_end(ctx, campaign, written[-1].seq)


@scene_app.command("start")
def scene_start(
    ctx: typer.Context,
    title: Annotated[str | None, typer.Argument(help="The scene's title.")] = None,
    campaign: CampaignOption = None,
) -> None:
    """Start a scene; awards outside conflicts are limited to one per giver per scene.

    Example: `tablelog scene start "Riso's bar"`
    """
    run(ctx, campaign, StartScene(title=title))


@scene_app.command("end")
def scene_end(ctx: typer.Context, campaign: CampaignOption = None) -> None:
    """End the running scene.

    Example: `tablelog scene end`
    """
    run(ctx, campaign, EndScene())


def state(
    ctx: typer.Context,
    campaign: CampaignOption = None,
    at: Annotated[int | None, typer.Option("--at", help="The state as of this seq.")] = None,
    as_player: Annotated[
        str | None, typer.Option("--as", help="One player's view: others' face-down cards hidden.")
    ] = None,
    json: JsonOption = False,
) -> None:
    """The table, the token ledger and talent use, now or as of a seq.

    Example: `tablelog state --json` or `tablelog state --at 40 --as bob`
    """
    client = remote(ctx)
    if client is not None:
        no_view_choice(as_player)
        name = client.campaign(campaign)
        view = client.get(f"/campaigns/{quote(name)}/state", at=at)
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            viewer = viewer_named(store, name, as_player) if as_player is not None else None
            view = state_view_of(store, name, viewer, at=at)
    if json:
        emit_json(view)
        return
    for line in state_lines(view):
        say(line)


def state_lines(view: dict[str, Any]) -> list[str]:
    """`state` as text: the ruleset's own lines (from the view, so local and remote agree),
    then whom the table waits on (a view as of a past seq has no `awaiting`)."""
    lines = list(views_for(str(view["ruleset"])).state_lines(view))
    for step in view.get("awaiting", []):
        who = f"{step['player']} (GM)" if step["gm"] else step["player"]
        if step["character"]:
            who += f" for {step['character']}"
        what = f"may {step['what']}" if step["optional"] else step["what"]
        where = f" in {step['conflict']}" if step["conflict"] else ""
        lines.append(f"waiting on {who}: {what}{where}, since {step['since'].replace('T', ' ')}")
    return lines


def register(app: typer.Typer) -> None:
    app.add_typer(session_app, name="session")
    app.add_typer(scene_app, name="scene")
    app.command("state")(state)
