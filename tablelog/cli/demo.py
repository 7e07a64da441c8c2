"""`tablelog demo [--ruleset NAME]`: a ruleset's whole play, written and printed."""

from __future__ import annotations

from typing import Annotated

import typer

from tablelog import rulesets
from tablelog.cli.options import target
from tablelog.cli.output import say
from tablelog.commands.database import opened
from tablelog.commands.demo import demo_of, write_demo
from tablelog.commands.reads import items_of


def demo(
    ctx: typer.Context,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            "-r",
            help=f"Whose demo: {', '.join(rulesets.names())}. Default: {rulesets.names()[0]}.",
            show_default=False,
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", help="The demo campaign's name (default: the demo's own).", show_default=False
        ),
    ] = None,
) -> None:
    """Write a ruleset's demo play into the database as a new campaign and print it.

    Example: `tablelog demo` (Improv's bar fight), then `tablelog improv show fight -c
    bar-fight`; or `tablelog demo --ruleset beer-run`
    """
    rules, play = demo_of(ruleset)
    with opened(target(ctx), create=True) as store:
        written = write_demo(store, name, ruleset=rules.name)
        label = store.label
        campaign = written[0].campaign
        items = items_of(store, campaign, written, None)  # in the words of the state
    say(f"wrote campaign {campaign} ({len(written)} events) into {label}\n")
    for envelope, item in zip(written, items, strict=True):
        if envelope.type in play.shown:
            say(f"{item.seq:>4}  {item.text}")
    say(
        f"\nnext: `tablelog {rules.name} show {play.conflict} -c {campaign}`, "
        f"`tablelog state -c {campaign}`, `tablelog verify`"
    )


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
