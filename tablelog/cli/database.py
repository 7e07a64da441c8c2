"""`tablelog db upgrade|current`: the schema of a server (SQLite files migrate themselves)."""

from __future__ import annotations

import typer

from tablelog.cli.options import JsonOption, target
from tablelog.cli.output import emit_json, say
from tablelog.commands import database

app = typer.Typer(
    no_args_is_help=True,
    help="Migrate the database schema (SQLite files migrate themselves).\n\n"
    "Example: `tablelog --db postgresql+psycopg://user@dbhost/tablelog db upgrade`",
)


@app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Migrate the database to this tablelog's schema revision (safe to repeat).

    Example: `tablelog --db postgresql+psycopg://postgres@127.0.0.1/tablelog db upgrade`
    """
    result = database.upgrade(target(ctx))
    say(f"{result.database} is at revision {result.revision} (head {result.head})")


@app.command("current")
def current(ctx: typer.Context, json: JsonOption = False) -> None:
    """Show the database's schema revision and whether it is this tablelog's head.

    Example: `tablelog db current`
    """
    result = database.current(target(ctx))
    if json:
        emit_json(
            {
                "database": result.database,
                "revision": result.revision,
                "head": result.head,
                "current": result.is_current,
            }
        )
        return
    state = "up to date" if result.is_current else "needs `tablelog db upgrade`"
    if result.is_newer:
        state = "written by a newer tablelog: upgrade tablelog itself"
    say(f"{result.revision or 'none (empty database)'} ({state}; head {result.head})")
