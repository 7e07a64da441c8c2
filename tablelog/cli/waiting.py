"""`tablelog waiting`: whom each table waits on, and since when, oldest first."""

from __future__ import annotations

from urllib.parse import quote

import msgspec
import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import columns, decoded, emit_json, say
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.waiting import Waiting, oldest_first, waiting_everywhere, waiting_in


def waiting(ctx: typer.Context, campaign: CampaignOption = None, json: JsonOption = False) -> None:
    """Whom the table waits on: each step someone must take (the GM's included), what it is
    and since when, oldest first, for every campaign of the database, or through the service
    for the campaign your token belongs to. Optional steps still open are marked. The GM (and
    the operator) also see when each player was told and reminded (`tablelog player`).

    Example: `tablelog waiting`, or one campaign: `tablelog waiting -c heist --json`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        found = decoded(client.get(f"/campaigns/{quote(name)}/waiting"), list[Waiting])
    else:
        with opened(target(ctx)) as store:
            if campaign is None:
                found = waiting_everywhere(store)
            else:
                found = waiting_in(store, resolve_campaign(store, campaign))
    found = oldest_first(found)
    if json:
        emit_json({"waiting": [_builtins(w) for w in found]})
        return
    if not found:
        say("no table waits on anyone")
        return
    rows = [
        [
            w.campaign,
            f"{w.player} (GM)" if w.gm else w.player,
            w.character or "",
            (f"may {w.what}" if w.optional else w.what)
            + (f" ({w.conflict})" if w.conflict else ""),
            w.since.replace("T", " "),
            _told(w),
        ]
        for w in found
    ]
    headers = ["campaign", "player", "character", "to do", "since", "told"]
    if not any(row[-1] for row in rows):  # nobody told (or not the GM's view): no column
        headers, rows = headers[:-1], [row[:-1] for row in rows]
    say(columns(headers, rows))


def _told(found: Waiting) -> str:
    """When the player was told and reminded (the GM's and the operator's view)."""
    if found.notified is None:
        return ""
    said = found.notified.replace("T", " ")
    if found.reminded:
        said += f", reminded {len(found.reminded)}x, last {found.reminded[-1].replace('T', ' ')}"
    return said


def _builtins(found: Waiting) -> dict[str, object]:
    built: dict[str, object] = msgspec.to_builtins(found)
    return built


def register(app: typer.Typer) -> None:
    app.command("waiting")(waiting)
