"""Access tokens, the service's own tokens and remembered responses: the service's rows
beside the log.

Tokens are stored as SHA-256 digests only. A lookup finds the row by its digest (an index
seek) and then compares digests in constant time, so the comparison that decides never
depends on how much of a guess was right.
"""

from __future__ import annotations

import hmac
from typing import NamedTuple

import msgspec
from sqlalchemy import and_, case, func, insert, not_, or_, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from tablelog.storage.rows import CampaignHead, head_of
from tablelog.storage.schema import access_tokens, idempotency, service_tokens
from tablelog.storage.store import EventStore, HeadRow, now_us


class TokenRow(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    player: str
    role: str
    revoked: bool
    head: CampaignHead  # the campaign's head, read with the token (a read may start there)
    kind: str = "token"  # token (bearer), link (one sign-in) or session (a browser's cookie)
    created_at: int = 0
    used_at: int | None = None  # a session's last use as last recorded (`touch_session`)
    why: str | None = None  # why it was revoked (commands/ended.py), when it was
    why_seq: int | None = None  # the event that says so in the log, if one does


class Remembered(msgspec.Struct, frozen=True, kw_only=True):
    request: str
    status: int
    response: bytes


# With the campaign's head: the request that follows nearly always needs it, and one read
# costs less than two.
_BY_DIGEST = (
    "SELECT t.token_hash, t.player, t.role, t.revoked_at, t.kind, t.created_at, t.last_used_at, "
    "t.revoked_why, t.revoked_seq, "
    "c.name, c.ruleset, c.created_at, c.head_seq, c.head_hash, c.updated_at "
    "FROM access_tokens t JOIN campaigns c ON c.name = t.campaign_id WHERE t.token_hash = ?"
)


def find_token(store: EventStore, digest: str) -> TokenRow | None:
    row = store.one_row(_BY_DIGEST, (digest,))  # every request: the driver's quick way
    if row is None:
        return None
    token_hash, player, role, revoked_at, kind, created_at, used_at, why, why_seq, *campaign = row
    if not hmac.compare_digest(str(token_hash), digest):
        return None
    head = head_of(HeadRow(*campaign))
    return TokenRow(
        campaign=head.name,
        player=player,
        role=role,
        revoked=revoked_at is not None,
        head=head,
        kind=str(kind),
        created_at=int(created_at),
        used_at=None if used_at is None else int(used_at),
        why=None if why is None else str(why),
        why_seq=None if why_seq is None else int(why_seq),
    )


def _session_ended(idle_before: int, born_before: int) -> ColumnElement[bool]:
    """A session the service has ended for its age: unused since `idle_before`, or signed
    in before `born_before` (microseconds UTC)."""
    used = func.coalesce(access_tokens.c.last_used_at, access_tokens.c.created_at)
    return and_(
        access_tokens.c.kind == "session",
        or_(used < idle_before, access_tokens.c.created_at < born_before),
    )


def seat_roles(store: EventStore, campaign: str) -> dict[str, frozenset[str]]:
    """Everyone who has held a token of `campaign` (live or revoked), with the roles of
    their tokens: the service's seats, observers included (who join no ruleset's state)."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(access_tokens.c.player, access_tokens.c.role).where(
                access_tokens.c.campaign_id == campaign
            )
        ).all()
    seats: dict[str, set[str]] = {}
    for player, role in rows:
        seats.setdefault(str(player), set()).add(str(role))
    return {player: frozenset(roles) for player, roles in seats.items()}


class LiveTokens(NamedTuple):
    """The digests of a campaign's live tokens, and the earliest moment one of its live
    sessions could end for its age: the oldest last use and the oldest sign-in among them
    (None without sessions)."""

    digests: frozenset[str]
    oldest_use: int | None
    oldest_sign_in: int | None


def live_tokens(
    store: EventStore, campaign: str, *, idle_before: int = 0, born_before: int = 0
) -> LiveTokens:
    """Every live token of a campaign (its live feeds check theirs here: one read per
    campaign, however many feeds are open); a session unused since `idle_before` or older
    than `born_before` is live no more."""
    used = func.coalesce(access_tokens.c.last_used_at, access_tokens.c.created_at)
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(
                access_tokens.c.token_hash, access_tokens.c.kind, used, access_tokens.c.created_at
            ).where(
                access_tokens.c.campaign_id == campaign,
                access_tokens.c.revoked_at.is_(None),
                not_(_session_ended(idle_before, born_before)),
            )
        ).all()
    sessions = [(int(row[2]), int(row[3])) for row in rows if row[1] == "session"]
    return LiveTokens(
        frozenset(str(row[0]) for row in rows),
        min((s[0] for s in sessions), default=None),
        min((s[1] for s in sessions), default=None),
    )


def touch_session(store: EventStore, digest: str, now: int, every: int) -> bool:
    """Record a session's use at `now`, unless one was recorded less than `every`
    microseconds before (so a busy session costs a write a minute, not one a request; two
    requests at once write once). Whether it wrote."""
    with store.service_rows() as conn:
        result = conn.execute(
            update(access_tokens)
            .where(
                access_tokens.c.token_hash == digest,
                access_tokens.c.kind == "session",
                access_tokens.c.revoked_at.is_(None),
                or_(
                    access_tokens.c.last_used_at.is_(None),
                    access_tokens.c.last_used_at <= now - every,
                ),
            )
            .values(last_used_at=now)
        )
        return bool(result.rowcount)


class SessionRow(msgspec.Struct, frozen=True, kw_only=True):
    """A live web session: who, since when, last used when (never its secret)."""

    digest: str
    player: str
    role: str
    created_at: int
    used_at: int  # as last recorded; its creation for a session of before revision 0008


def session_rows(
    store: EventStore, campaign: str, *, idle_before: int = 0, born_before: int = 0
) -> list[SessionRow]:
    """The campaign's web sessions not signed out, revoked or ended for their age, oldest
    first."""
    used = func.coalesce(access_tokens.c.last_used_at, access_tokens.c.created_at)
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(
                access_tokens.c.token_hash,
                access_tokens.c.player,
                access_tokens.c.role,
                access_tokens.c.created_at,
                used.label("used_at"),
            )
            .where(
                access_tokens.c.campaign_id == campaign,
                access_tokens.c.kind == "session",
                access_tokens.c.revoked_at.is_(None),
                not_(_session_ended(idle_before, born_before)),
            )
            .order_by(access_tokens.c.created_at, access_tokens.c.token_hash)
        )
        return [
            SessionRow(
                digest=str(row.token_hash),
                player=str(row.player),
                role=str(row.role),
                created_at=int(row.created_at),
                used_at=int(row.used_at),
            )
            for row in rows
        ]


def end_sessions(conn: Connection, campaign: str, digests: list[str], why: str) -> int:
    """Revoke these web sessions of `campaign` (each stops working at once), for reason
    `why`; how many were still live."""
    if not digests:
        return 0
    result = conn.execute(
        update(access_tokens)
        .where(
            access_tokens.c.campaign_id == campaign,
            access_tokens.c.kind == "session",
            access_tokens.c.token_hash.in_(digests),
            access_tokens.c.revoked_at.is_(None),
        )
        .values(revoked_at=now_us(), revoked_why=why)
    )
    return int(result.rowcount or 0)


def revoke_token(conn: Connection, digest: str, why: str) -> bool:
    """Revoke the one token with this digest (a link once traded, a session signed out),
    for reason `why`; whether it was still live."""
    result = conn.execute(
        update(access_tokens)
        .where(access_tokens.c.token_hash == digest, access_tokens.c.revoked_at.is_(None))
        .values(revoked_at=now_us(), revoked_why=why)
    )
    return bool(result.rowcount)


class Holder(msgspec.Struct, frozen=True, kw_only=True):
    """A token of a player, live or revoked: who has held access to a campaign."""

    role: str
    revoked: bool


def holders(conn: Connection, *, campaign: str, player: str) -> list[Holder]:
    """Every token `player` has held in `campaign`, oldest first."""
    rows = conn.execute(
        select(access_tokens.c.role, access_tokens.c.revoked_at)
        .where(access_tokens.c.campaign_id == campaign, access_tokens.c.player == player)
        .order_by(access_tokens.c.created_at)
    )
    return [Holder(role=row.role, revoked=row.revoked_at is not None) for row in rows]


def revoke_tokens(
    conn: Connection, *, campaign: str, player: str, why: str, seq: int | None = None
) -> int:
    """Revoke every live token of `player` in `campaign`, for reason `why` (said in the log
    at `seq`); how many there were."""
    result = conn.execute(
        update(access_tokens)
        .where(
            and_(
                access_tokens.c.campaign_id == campaign,
                access_tokens.c.player == player,
                access_tokens.c.revoked_at.is_(None),
            )
        )
        .values(revoked_at=now_us(), revoked_why=why, revoked_seq=seq)
    )
    return int(result.rowcount or 0)


def recall(conn: Connection, *, campaign: str, caller: str, key: str) -> Remembered | None:
    query = select(idempotency.c.request, idempotency.c.status, idempotency.c.response).where(
        idempotency.c.campaign_id == campaign,
        idempotency.c.caller == caller,
        idempotency.c.key == key,
    )
    row = conn.execute(query).first()
    if row is None:
        return None
    return Remembered(request=row.request, status=row.status, response=bytes(row.response))


def remember(
    conn: Connection,
    *,
    campaign: str,
    caller: str,
    key: str,
    request: str,
    status: int,
    response: bytes,
) -> None:
    conn.execute(
        insert(idempotency).values(
            campaign_id=campaign,
            caller=caller,
            key=key,
            request=request,
            status=status,
            response=response,
            created_at=now_us(),
        )
    )


_SERVICE_BY_DIGEST = (
    "SELECT token_hash, role, revoked_at, kind, created_at, last_used_at FROM service_tokens "
    "WHERE token_hash = ?"
)


class ServiceTokenRow(msgspec.Struct, frozen=True, kw_only=True):
    """A service token of any kind: the admin's bearer token, a sign-in link of the admin
    page, or a browser's admin session."""

    digest: str
    role: str
    kind: str
    revoked: bool
    created_at: int
    used_at: int | None = None


def find_service_row(store: EventStore, digest: str) -> ServiceTokenRow | None:
    """The service token with this digest, live or not, of any kind."""
    row = store.one_row(_SERVICE_BY_DIGEST, (digest,))
    if row is None or not hmac.compare_digest(str(row[0]), digest):
        return None
    return ServiceTokenRow(
        digest=digest,
        role=str(row[1]),
        kind=str(row[3]),
        revoked=row[2] is not None,
        created_at=int(row[4]),
        used_at=None if row[5] is None else int(row[5]),
    )


def find_service_token(store: EventStore, digest: str) -> str | None:
    """The role of the live service bearer token with this digest, or None (a link or a
    session of the admin page is no bearer token)."""
    row = find_service_row(store, digest)
    if row is None or row.revoked or row.kind != "token":
        return None
    return row.role


def live_service_tokens(conn: Connection, role: str) -> int:
    """How many live service tokens `role` has (on PostgreSQL, with the service's tokens
    locked for this transaction: two services starting at once make one first token)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(7810541815612712002)"))
    rows = conn.execute(
        select(service_tokens.c.token_hash).where(
            service_tokens.c.role == role,
            service_tokens.c.kind == "token",
            service_tokens.c.revoked_at.is_(None),
        )
    )
    return len(rows.all())


def put_service_token(
    conn: Connection, *, role: str, digest: str, replace: bool, kind: str = "token"
) -> int:
    """Store a new service token of `kind` for `role`; with `replace`, revoke its live ones
    of that kind first (how many): a new admin token leaves the admin page's sessions be,
    and a new sign-in link the admin token."""
    revoked = 0
    if replace:
        result = conn.execute(
            update(service_tokens)
            .where(
                service_tokens.c.role == role,
                service_tokens.c.kind == kind,
                service_tokens.c.revoked_at.is_(None),
            )
            .values(revoked_at=now_us())
        )
        revoked = int(result.rowcount or 0)
    conn.execute(
        insert(service_tokens).values(token_hash=digest, role=role, kind=kind, created_at=now_us())
    )
    return revoked


def revoke_service_token(conn: Connection, digest: str) -> bool:
    """Revoke the one service token with this digest (an admin link once traded, an admin
    session signed out); whether it was still live."""
    result = conn.execute(
        update(service_tokens)
        .where(service_tokens.c.token_hash == digest, service_tokens.c.revoked_at.is_(None))
        .values(revoked_at=now_us())
    )
    return bool(result.rowcount)


def touch_service_session(store: EventStore, digest: str, now: int, every: int) -> bool:
    """Record an admin session's use at `now`, at most once every `every` microseconds (as
    `touch_session` does for a campaign's)."""
    with store.service_rows() as conn:
        result = conn.execute(
            update(service_tokens)
            .where(
                service_tokens.c.token_hash == digest,
                service_tokens.c.kind == "session",
                service_tokens.c.revoked_at.is_(None),
                or_(
                    service_tokens.c.last_used_at.is_(None),
                    service_tokens.c.last_used_at <= now - every,
                ),
            )
            .values(last_used_at=now)
        )
        return bool(result.rowcount)


class SeatTokens(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's tokens: its role(s) and how many of each kind still work."""

    player: str
    roles: frozenset[str]
    live: dict[str, int]  # kind -> live tokens (a session the service ended for its age: none)


def seat_tokens(
    store: EventStore, campaign: str, *, idle_before: int = 0, born_before: int = 0
) -> list[SeatTokens]:
    """Everyone who has held a token of `campaign`, with the live tokens of each kind."""
    live = and_(
        access_tokens.c.revoked_at.is_(None), not_(_session_ended(idle_before, born_before))
    )
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(
                access_tokens.c.player,
                access_tokens.c.role,
                access_tokens.c.kind,
                func.sum(case((live, 1), else_=0)).label("live"),
            )
            .where(access_tokens.c.campaign_id == campaign)
            .group_by(access_tokens.c.player, access_tokens.c.role, access_tokens.c.kind)
        ).all()
    roles: dict[str, set[str]] = {}
    counts: dict[str, dict[str, int]] = {}
    for player, role, kind, count in rows:
        roles.setdefault(str(player), set()).add(str(role))
        if count:
            kinds = counts.setdefault(str(player), {})
            kinds[str(kind)] = kinds.get(str(kind), 0) + int(count)
    return [
        SeatTokens(player=p, roles=frozenset(r), live=counts.get(p, {}))
        for p, r in sorted(roles.items())
    ]
