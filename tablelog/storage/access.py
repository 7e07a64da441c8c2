"""Access tokens and remembered responses: the service's rows beside the log.

Tokens are stored as SHA-256 digests only. A lookup finds the row by its digest (an index
seek) and then compares digests in constant time, so the comparison that decides never
depends on how much of a guess was right.
"""

from __future__ import annotations

import hmac

import msgspec
from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection

from tablelog.storage.rows import CampaignHead, head_of
from tablelog.storage.schema import access_tokens, idempotency
from tablelog.storage.store import EventStore, HeadRow, now_us


class TokenRow(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    player: str
    role: str
    revoked: bool
    head: CampaignHead  # the campaign's head, read with the token (a read may start there)


class Remembered(msgspec.Struct, frozen=True, kw_only=True):
    request: str
    status: int
    response: bytes


# With the campaign's head: the request that follows nearly always needs it, and one read
# costs less than two.
_BY_DIGEST = (
    "SELECT t.token_hash, t.player, t.role, t.revoked_at, c.name, c.ruleset, c.created_at, "
    "c.head_seq, c.head_hash, c.updated_at "
    "FROM access_tokens t JOIN campaigns c ON c.name = t.campaign_id WHERE t.token_hash = ?"
)


def find_token(store: EventStore, digest: str) -> TokenRow | None:
    row = store.one_row(_BY_DIGEST, (digest,))  # every request: the driver's quick way
    if row is None:
        return None
    token_hash, player, role, revoked_at, *campaign = row
    if not hmac.compare_digest(str(token_hash), digest):
        return None
    head = head_of(HeadRow(*campaign))
    return TokenRow(
        campaign=head.name, player=player, role=role, revoked=revoked_at is not None, head=head
    )


def revoke_tokens(conn: Connection, *, campaign: str, player: str) -> int:
    """Revoke every live token of `player` in `campaign`; how many there were."""
    result = conn.execute(
        update(access_tokens)
        .where(
            and_(
                access_tokens.c.campaign_id == campaign,
                access_tokens.c.player == player,
                access_tokens.c.revoked_at.is_(None),
            )
        )
        .values(revoked_at=now_us())
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
