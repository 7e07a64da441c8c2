"""`tablelog replay`: step through a conflict, showing the table after each event."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from tablelog.cli.options import CampaignOption, target
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.log import MAX_SEQ
from tablelog.commands.replay import replay
from tablelog.errors import InvalidInput
from tablelog.projections.improv_text import describe
from tablelog.projections.views import conflict_lines


def replay_command(
    ctx: typer.Context,
    conflict: Annotated[
        str | None, typer.Option("--conflict", help="Only this conflict's events.")
    ] = None,
    at: Annotated[int | None, typer.Option("--at", help="Stop after this seq.")] = None,
    step: Annotated[
        bool, typer.Option("--step", help="On a terminal, wait for Enter after each event.")
    ] = False,
    campaign: CampaignOption = None,
) -> None:
    """Step through a conflict (or the whole campaign), showing the table after each event.

    Example: `tablelog replay --conflict fight --step` (Enter: next event, q: stop)
    """
    if at is not None and not 1 <= at <= MAX_SEQ:
        raise InvalidInput(f"--at must be a seq from 1 to {MAX_SEQ}; got {at}", code="bad-seq")
    interactive = step and sys.stdin.isatty() and sys.stdout.isatty()
    with opened(target(ctx)) as store:
        name = resolve_campaign(store, campaign)
        shown = 0
        for item in replay(store, name, conflict=conflict, upto=at):
            shown += 1
            event = item.envelope.event()
            typer.echo(f"--- seq {item.envelope.seq}: {describe(event)}")
            key = event.conflict_id()
            for line in conflict_lines(item.folded, key) if key else []:
                typer.echo(line)
            if interactive and input("[Enter: next, q: stop] ").strip().lower() == "q":
                break
    if not shown:
        raise InvalidInput(
            f"campaign {name} has no events" + (f" of conflict {conflict}" if conflict else ""),
            code="nothing-to-replay",
        )


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
