"""Options shared by campaign-scoped commands."""

from __future__ import annotations

from typing import Annotated

import typer

from tablelog.commands.database import DEFAULT_TARGET

CampaignOption = Annotated[
    str | None,
    typer.Option(
        "--campaign",
        "-c",
        envvar="TABLELOG_CAMPAIGN",
        help="The campaign; default: the only one in the database.",
        show_default=False,
    ),
]

JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


def target(ctx: typer.Context) -> str:
    """The --db target chosen on the root command."""
    value = ctx.find_root().obj
    return value if isinstance(value, str) else DEFAULT_TARGET
