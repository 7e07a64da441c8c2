"""`tablelog log` and `tablelog verify`."""

from __future__ import annotations

from typing import Annotated

import typer

from tablelog.cli.options import CampaignOption, JsonOption, target
from tablelog.cli.output import emit_json, emit_line, when
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.log import parse_head, read_log, verify
from tablelog.projections.improv_text import describe
from tablelog.rules.names import campaign_name

EXIT_BROKEN = 3


def log(
    ctx: typer.Context,
    campaign: CampaignOption = None,
    conflict: Annotated[
        str | None, typer.Option("--conflict", help="Only this conflict's events.")
    ] = None,
    since: Annotated[int, typer.Option("--since", help="Start at this seq.")] = 0,
    json: Annotated[
        bool, typer.Option("--json", help="JSON Lines: the whole envelope, payload inline.")
    ] = False,
) -> None:
    """Print the campaign's events, one per line, oldest first.

    Example: `tablelog log --since 40` or `tablelog log --json | jq .type`
    """
    with opened(target(ctx)) as store:
        name = resolve_campaign(store, campaign)
        envelopes = read_log(store, name, since=since, conflict=conflict)
    for e in envelopes:
        if json:
            emit_line(e.to_json_line())
        else:
            typer.echo(
                f"{e.seq:>5}  {when(e.recorded_at)}  {e.actor:<10} {e.hash.hex()[:12]}  "
                f"{describe(e.event())}"
            )


def verify_command(
    ctx: typer.Context,
    head: Annotated[
        str | None,
        typer.Option("--head", help="SEQ:HASH from an export's footer that the log must contain."),
    ] = None,
    campaign: Annotated[
        str | None,
        typer.Option("--campaign", "-c", help="Check only this campaign (default: all)."),
    ] = None,
    json: JsonOption = False,
) -> None:
    """Re-check every campaign's hash chain and sequence; exit 3 on the first break.

    Example: `tablelog verify --head 57:3fa2...e9` (the full hash, as an export footer prints it)
    """
    expected_head = parse_head(head) if head is not None else None
    name = campaign_name(campaign) if campaign else None
    # No schema check: verify must also report on a damaged or foreign file, not refuse it.
    with opened(target(ctx), check_schema=False) as store:
        report = verify(store, head=expected_head, campaign=name)
    if json:
        emit_json(report)
    elif report.first_bad is None:
        found = f"; head {expected_head[0]} found" if expected_head else ""
        typer.echo(
            f"ok: {report.campaigns} campaign(s), {report.events} event(s), "
            f"every chain intact{found}"
        )
    else:
        bad = report.first_bad
        where = f"campaign {bad.campaign}, seq {bad.seq}" if bad.campaign else "the log"
        typer.echo(f"broken: {where}: {bad.reason}", err=True)
    if not report.ok:
        raise typer.Exit(EXIT_BROKEN)


def register(app: typer.Typer) -> None:
    app.command("log")(log)
    app.command("verify")(verify_command)
