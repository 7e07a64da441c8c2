"""The server admin's token: who may create campaigns through the service.

A campaign's tokens open that campaign only; creating one through the service needs this
token instead (unless the service runs with `--open-signup`). `tablelog serve` makes one
the first time it serves a database and prints it once; `tablelog admin-token`, run on the
database, replaces it. Stored as a SHA-256 digest in the service's own table, like every
token.
"""

from __future__ import annotations

from tablelog.commands.access import authenticate, new_token, token_digest
from tablelog.errors import Forbidden, Unauthenticated
from tablelog.storage import EventStore
from tablelog.storage.access import find_service_token, live_service_tokens, put_service_token

ADMIN = "admin"
HOW_TO_GET = (
    "`tablelog serve` printed it when it first served this database; `tablelog admin-token` "
    "on the database prints a new one"
)


def first_admin_token(store: EventStore) -> str | None:
    """A new admin token when the database has none yet (shown once), else None."""
    token, digest = new_token()
    with store.service_rows() as conn:
        if live_service_tokens(conn, ADMIN):
            return None
        put_service_token(conn, role=ADMIN, digest=digest, replace=False)
    return token


def new_admin_token(store: EventStore) -> str:
    """A new admin token in place of every earlier one, which stop working (shown once)."""
    token, digest = new_token()
    with store.service_rows() as conn:
        put_service_token(conn, role=ADMIN, digest=digest, replace=True)
    return token


def is_admin(store: EventStore, token: str) -> bool:
    return find_service_token(store, token_digest(token.strip())) == ADMIN


def require_admin(store: EventStore, token: str | None) -> None:
    """Unauthenticated without a token or with one the service does not know; Forbidden for
    a campaign's token, which creates nothing."""
    if not token:
        raise Unauthenticated(
            f"creating a campaign through this service needs its admin token ({HOW_TO_GET})",
            code="no-token",
        )
    if is_admin(store, token):
        return
    caller = authenticate(store, token)  # Unauthenticated when it is nobody's
    raise Forbidden(
        f"a campaign's access token ({caller.role} {caller.player} of {caller.campaign}) cannot "
        f"create campaigns; that takes the service's admin token ({HOW_TO_GET})",
        code="not-admin",
    )
