"""`tablelog audit`."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

import msgspec
import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import decoded, emit_json, say
from tablelog.commands.audit import audit
from tablelog.commands.database import opened, resolve_campaign
from tablelog.projections.account import Account
from tablelog.projections.account_text import account_lines

EXIT_DISCREPANCY = 3  # as `verify` on a broken chain: the log does not hold up


def audit_command(
    ctx: typer.Context,
    conflict: Annotated[
        str | None, typer.Option("--conflict", help="Only this conflict (and its decisions).")
    ] = None,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Explain every outcome with the numbers and rule behind it, and check each decision.

    Every recorded decision (reveal, Hand of Fate, close, session start) is recomputed from the
    events before it with the rules and options the campaign was created with; any that does
    not follow is named by its seq, and the exit code is 3.

    Example: `tablelog audit --conflict fight` or `tablelog audit --json | jq .ok`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        got = client.get(f"/campaigns/{quote(name)}/audit", conflict=conflict)
        got.pop("ok", None)
        account = decoded(got, Account)
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            account = audit(store, name, conflict=conflict)
    if json:
        data = msgspec.to_builtins(account)
        emit_json({"ok": account.ok, **data})
    else:
        for line in account_lines(account):
            say(line)
    if not account.ok:
        raise typer.Exit(EXIT_DISCREPANCY)


def register(app: typer.Typer) -> None:
    app.command("audit")(audit_command)
