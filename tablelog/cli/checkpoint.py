"""`tablelog checkpoint` and `tablelog key show`: signed checkpoints players keep."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated
from urllib.parse import quote

import typer

from tablelog.cli.kept import keep
from tablelog.cli.options import CampaignOption, JsonOption, collecting, remote, scratch, target
from tablelog.cli.output import decoded, emit_json, say
from tablelog.commands.checkpoints import Checkpoint, checkpoint_now, session_checkpoints
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.signing import KEY_FILE_ENV, key_path, load_key
from tablelog.errors import InvalidInput

if TYPE_CHECKING:
    from tablelog.cli.remote import Client

KeyFileOption = Annotated[
    str | None,
    typer.Option(
        "--key-file",
        envvar=KEY_FILE_ENV,
        help="The service's signing key (default: beside a SQLite file, else "
        "tablelog/service.key in your configuration directory).",
        show_default=False,
    ),
]

key_app = typer.Typer(
    no_args_is_help=True,
    help="The service's signing key.\n\nExample: `tablelog key show`",
)


def checkpoint(
    ctx: typer.Context,
    campaign: CampaignOption = None,
    key_file: KeyFileOption = None,
    json: JsonOption = False,
) -> None:
    """Sign the campaign's head now and keep the checkpoint (with every session's end) in
    your checkpoints file; `tablelog verify --checkpoint FILE` later proves the log still
    extends them. On a local database this creates the signing key on first use.

    Example: `tablelog checkpoint -c bar-fight`
    """
    if scratch.get() is not None or collecting.get() is not None:
        raise InvalidInput(
            "a checkpoint signs the real log; a what-if file cannot ask for one",
            code="whatif-checkpoint",
        )
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        sessions = fetch_session_checkpoints(client, name)
        now = decoded(client.get(f"/campaigns/{quote(name)}/checkpoint"), Checkpoint)
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            key = load_key(key_path(store, key_file), create=True)
            sessions = session_checkpoints(store, name, key)
            now = checkpoint_now(store, name, key)
    kept = keep([*sessions, now])
    if json:
        emit_json(now)
        return
    say(f"checkpoint of {now.campaign} at seq {now.seq}, hash {now.hash}")
    say(f"signed by {now.key}; kept in {kept}")


def keep_session_end(ctx: typer.Context, campaign: str | None, seq: int) -> None:
    """After `session end`: keep the checkpoint of that session's end. Through the service
    it is fetched; on a local database it is signed only when the key already exists (a
    table that never asked for checkpoints gets no key file from ending a session)."""
    if scratch.get() is not None:
        return  # a what-if's session is no part of the log: nothing to keep
    client = remote(ctx)
    if client is not None:
        keep(fetch_session_checkpoints(client, client.campaign(campaign), since=seq))
        return
    with opened(target(ctx)) as store:
        path = key_path(store)
        if not path.exists():
            return
        name = resolve_campaign(store, campaign)
        keep(session_checkpoints(store, name, load_key(path, create=False), since=seq))


def fetch_session_checkpoints(client: Client, campaign: str, since: int = 0) -> list[Checkpoint]:
    got = client.get(f"/campaigns/{quote(campaign)}/checkpoints", since=since)
    result: list[Checkpoint] = decoded(got, list[Checkpoint])
    return result


@key_app.command("show")
def key_show(ctx: typer.Context, key_file: KeyFileOption = None, json: JsonOption = False) -> None:
    """Print the service's public key (64 hex digits): give it to `verify --key`.

    Example: `tablelog key show`, or `tablelog --server URL key show`
    """
    client = remote(ctx)
    if client is not None:
        public = str(client.get("/key")["key"])
    else:
        with opened(target(ctx), check_schema=False) as store:
            public = load_key(key_path(store, key_file), create=False).public_hex
    if json:
        emit_json({"key": public})
    else:
        say(public)


def register(app: typer.Typer) -> None:
    app.command("checkpoint")(checkpoint)
    app.add_typer(key_app, name="key")
