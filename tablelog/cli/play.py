"""Shared plumbing for commands that change a campaign: run one, print what it appended."""

from __future__ import annotations

from collections.abc import Sequence

import typer

from tablelog.cli.options import target
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.table import execute
from tablelog.events.envelope import Envelope
from tablelog.projections.improv_text import describe
from tablelog.rules.common import Command


def run(
    ctx: typer.Context,
    campaign: str | None,
    command: Command,
    *,
    ruleset: str | None = None,
    echo: bool = True,
) -> list[Envelope]:
    """Execute one command on the chosen campaign and print its events (unless `echo` is off)."""
    with opened(target(ctx)) as store:
        name = resolve_campaign(store, campaign)
        written = execute(store, name, command, ruleset=ruleset)
    if echo:
        report(written)
    return written


def report(written: Sequence[Envelope]) -> None:
    for envelope in written:
        typer.echo(f"{envelope.seq:>5}  {describe(envelope.event())}")
