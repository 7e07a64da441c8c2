"""`tablelog export` and `tablelog import`."""

from __future__ import annotations

import os
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import emit_json, emit_raw, say
from tablelog.cli.progress import progress_bar
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.importing import import_into
from tablelog.commands.post import post
from tablelog.commands.transfer import export_jsonl
from tablelog.errors import InvalidInput


class Format(StrEnum):
    jsonl = "jsonl"
    markdown = "markdown"
    bbcode = "bbcode"
    discord = "discord"


def _write(output: Path, data: bytes) -> None:
    # Write beside the target and rename: a reader never sees half a file.
    temporary: Path | None = None
    try:
        folder = output.resolve().parent
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{output.name}.")
        temporary = Path(name)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private (0600); an export gets the user's usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        temporary.chmod(0o666 & ~umask)
        temporary.replace(output)
    except OSError as exc:
        if temporary is not None:
            temporary.unlink(missing_ok=True)  # a full disk leaves no stray temporary file
        raise InvalidInput(f"cannot write {output}: {exc.strerror}", code="bad-output") from None


def export(
    ctx: typer.Context,
    format_: Annotated[
        Format,
        typer.Option(
            "--format",
            help="jsonl: every event, envelope and payload as stored. markdown, bbcode, "
            "discord: a post for a forum, ending with a footer `tablelog verify` can check.",
        ),
    ] = Format.jsonl,
    conflict: Annotated[
        str | None,
        typer.Option("--conflict", help="A post of this conflict only (not with jsonl)."),
    ] = None,
    session: Annotated[
        int | None,
        typer.Option("--session", help="A post of this session's conflicts (not with jsonl)."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file, not stdout.")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Export a campaign as JSON Lines, or post a conflict or session to a forum.

    The JSON Lines form holds the whole campaign and can be re-checked and imported anywhere.
    markdown, bbcode (Myth-Weavers, RPoL) and discord write the table round by round with
    the outcome, ending with the campaign, the seq range and the head SEQ:HASH that
    `tablelog verify --head SEQ:HASH` checks; discord output is split into messages of at
    most 2,000 characters, separated by a line `----- 8< -----`. No post shows a card still
    face down, or a hand.

    Example: `tablelog export --format jsonl --output bar-fight.jsonl -c bar-fight`, or
    `tablelog export --format discord --conflict fight`
    """
    if format_ is Format.jsonl and (conflict is not None or session is not None):
        raise InvalidInput(
            "--conflict and --session apply to posts (markdown, bbcode, discord); a jsonl "
            "export is always the whole campaign, since a part of a chain cannot be verified",
            code="bad-scope",
        )
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        path = f"/campaigns/{quote(name)}/export"
        data = client.text(path, format=format_.value, conflict=conflict, session=session)
        done = f"exported campaign {name} as {format_.value} (as the service shows it to you)"
    else:
        data, done = _local_export(ctx, format_, campaign, conflict, session)
    if output is None:
        emit_raw(data, json_lines=format_.value == "jsonl")
        return
    _write(output, data)
    say(f"{done} to {output}", err=True)


def _local_export(
    ctx: typer.Context,
    format_: Format,
    campaign: str | None,
    conflict: str | None,
    session: int | None,
) -> tuple[bytes, str]:
    with opened(target(ctx)) as store:
        name = resolve_campaign(store, campaign)
        if format_ is Format.jsonl:
            with progress_bar() as progress:
                lines = list(export_jsonl(store, name, progress=progress))
            data = b"".join(line + b"\n" for line in lines)
            return data, f"exported {len(lines)} event(s) of campaign {name}"
        text = post(store, name, format_.value, conflict=conflict, session=session)
        return text.encode("utf-8"), f"wrote a {format_.value} post of campaign {name}"


def import_(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A JSON Lines export.")],
    json: JsonOption = False,
) -> None:
    """Load a JSON Lines export, checking every line's sequence, hash chain and payload.

    The file goes in as one transaction: a line that does not hold refuses the whole file,
    naming the line, and nothing is written (a database created for it is removed again).
    Each imported campaign gets a new GM access token (shown once).

    Example: `tablelog --db other.db import bar-fight.jsonl`
    """
    where = target(ctx)  # refuses at once through the service: an import needs the database
    with progress_bar() as progress:
        imported = import_into(where, file, progress=progress)
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
        say(
            f"imported campaign {item.campaign} ({item.ruleset}, {item.events} events, "
            f"head {item.head_seq}:{item.head_hash})"
        )
        say(f"GM access token (shown once, keep it safe): {item.token}")


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("import")(import_)
