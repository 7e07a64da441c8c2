"""`tablelog export` and `tablelog import`."""

from __future__ import annotations

import os
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from tablelog.cli.options import CampaignOption, JsonOption, target
from tablelog.cli.output import emit_json
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.transfer import export_jsonl, read_export, write_import
from tablelog.errors import InvalidInput


class Format(StrEnum):
    jsonl = "jsonl"


def export(
    ctx: typer.Context,
    format_: Annotated[
        Format, typer.Option("--format", help="jsonl: every event, envelope and payload as stored.")
    ] = Format.jsonl,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file, not stdout.")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Export a campaign; the JSON Lines form can be re-checked and imported anywhere.

    Example: `tablelog export --format jsonl --output bar-fight.jsonl -c bar-fight`
    """
    with opened(target(ctx)) as store:
        name = resolve_campaign(store, campaign)
        lines = list(export_jsonl(store, name))
    data = b"".join(line + b"\n" for line in lines)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    # Write beside the target and rename: a reader never sees half a file.
    try:
        folder = output.resolve().parent
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{output.name}.")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        Path(temporary).replace(output)
    except OSError as exc:
        raise InvalidInput(f"cannot write {output}: {exc.strerror}", code="bad-output") from None
    typer.echo(f"exported {len(lines)} event(s) of campaign {name} to {output}", err=True)


def import_(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A JSON Lines export.")],
    json: JsonOption = False,
) -> None:
    """Load a JSON Lines export, after checking every line's sequence and hash chain.

    A file with a broken chain or sequence is refused, naming the line, and nothing is written.
    Each imported campaign gets a new GM access token (shown once).

    Example: `tablelog --db other.db import bar-fight.jsonl`
    """
    campaigns = read_export(file)  # the whole file is checked before any database is touched
    with opened(target(ctx), create=True) as store:
        imported = write_import(store, campaigns)
    if json:
        emit_json(
            [
                {
                    "campaign": i.campaign,
                    "events": i.events,
                    "seq": i.head_seq,
                    "hash": i.head_hash,
                    "token": i.token,
                }
                for i in imported
            ]
        )
        return
    for item in imported:
        typer.echo(
            f"imported campaign {item.campaign} ({item.ruleset}, {item.events} events, "
            f"head {item.head_seq}:{item.head_hash})"
        )
        typer.echo(f"GM access token (shown once, keep it safe): {item.token}")


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("import")(import_)
