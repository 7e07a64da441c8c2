"""Beer Run's sealed pools from the command line (rules/beer_run/sealed.py): `pool` seals the
pool when the campaign says so (this machine keeps its content and salt, cli/sealed.py),
`unseal` opens this machine's sealed pools of the round once every pool is in, and the GM's
`deadline` and `forfeit` answer an opening that never comes."""

from __future__ import annotations

from typing import Annotated

import typer

from tablelog.cli.options import CampaignOption, collecting
from tablelog.cli.options import ConflictArg as Conflict
from tablelog.cli.play import run
from tablelog.cli.rulesets import shown_conflict
from tablelog.cli.sealed import kept_openings, seal
from tablelog.errors import InvalidInput, NotFound
from tablelog.rules.names import player_name
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules.sealed import parse_choice, pool_choice

BEER_RUN = "beer-run"


def sealed_pool(ctx: typer.Context, campaign: str | None, cmd: c.AssemblePool) -> c.AssemblePool:
    """`cmd` as it is sent: when the conflict seals this actor's pool, the commitment over
    its content for the round under way (content and salt kept on this machine)."""
    if collecting.get() is not None or cmd.conflict is None:
        return cmd
    name, shown = shown_conflict(ctx, campaign, BEER_RUN, cmd.conflict, None)
    view = shown.view
    actor = player_name(cmd.actor, "character name")
    if not view.get("sealed_plays") or actor not in (view.get("sealing") or []):
        return cmd
    choice = pool_choice(cmd.base, cmd.extras)
    opening = seal(name, view["conflict"], view["round"], actor, choice)
    return c.AssemblePool(
        conflict=cmd.conflict,
        actor=cmd.actor,
        base=[],
        commitment=opening.commitment,
        round=opening.round,
    )


def unseal(
    ctx: typer.Context,
    conflict: Conflict,
    actor: Annotated[
        str | None, typer.Argument(help="Only this character's pool (default: all kept here).")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Open your sealed pools of the round (campaigns with sealed_plays): content and salt
    kept on this machine are sent and checked against the commitment. Pools are opened once
    every pool of the round is in.

    Example: `tablelog beer-run unseal c1`
    """
    name, shown = shown_conflict(ctx, campaign, BEER_RUN, conflict, None)
    view = shown.view
    rounds = view.get("rounds") or []
    if not view.get("sealed_plays") or not rounds:
        raise InvalidInput(f"conflict {conflict} has no sealed pool to open", code="nothing-sealed")
    current = rounds[-1]
    wanted = player_name(actor, "character name") if actor else None
    openings = [
        o
        for o in kept_openings(name, view["conflict"], current["round"])
        if (wanted is None or o.side == wanted)
        and o.side in current.get("unopened", [])
        and current["sealed"].get(o.side) == o.commitment
    ]
    if not openings:
        raise NotFound(
            f"this machine keeps no unopened sealed pool for round {current['round']} of "
            f"{view['conflict']}{f' ({actor})' if actor else ''}",
            code="no-opening",
        )
    for o in openings:
        base, extras = parse_choice(o.choice)
        opening = c.OpenPool(conflict=conflict, actor=o.side, base=base, extras=extras, salt=o.salt)
        run(ctx, campaign, opening, ruleset=BEER_RUN)


def deadline(
    ctx: typer.Context,
    conflict: Conflict,
    minutes: Annotated[int, typer.Argument(help="Minutes from now.")],
    campaign: CampaignOption = None,
) -> None:
    """GM: the deadline for the openings of the round's sealed pools; after it, `forfeit`.

    Example: `tablelog beer-run deadline c1 1440` (a day)
    """
    run(ctx, campaign, c.SetPoolDeadline(conflict=conflict, minutes=minutes), ruleset=BEER_RUN)


def forfeit(
    ctx: typer.Context,
    conflict: Conflict,
    actor: Annotated[str, typer.Argument(help="The character whose pool was never opened.")],
    campaign: CampaignOption = None,
) -> None:
    """GM, after the deadline: a sealed pool never opened counts as an empty pool (rolled at
    once, paying nothing). Refused before the deadline.

    Example: `tablelog beer-run forfeit c1 alice`
    """
    run(ctx, campaign, c.ForfeitPool(conflict=conflict, actor=actor), ruleset=BEER_RUN)


def register(app: typer.Typer) -> None:
    app.command("unseal")(unseal)
    app.command("deadline")(deadline)
    app.command("forfeit")(forfeit)
