"""`tablelog backup FILE`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tablelog.cli.options import JsonOption, target
from tablelog.cli.output import emit_json, say
from tablelog.cli.progress import progress_bar
from tablelog.commands.backup import BackupReport, backup

EXIT_BROKEN = 3  # as `verify`: the log (here, its copy) is broken


def backup_command(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Argument(
            help="The backup file to write; its directory must exist.", show_default=False
        ),
    ],
    force: Annotated[
        bool, typer.Option("--force", help="Replace FILE if it exists (once the copy is checked).")
    ] = False,
    json: JsonOption = False,
) -> None:
    """Copy the SQLite log to FILE, safely while services write to it, and check the copy.

    The copy is the log as it stood at one moment (what is written meanwhile waits for the
    next backup, and no writer waits for this one). Every campaign's sequence and hash chain
    is then checked in the copy, as `tablelog verify` checks a log; only a copy that passes
    is given the name FILE (a failed one is removed, exit 3). A PostgreSQL database is
    backed up with pg_dump instead (README, "Hosting").

    Example: `tablelog backup backups/tablelog-monday.db` or `tablelog --db /srv/tablelog.db
    backup /backups/tablelog.db --force --json`
    """
    with progress_bar() as progress:
        report = backup(target(ctx), file, force=force, progress=progress)
    if json:
        emit_json(report)
    if report.ok:
        if not json:
            say(f"backed up {report.database} to {report.file}: {_copied(report)}")
        return
    bad = report.first_bad
    where = f"campaign {bad.campaign}, seq {bad.seq}" if bad and bad.campaign else "the log"
    reason = bad.reason if bad else "it does not verify"
    say(
        f"broken: the copy of {report.database} fails verification at {where}: {reason}; "
        f"it was removed and {report.file} was not written (`tablelog verify` checks the "
        "database itself)",
        err=True,
    )
    raise typer.Exit(EXIT_BROKEN)


def _copied(report: BackupReport) -> str:
    campaigns = "1 campaign" if report.campaigns == 1 else f"{report.campaigns:,} campaigns"
    events = "1 event" if report.events == 1 else f"{report.events:,} events"
    return (
        f"{campaigns}, {events}, {report.bytes:,} bytes; every hash chain in the copy checked "
        "and intact"
    )


def register(app: typer.Typer) -> None:
    app.command("backup")(backup_command)
