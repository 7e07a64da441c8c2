"""The `tablelog` command line: a thin Typer adapter over tablelog.commands.

Every command parses its arguments, calls one application function and renders the result.
Refusals (`TablelogError`) become one sentence on stderr and exit 1; nothing is written.
"""

from __future__ import annotations

import copy
import gc
import importlib
import os
import sys
from typing import Annotated, Any

import click
import typer
from typer.core import TyperGroup

from tablelog import __version__, rulesets
from tablelog.cli.helptext import flow_tree
from tablelog.cli.options import Root
from tablelog.cli.output import say
from tablelog.commands.database import DEFAULT_TARGET
from tablelog.errors import InvalidInput, TablelogError

# Each command's module, imported only when that command runs (or `--help` lists them all):
# a command pays for its own imports, not for the service's or every ruleset's. A module
# exposes `register(app)`; a ruleset's exposes its sub-app `app` (its Place names it).
_MODULES: dict[str, str] = {
    "campaign": "tablelog.cli.campaign",
    "session": "tablelog.cli.table",
    "scene": "tablelog.cli.table",
    "state": "tablelog.cli.table",
    "waiting": "tablelog.cli.waiting",
    "log": "tablelog.cli.log",
    "replay": "tablelog.cli.replay",
    "audit": "tablelog.cli.audit",
    "whatif": "tablelog.cli.whatif",
    "verify": "tablelog.cli.log",
    "backup": "tablelog.cli.backup",
    "export": "tablelog.cli.transfer",
    "import": "tablelog.cli.transfer",
    "invite": "tablelog.cli.access",
    "revoke": "tablelog.cli.access",
    "sessions": "tablelog.cli.sessions",
    "serve": "tablelog.cli.serve",
    "admin-token": "tablelog.cli.serve",
    "admin-link": "tablelog.cli.serve",
    "demo": "tablelog.cli.demo",
    "db": "tablelog.cli.database",
    "checkpoint": "tablelog.cli.checkpoint",
    "key": "tablelog.cli.checkpoint",
    "rng": "tablelog.cli.rng",
    "webhook": "tablelog.cli.webhook",
    "player": "tablelog.cli.player",
    "discord": "tablelog.cli.discord",
    "rulesets": "tablelog.cli.ruleset_list",
}


def _command_modules() -> dict[str, str]:
    return {**_MODULES, **{p.name: p.cli for p in rulesets.places()}}


_REST = "tablelog.rest"
_RESOLVING = "tablelog.resolving"


def _only(sub: typer.Typer, wanted: str | None) -> typer.Typer:
    """`sub` with only its command `wanted` when that names one (the command being run):
    Typer builds every command of a group from its function's signature up front, about 10
    ms for a ruleset's dozen. Help, or a name that matches none, gets them all."""
    only = [
        info
        for info in sub.registered_commands
        if (info.name or getattr(info.callback, "__name__", "").replace("_", "-")) == wanted
    ]
    if not only:
        return sub
    lean = copy.copy(sub)
    lean.registered_commands = only
    return lean


class _Group(TyperGroup):
    """The root group: loads each command's module on first use, and turns refusals raised
    anywhere below into exit 1 with one sentence. Every command's help is made to flow
    (`cli/helptext.py`): the terminal wraps its paragraphs, the docstrings keep theirs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        flow_tree(self)

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *_command_modules()]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        module_name = _MODULES.get(cmd_name) or _command_modules().get(cmd_name)
        if module_name is None:
            return None
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:
            if cmd_name in _MODULES:
                raise
            # A ruleset's CLI that does not load: left out of the help; named when run.
            if ctx.meta.get(_RESOLVING) != cmd_name:
                return None
            raise InvalidInput(
                f"ruleset {cmd_name} does not load ({type(exc).__name__}: {exc}); "
                "`tablelog rulesets` lists what is installed",
                code="broken-ruleset",
            ) from None
        holder = typer.Typer(add_completion=False)
        if hasattr(module, "register"):
            module.register(holder)
        else:
            from tablelog.cli.rulesets import with_show

            rest = ctx.meta.get(_REST, [])
            # A ruleset's commands get the generic `show`; a core group (`db`) does not.
            sub = module.app if cmd_name in _MODULES else with_show(module.app, cmd_name)
            holder.add_typer(_only(sub, rest[0] if rest else None), name=cmd_name)
        loaded = typer.main.get_command(holder)
        flow_tree(loaded)
        # Everything a command needs is imported by now. The garbage collector need not
        # walk those objects again: a full collection of them, which building a large
        # state view triggered twice, cost `state --json` more than the view itself.
        gc.freeze()
        if hasattr(loaded, "get_command"):  # a group of the module's commands
            return loaded.get_command(ctx, cmd_name)
        return loaded  # the module's only command

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        ctx.meta[_REST] = args[1:]  # what follows the command's name: a sub-app's command
        ctx.meta[_RESOLVING] = args[0] if args else None  # the command being run
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except TablelogError as exc:
            say(str(exc), err=True)
            raise typer.Exit(1) from None
        except click.UsageError as exc:  # raised by a command's own parsing of its words
            exc.show()
            raise typer.Exit(exc.exit_code) from None


app = typer.Typer(
    cls=_Group,
    name="tablelog",
    help=(
        "An event-sourced game log for card- and dice-driven RPG conflicts.\n\n"
        "Example: tablelog campaign create bar-fight --ruleset improv"
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        say(f"tablelog {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="TABLELOG_DB",
            help="SQLite file path or database URL (postgresql+psycopg://user@host/db). "
            "Default: ./tablelog.db",
            show_default=False,
        ),
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            envvar="TABLELOG_SERVER",
            help="Send every command through this tablelog service (http://host:port) "
            "instead of opening a database.",
            show_default=False,
        ),
    ] = None,
    access_token: Annotated[
        str | None,
        typer.Option(
            "--access-token",
            envvar="TABLELOG_TOKEN",
            help="Your access token for --server (from `campaign create` or `invite`).",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """An event-sourced game log for card- and dice-driven RPG conflicts.

    Example: `tablelog campaign create bar-fight --ruleset improv`, then `tablelog log`.
    """
    if server is not None and db is not None:
        raise InvalidInput(
            "give --db (a database) or --server (a service), not both", code="db-or-server"
        )
    ctx.obj = Root(db=db or DEFAULT_TARGET, server=server or None, token=access_token)


def main() -> None:
    """Console entry point: usage errors exit 2 (click), refusals 1, a broken log 3."""
    try:
        app()
    except KeyboardInterrupt:
        say("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        # A bug, not a refusal (those exit 1 in _Group): still one sentence, with the way to
        # see the details. Click has already handled its own usage errors (exit 2) by now.
        if os.environ.get("TABLELOG_DEBUG"):
            raise
        say(
            f"internal-error: {type(exc).__name__}: {exc}; set TABLELOG_DEBUG=1 to see the "
            "traceback, and please report it",
            err=True,
        )
        sys.exit(1)
