"""Running the service's process: uvicorn, its shutdown ending the live feeds first, and the
open-file limit a thousand feeds need (`tablelog serve`, cli/serve.py)."""

from __future__ import annotations

import contextlib
import socket
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from litestar import Litestar

    from tablelog.http.watch import Watches


def run_service(app: Litestar, **options: Any) -> None:
    """`uvicorn.run(app, **options)`, except that a stopping service first ends its live
    feeds: a feed never ends by itself, so uvicorn would otherwise wait out its grace period
    and cut each one (logging a traceback per feed)."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            watches: Watches = app.state.watches
            watches.close()
            await super().shutdown(sockets=sockets)

    more_open_files()
    server = Server(uvicorn.Config(app, **options))
    with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run does
        server.run()
    if not server.started:  # it said why (the port is taken): exit as uvicorn.run would
        raise SystemExit(STARTUP_FAILURE)


def more_open_files() -> None:
    """Every live feed holds a connection, a file: the soft limit (often 1,024) would refuse
    connections near a thousand feeds although the hard limit allows far more. Raise it to
    the hard limit, as servers do; `--feeds-per-address` and `--feeds-per-token` keep one
    client from taking them all."""
    with contextlib.suppress(ImportError, ValueError, OSError):  # not on this system
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65_536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
