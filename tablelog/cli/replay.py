"""`tablelog replay`: step through a conflict, showing the table after each event."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import ExitStack
from typing import Annotated
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, remote, target
from tablelog.cli.output import decoded, say
from tablelog.cli.progress import progress_bar
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.log import MAX_SEQ
from tablelog.commands.reads import ReplayItem, replay_items
from tablelog.errors import InvalidInput
from tablelog.progress import SILENT


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
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        got = client.get(f"/campaigns/{quote(name)}/replay", conflict=conflict, at=at)
        shown = _show(decoded(got, list[ReplayItem]), interactive)
    else:
        with opened(target(ctx)) as store, ExitStack() as stack:
            name = resolve_campaign(store, campaign)
            # A bar while stepping would fight the prompt; stepping is its own progress.
            progress = SILENT if interactive else stack.enter_context(progress_bar())
            items = replay_items(store, name, conflict=conflict, upto=at, progress=progress)
            shown = _show(items, interactive)
    if not shown:
        raise InvalidInput(
            f"campaign {name} has no events" + (f" of conflict {conflict}" if conflict else ""),
            code="nothing-to-replay",
        )


def _show(items: Iterable[ReplayItem], interactive: bool) -> int:
    shown = 0
    for item in items:
        shown += 1
        say(f"--- seq {item.seq}: {item.text}")
        for line in item.lines:
            say(line)
        if interactive and input("[Enter: next, q: stop] ").strip().lower() == "q":
            break
    return shown


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
