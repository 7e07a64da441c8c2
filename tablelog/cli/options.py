"""Options shared by campaign-scoped commands."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tablelog.commands.database import DEFAULT_TARGET, EventStore
from tablelog.errors import InvalidInput
from tablelog.rules.common import Command

if TYPE_CHECKING:
    from tablelog.cli.remote import Client

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

ConflictArg = Annotated[str, typer.Argument(help="The conflict id printed by `open` (e.g. c1).")]


# Set while `whatif` runs its file: every command then acts on the scratch copy, whatever
# --db says, so no line of a what-if file can reach the real log.
scratch: ContextVar[EventStore | None] = ContextVar("scratch", default=None)
# Set while a what-if file is read for the service: commands are collected, not run, and sent
# to the service's what-if endpoint as typed commands.
collecting: ContextVar[list[Command] | None] = ContextVar("collecting", default=None)


@dataclass
class Root:
    """The root command's choices: a database, or a service and an access token."""

    db: str = DEFAULT_TARGET
    server: str | None = None
    token: str | None = None
    client: Client | None = field(default=None, repr=False)


def _root(ctx: typer.Context) -> Root:
    value = ctx.find_root().obj
    return value if isinstance(value, Root) else Root()


def target(ctx: typer.Context) -> str | EventStore:
    """The --db target chosen on the root command (or the what-if scratch store)."""
    store = scratch.get()
    if store is not None:
        return store
    if collecting.get() is not None:
        raise InvalidInput(
            "through the service a what-if file holds only commands that play the campaign",
            code="whatif-read",
        )
    root = _root(ctx)
    if root.server is not None:
        # Commands that have no service form land here: say so instead of opening a file.
        raise InvalidInput(
            f"`tablelog {_subcommand(ctx)}` works on a database, not through the service; drop "
            "--server (and TABLELOG_SERVER) to run it locally",
            code="local-only",
        )
    return root.db


def no_view_choice(as_player: str | None) -> None:
    """Through the service the token decides what a caller sees; `--as` is for local use."""
    if as_player is not None:
        raise InvalidInput(
            "--as chooses a view of a local database; through the service your access token "
            "decides what you see",
            code="as-local-only",
        )


def _subcommand(ctx: typer.Context) -> str:
    """The command's words below the root (`improv show`), however the program was started."""
    names: list[str] = []
    current: Any = ctx
    while current is not None and current.parent is not None:
        names.append(current.info_name or "")
        current = current.parent
    return " ".join(reversed(names))


def remote(ctx: typer.Context) -> Client | None:
    """The service client when --server (or TABLELOG_SERVER) is given, else None."""
    if scratch.get() is not None or collecting.get() is not None:
        return None
    root = _root(ctx)
    if root.server is None:
        return None
    if root.client is None:
        from tablelog.cli.remote import Client

        root.client = Client(root.server, root.token)
        ctx.find_root().call_on_close(root.client.close)
    return root.client
