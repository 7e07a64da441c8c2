"""Players' contacts and the notices' outbox: rows beside the log (never in it) that say how to
reach each player and which turn notices and reminders are still to be sent. Addresses are
stored sealed (commands/contacts.py); see commands/notices.py for what the rows mean.
"""

from __future__ import annotations

from typing import Any

import msgspec
from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError

from tablelog.storage.engine import driver_cursor, driver_sql, raw_execute
from tablelog.storage.schema import notices, player_contacts
from tablelog.storage.store import EventStore, now_us


class ContactRow(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    player: str
    discord_id: str | None = None
    email_sealed: bytes | None = None
    email_hint: str | None = None
    unsubscribed_at: int | None = None


class Reach(msgspec.Struct, frozen=True):
    """What a notice queued in an append needs of a player's contact: read once per
    transaction."""

    discord_id: str | None
    mail: bool  # an address, not unsubscribed
    bound: bool = False  # the campaign has a Discord channel (the bot posts notices there)


class NewNotice(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    channel: str  # a webhook's id, or "mail"
    kind: str  # turn or reminder
    step_key: str
    sentence: str
    conflict: str | None
    since_seq: int
    number: int  # 0: the turn notice; 1..: its reminders


class NoticeRow(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    campaign: str
    player: str
    channel: str
    kind: str
    step_key: str
    sentence: str
    conflict: str | None
    since_seq: int
    number: int
    attempts: int
    next_attempt_at: int
    sent_at: int | None
    dropped_at: int | None
    last_error: str | None
    created_at: int


MAIL = "mail"
# The campaign's bound Discord channels, where the application's bot posts a turn notice
# with a button that opens the step (discord/notices.py).
DISCORD = "discord"
# Not a channel: the record that the player's own move began the step (so nobody tells them)
# from which a reminder is counted as from a first notice. Never sent.
OWN_MOVE = "own-move"


def _contact(row: Row[Any]) -> ContactRow:
    return ContactRow(
        campaign=row.campaign_id,
        player=row.player,
        discord_id=row.discord_id,
        email_sealed=None if row.email_sealed is None else bytes(row.email_sealed),
        email_hint=row.email_hint,
        unsubscribed_at=row.unsubscribed_at,
    )


def _notice(row: Row[Any]) -> NoticeRow:
    return NoticeRow(
        id=int(row.id),
        campaign=row.campaign_id,
        player=row.player,
        channel=row.channel,
        kind=row.kind,
        step_key=row.step_key,
        sentence=row.sentence,
        conflict=row.conflict,
        since_seq=int(row.since_seq),
        number=int(row.number),
        attempts=int(row.attempts),
        next_attempt_at=int(row.next_attempt_at),
        sent_at=row.sent_at,
        dropped_at=row.dropped_at,
        last_error=row.last_error,
        created_at=int(row.created_at),
    )


# --- contacts ------------------------------------------------------------------------------


def contact_of(store: EventStore, campaign: str, player: str) -> ContactRow | None:
    with store.engine.connect() as conn:
        row = conn.execute(
            select(player_contacts).where(
                player_contacts.c.campaign_id == campaign, player_contacts.c.player == player
            )
        ).first()
    return None if row is None else _contact(row)


def contacts_of(store: EventStore, campaign: str) -> list[ContactRow]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(player_contacts)
            .where(player_contacts.c.campaign_id == campaign)
            .order_by(player_contacts.c.player)
        ).all()
    return [_contact(r) for r in rows]


def save_contact(store: EventStore, contact: ContactRow) -> None:
    """Write the player's contact as given (a contact with nothing left is removed)."""
    with store.service_rows() as conn:
        conn.execute(
            delete(player_contacts).where(
                player_contacts.c.campaign_id == contact.campaign,
                player_contacts.c.player == contact.player,
            )
        )
        if contact.discord_id is None and contact.email_sealed is None:
            return
        conn.execute(
            insert(player_contacts).values(
                campaign_id=contact.campaign,
                player=contact.player,
                discord_id=contact.discord_id,
                email_sealed=contact.email_sealed,
                email_hint=contact.email_hint,
                unsubscribed_at=contact.unsubscribed_at,
                updated_at=now_us(),
            )
        )


def reach(conn: Connection, campaign: str) -> dict[str, Reach]:
    """Every player of the campaign who may be told, read in the append's transaction."""
    # Straight through the driver, as the webhooks' triggers are: every append runs it.
    # Whether a channel plays the campaign comes with the same read: only a player with a
    # contact can be told there, so no contact, no need to know.
    rows = raw_execute(
        conn,
        "SELECT player, discord_id, email_sealed IS NOT NULL AND unsubscribed_at IS NULL, "
        "EXISTS (SELECT 1 FROM discord_channels WHERE discord_channels.campaign_id = "
        "player_contacts.campaign_id) "
        "FROM player_contacts WHERE campaign_id = ?",
        (campaign,),
    ).fetchall()
    return {str(p): Reach(None if d is None else str(d), bool(m), bool(b)) for p, d, m, b in rows}


# --- the notices' outbox -------------------------------------------------------------------


_ENQUEUE = (
    "INSERT INTO notices (campaign_id, player, channel, kind, step_key, sentence, conflict, "
    "since_seq, number, attempts, next_attempt_at, created_at, sent_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)"
)


def enqueue_notices(conn: Connection, campaign: str, rows: list[NewNotice]) -> None:
    """Queue notices in the caller's transaction (the append's)."""
    now = now_us()
    values = [
        (
            campaign,
            n.player,
            n.channel,
            n.kind,
            n.step_key,
            n.sentence,
            n.conflict,
            n.since_seq,
            n.number,
            now,
            now,
            now if n.channel == OWN_MOVE else None,
        )
        for n in rows
    ]
    # Straight through the driver, as the events' insert is: the append path runs it, and
    # SQLAlchemy's statement building cost more than the insert itself (bench/notices.py).
    cursor = driver_cursor(conn)
    cursor.executemany(driver_sql(conn.dialect, _ENQUEUE), values)
    cursor.close()


def add_reminders(store: EventStore, campaign: str, rows: list[NewNotice]) -> int:
    """Queue reminders the sender worked out; one already queued (by another sender) is
    not queued twice. How many were added."""
    added = 0
    for row in rows:
        try:
            with store.service_rows() as conn:
                enqueue_notices(conn, campaign, [row])
            added += 1
        except IntegrityError:
            continue
        except Exception as exc:  # a StorageError wrapping the unique constraint's refusal
            if not isinstance(exc.__cause__, IntegrityError) and "unique" not in str(exc).lower():
                raise
    return added


def unsent(store: EventStore) -> list[NoticeRow]:
    """Every notice neither sent nor dropped, oldest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(notices)
            .where(notices.c.sent_at.is_(None), notices.c.dropped_at.is_(None))
            .order_by(notices.c.id)
        ).all()
    return [_notice(r) for r in rows]


def notices_of(store: EventStore, campaign: str, player: str | None = None) -> list[NoticeRow]:
    """The campaign's notices (one player's), oldest first."""
    query = select(notices).where(notices.c.campaign_id == campaign)
    if player is not None:
        query = query.where(notices.c.player == player)
    with store.engine.connect() as conn:
        rows = conn.execute(query.order_by(notices.c.id)).all()
    return [_notice(r) for r in rows]


class Reminded(msgspec.Struct, frozen=True, kw_only=True):
    """One await a player was told of, as the reminders need it."""

    campaign: str
    player: str
    step_key: str
    since_seq: int
    sentence: str
    conflict: str | None
    first_sent: int  # when the turn notice first went out on any channel
    number: int  # the highest notice number queued for it
    last_at: int  # when the notice of that number was queued


def told(store: EventStore) -> list[Reminded]:
    """Every await whose turn notice went out, with its latest reminder so far."""
    key = (notices.c.campaign_id, notices.c.player, notices.c.step_key, notices.c.since_seq)
    with store.engine.connect() as conn:
        first = (
            select(*key, func.min(notices.c.sent_at).label("first_sent"))
            .where(notices.c.number == 0, notices.c.sent_at.is_not(None))
            .group_by(*key)
            .subquery()
        )
        latest = (
            select(
                *key,
                func.max(notices.c.number).label("number"),
                func.max(notices.c.created_at).label("last_at"),
                func.min(notices.c.sentence).label("sentence"),
                func.min(notices.c.conflict).label("conflict"),
            )
            .group_by(*key)
            .subquery()
        )
        rows = conn.execute(
            select(latest, first.c.first_sent).join(
                first,
                and_(
                    first.c.campaign_id == latest.c.campaign_id,
                    first.c.player == latest.c.player,
                    first.c.step_key == latest.c.step_key,
                    first.c.since_seq == latest.c.since_seq,
                ),
            )
        ).all()
    return [
        Reminded(
            campaign=r.campaign_id,
            player=r.player,
            step_key=r.step_key,
            since_seq=int(r.since_seq),
            sentence=r.sentence,
            conflict=r.conflict,
            first_sent=int(r.first_sent),
            number=int(r.number),
            last_at=int(r.last_at),
        )
        for r in rows
    ]


def claim_notice(store: EventStore, notice: NoticeRow, until: int) -> bool:
    """Take the notice for one sender until `until`; whether this sender got it."""
    with store.service_rows() as conn:
        result = conn.execute(
            update(notices)
            .where(
                notices.c.id == notice.id,
                notices.c.sent_at.is_(None),
                notices.c.dropped_at.is_(None),
                notices.c.next_attempt_at <= now_us(),
            )
            .values(next_attempt_at=until)
        )
        return bool(result.rowcount)


def record_sent(store: EventStore, notice_id: int, unsubscribe_digest: str | None = None) -> None:
    with store.service_rows() as conn:
        conn.execute(
            update(notices)
            .where(notices.c.id == notice_id)
            .values(sent_at=now_us(), last_error=None, unsubscribe_digest=unsubscribe_digest)
        )


def record_dropped(store: EventStore, notice_id: int, why: str) -> None:
    with store.service_rows() as conn:
        conn.execute(
            update(notices)
            .where(notices.c.id == notice_id)
            .values(dropped_at=now_us(), last_error=why[:300])
        )


def record_waiting(
    store: EventStore, notice_id: int, why: str, *, retry_at: int, attempts: int
) -> None:
    """A notice not sent this time: it waits until `retry_at`, `why` shown to the GM."""
    with store.service_rows() as conn:
        conn.execute(
            update(notices)
            .where(notices.c.id == notice_id)
            .values(attempts=attempts, next_attempt_at=retry_at, last_error=why[:300])
        )


def mailed_to(store: EventStore, digest: str) -> tuple[str, str] | None:
    """(campaign, player) of the mail that carried the unsubscribe token of `digest`."""
    with store.engine.connect() as conn:
        row = conn.execute(
            select(notices.c.campaign_id, notices.c.player)
            .where(notices.c.unsubscribe_digest == digest)
            .limit(1)
        ).first()
    return None if row is None else (str(row.campaign_id), str(row.player))


def unsubscribe(store: EventStore, digest: str) -> tuple[str, str] | None:
    """Stop the mails of the player a mail's unsubscribe token (its digest) was sent to;
    (campaign, player), or None for a token no mail carried."""
    with store.service_rows() as conn:
        row = conn.execute(
            select(notices.c.campaign_id, notices.c.player)
            .where(notices.c.unsubscribe_digest == digest)
            .limit(1)
        ).first()
        if row is None:
            return None
        campaign, player = str(row.campaign_id), str(row.player)
        conn.execute(
            update(player_contacts)
            .where(
                player_contacts.c.campaign_id == campaign,
                player_contacts.c.player == player,
                player_contacts.c.unsubscribed_at.is_(None),
            )
            .values(unsubscribed_at=now_us())
        )
        # What was still to be mailed to them is not sent.
        conn.execute(
            update(notices)
            .where(
                notices.c.campaign_id == campaign,
                notices.c.player == player,
                notices.c.channel == MAIL,
                notices.c.sent_at.is_(None),
                notices.c.dropped_at.is_(None),
            )
            .values(dropped_at=now_us(), last_error="the player unsubscribed")
        )
    return campaign, player


def drop_channel(conn: Connection, channel: str) -> None:
    """A webhook removed: the notices it still owed go nowhere."""
    conn.execute(
        update(notices)
        .where(
            notices.c.channel == channel,
            notices.c.sent_at.is_(None),
            notices.c.dropped_at.is_(None),
        )
        .values(dropped_at=now_us(), last_error="the webhook was removed")
    )
