"""What every ruleset's sub-app gets besides its own commands: `show`, and a way to run the
ruleset's own reads locally or through the service."""

from __future__ import annotations

import copy
from typing import Annotated, Any
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption, no_view_choice, remote, target
from tablelog.cli.options import ConflictArg as Conflict
from tablelog.cli.output import decoded, emit_json, say
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.reads import Shown, ruleset_read, show
from tablelog.commands.table import viewer_named


def _show_command(ruleset: str) -> Any:
    def show_conflict(
        ctx: typer.Context,
        conflict: Conflict,
        as_player: Annotated[
            str | None,
            typer.Option("--as", help="One player's view: what is hidden from it stays hidden."),
        ] = None,
        campaign: CampaignOption = None,
        json: JsonOption = False,
    ) -> None:
        if remote(ctx) is not None:
            no_view_choice(as_player)
        _name, shown = shown_conflict(ctx, campaign, ruleset, conflict, as_player)
        if json:
            emit_json(shown.view)
            return
        for line in shown.lines:
            say(line)

    show_conflict.__doc__ = f"""Show a conflict round by round.

    CONFLICT is a conflict's id, as `tablelog state` lists it.

    Example: `tablelog {ruleset} show CONFLICT --json`
    (or `--as bob`: bob's view, others' hidden cards stay hidden)
    """
    return show_conflict


def shown_conflict(
    ctx: typer.Context, campaign: str | None, ruleset: str, conflict: str, as_player: str | None
) -> tuple[str, Shown]:
    """The campaign's name and one conflict as the caller sees it (through the service, as
    its token decides; locally, as `as_player` would, a player or observer of the campaign,
    or everything)."""
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        path = f"/campaigns/{quote(name)}/{ruleset}/conflicts/{quote(conflict, safe='~')}"
        return name, decoded(client.get(path), Shown)
    with opened(target(ctx)) as store:
        name = resolve_campaign(store, campaign)
        viewer = viewer_named(store, name, as_player) if as_player is not None else None
        return name, show(store, name, conflict, viewer, ruleset=ruleset)


def with_show(app: typer.Typer, ruleset: str) -> typer.Typer:
    """The ruleset's sub-app with the generic `show` added (a copy: the module's own stays),
    unless the ruleset has a `show` of its own (its conflicts' own name and example)."""
    full = copy.copy(app)
    full.registered_commands = [*app.registered_commands]
    if not any(command.name == "show" for command in app.registered_commands):
        full.command("show")(_show_command(ruleset))
    return full


def read(
    ctx: typer.Context, campaign: str | None, ruleset: str, name: str, path: str, value: str
) -> dict[str, Any]:
    """A ruleset's own read (`RulesetViews.reads`), locally or through the service; `path` is
    the read's path with its placeholder filled."""
    client = remote(ctx)
    if client is not None:
        where = f"/campaigns/{quote(client.campaign(campaign))}/{ruleset}{path}"
        found: dict[str, Any] = client.get(where)
        return found
    with opened(target(ctx)) as store:
        return ruleset_read(store, resolve_campaign(store, campaign), ruleset, name, value, None)
