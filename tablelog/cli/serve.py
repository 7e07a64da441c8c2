"""`tablelog serve`: the play-by-post service."""

from __future__ import annotations

import gc
from typing import Annotated

import typer

from tablelog.cli.options import target
from tablelog.cli.output import say
from tablelog.http.throttle import DEFAULT_LIMIT
from tablelog.storage import open_store


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="The port to listen on.", min=0, max=65535)
    ] = 8000,
    auth_failures: Annotated[
        int,
        typer.Option(
            "--auth-failures",
            help="Failed sign-ins (unknown or revoked tokens) allowed per client address and "
            "minute; past them the address is refused (429) until a minute has passed.",
            min=1,
        ),
    ] = DEFAULT_LIMIT,
) -> None:
    """Run the HTTP service over the chosen database (SQLite file or PostgreSQL URL).

    Players then use the CLI with `--server http://HOST:PORT --access-token TOKEN`; the
    OpenAPI document is at /schema/openapi.json. Stop it with Ctrl-C.

    Example: `tablelog --db tablelog.db serve --port 8000`
    """
    import uvicorn

    from tablelog.http.app import create_app

    location = target(ctx)
    assert isinstance(location, str)
    store = open_store(location, create=True)  # refuse a bad database before listening
    try:
        say(f"tablelog service on http://{host}:{port} over {store.label}", err=True)
        app = create_app(store, auth_failures=auth_failures)
        # The service's modules and routes live as long as it does: the garbage collector
        # need not walk them again on every full collection.
        gc.freeze()
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        store.close()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
