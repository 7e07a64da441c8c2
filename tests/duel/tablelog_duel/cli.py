"""`tablelog duel ...`: the duel's own commands (`show` comes with the contract)."""

from __future__ import annotations

from typing import Annotated

import typer

from tablelog.cli.options import CampaignOption
from tablelog.cli.play import run
from tablelog_duel import rules as r

app = typer.Typer(
    no_args_is_help=True, help="A one-card duel.\n\nExample: `tablelog duel open ann bob`"
)


@app.command("open")
def open_duel(
    ctx: typer.Context,
    first: Annotated[str, typer.Argument()],
    second: Annotated[str, typer.Argument()],
    campaign: CampaignOption = None,
) -> None:
    """Open a duel. Example: `tablelog duel open ann bob`"""
    run(ctx, campaign, r.OpenDuel(first=first, second=second), ruleset="duel")


@app.command("play")
def play(
    ctx: typer.Context,
    conflict: Annotated[str, typer.Argument()],
    player: Annotated[str, typer.Argument()],
    card: Annotated[int, typer.Argument()],
    campaign: CampaignOption = None,
) -> None:
    """Play a card face down. Example: `tablelog duel play c1 ann 9`"""
    run(ctx, campaign, r.Play(conflict=conflict, player=player, card=card), ruleset="duel")


@app.command("reveal")
def reveal(
    ctx: typer.Context, conflict: Annotated[str, typer.Argument()], campaign: CampaignOption = None
) -> None:
    """Reveal both cards. Example: `tablelog duel reveal c1`"""
    run(ctx, campaign, r.Reveal(conflict=conflict), ruleset="duel")
