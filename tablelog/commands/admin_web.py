"""The admin page's sign-in: a one-use link traded for a browser session of the service admin.

`tablelog serve` prints a sign-in link for `/admin` (its token in the fragment, as a
campaign's links); `tablelog admin-link` on the database prints a new one. The page trades
it once for a session kept in an HttpOnly cookie scoped to /admin. Links and sessions are
service tokens of their own kinds (`service_tokens.kind`), never campaign tokens: a
campaign's session opens no admin page, and an admin session no campaign. The admin's bearer
token (`tablelog admin-token`) is a third kind, untouched by links and sessions.
"""

from __future__ import annotations

import msgspec

from tablelog.commands import state
from tablelog.commands.access import Invited, grant, new_token, token_digest
from tablelog.commands.admin import ADMIN
from tablelog.commands.session_policy import SessionPolicy, aged
from tablelog.errors import Unauthenticated
from tablelog.storage import EventStore
from tablelog.storage.access import (
    find_service_row,
    put_service_token,
    revoke_service_token,
    touch_service_session,
)

NEW_LINK = "`tablelog admin-link` on the database prints a new one"


class AdminSession(msgspec.Struct, frozen=True, kw_only=True):
    """A browser signed in to the admin page: its digest and last recorded use."""

    digest: str
    used_at: int


def new_admin_link(store: EventStore) -> str:
    """A new sign-in link's token for the admin page (shown once). Any earlier link not
    yet used stops working; the admin token and the signed-in sessions stay."""
    token, digest = new_token()
    with store.service_rows() as conn:
        put_service_token(conn, role=ADMIN, digest=digest, replace=True, kind="link")
    return token


def open_admin_session(store: EventStore, link_token: str) -> str:
    """Trade an admin sign-in link, once, for an admin session's token (for an HttpOnly
    cookie; stored as a digest). Two trades of one link make one session."""
    digest = token_digest(link_token.strip())
    row = find_service_row(store, digest)
    if row is None or row.kind != "link" or row.role != ADMIN:
        raise Unauthenticated(
            f"this is not a sign-in link of this service's admin page; {NEW_LINK}",
            code="bad-link",
        )
    session, session_digest = new_token()
    with store.service_rows() as conn:
        if row.revoked or not revoke_service_token(conn, digest):
            raise Unauthenticated(
                f"this admin sign-in link was already used or replaced; {NEW_LINK}",
                code="used-link",
            )
        put_service_token(conn, role=ADMIN, digest=session_digest, replace=False, kind="session")
    return session


def admin_session(store: EventStore, session: str | None, policy: SessionPolicy) -> AdminSession:
    """The admin session a browser's cookie holds, refused (Unauthenticated) when it is
    none, signed out, or ended by `policy` like a campaign's session."""
    if not session:
        raise Unauthenticated(
            f"the admin page needs its sign-in link; {NEW_LINK}", code="no-admin-session"
        )
    row = find_service_row(store, token_digest(session.strip()))
    if row is None or row.kind != "session" or row.role != ADMIN:
        raise Unauthenticated(
            f"this browser is not signed in to the admin page; {NEW_LINK}",
            code="no-admin-session",
        )
    if row.revoked:
        raise Unauthenticated(
            f"this admin session was signed out; {NEW_LINK}", code="revoked-token"
        )
    aged(row.created_at, row.used_at, policy)
    used = row.created_at if row.used_at is None else row.used_at
    return AdminSession(digest=row.digest, used_at=used)


def note_admin_use(store: EventStore, session: AdminSession, policy: SessionPolicy) -> bool:
    """Record the session's use (at most once a minute, as for a campaign's); whether it
    wrote."""
    now = policy.clock()
    if now - session.used_at < policy.touch_us:
        return False
    return touch_service_session(store, session.digest, now, policy.touch_us)


def close_admin_session(store: EventStore, session: AdminSession) -> None:
    """Sign the admin page's browser out: its session stops working at once."""
    with store.service_rows() as conn:
        revoke_service_token(conn, session.digest)


def new_gm_link(store: EventStore, campaign: str) -> Invited:
    """A new sign-in link for the GM of `campaign`, as `tablelog invite GM --role gm --link`
    on the database gives: another GM device (the GM's CLI token and other browsers keep
    working; `access.grant`)."""
    with state.reading(store, campaign) as folded:
        gm = str(folded.ruleset.cast.gm(folded.state))
    return grant(store, campaign, gm, "gm", link=True)
