"""Webhooks and their outbox: the rows beside the log that say where posts go and which are
still to be sent. Only sealed (encrypted) URLs and secrets are stored; see commands/webhooks.py.
"""

from __future__ import annotations

from typing import Any

import msgspec
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from tablelog.storage.engine import raw_execute
from tablelog.storage.notices import drop_channel
from tablelog.storage.schema import outbox, webhooks
from tablelog.storage.store import EventStore, now_us


class WebhookRow(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    campaign: str
    format: str
    triggers: tuple[str, ...]
    url_sealed: bytes
    url_hint: str
    secret_sealed: bytes | None
    failing_since: int | None
    last_error: str | None
    disabled_reason: str | None
    pending: int = 0  # posts not yet sent


class Due(msgspec.Struct, frozen=True, kw_only=True):
    """The oldest unsent post of one webhook, with what sending it needs."""

    outbox_id: int
    hook: WebhookRow
    first_seq: int
    seq: int
    trigger: str
    parts_sent: int
    attempts: int


def _hook(row: Row[Any], pending: int = 0) -> WebhookRow:
    """A row of the webhooks table as a WebhookRow."""
    return WebhookRow(
        id=row.id,
        campaign=row.campaign_id,
        format=row.format,
        triggers=tuple(t for t in row.triggers.split(",") if t),
        url_sealed=bytes(row.url_sealed),
        url_hint=row.url_hint,
        secret_sealed=None if row.secret_sealed is None else bytes(row.secret_sealed),
        failing_since=row.failing_since,
        last_error=row.last_error,
        disabled_reason=row.disabled_reason,
        pending=pending,
    )


def insert_webhook(conn: Connection, hook: WebhookRow) -> None:
    conn.execute(
        insert(webhooks).values(
            id=hook.id,
            campaign_id=hook.campaign,
            format=hook.format,
            triggers=",".join(hook.triggers),
            url_sealed=hook.url_sealed,
            url_hint=hook.url_hint,
            secret_sealed=hook.secret_sealed,
            created_at=now_us(),
        )
    )


def webhooks_of(store: EventStore, campaign: str) -> list[WebhookRow]:
    """The campaign's webhooks, oldest first, each with how many posts it still owes."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(webhooks)
            .where(webhooks.c.campaign_id == campaign)
            .order_by(webhooks.c.created_at, webhooks.c.id)
        ).all()
        pending = dict(_counts(conn, campaign))
    return [_hook(row, pending.get(row.id, 0)) for row in rows]


def _counts(conn: Connection, campaign: str) -> list[tuple[str, int]]:
    rows = conn.execute(
        select(outbox.c.webhook_id, func.count())
        .where(outbox.c.campaign_id == campaign, outbox.c.sent_at.is_(None))
        .group_by(outbox.c.webhook_id)
    )
    return [(str(w), int(n)) for w, n in rows]


def delete_webhook(conn: Connection, campaign: str, hook_id: str) -> bool:
    """Remove the webhook and every post it still owed; whether there was one."""
    conn.execute(delete(outbox).where(outbox.c.webhook_id == hook_id))
    drop_channel(conn, hook_id)
    result = conn.execute(
        delete(webhooks).where(webhooks.c.campaign_id == campaign, webhooks.c.id == hook_id)
    )
    return bool(result.rowcount)


def live_hooks(conn: Connection, campaign: str) -> list[tuple[str, tuple[str, ...], str]]:
    """(id, triggers, format) of the campaign's webhooks still enabled: read in the append's
    transaction, one indexed read, so a post is queued exactly when its events commit."""
    # Straight through the driver: every append runs this, and SQLAlchemy's statement
    # machinery around it cost a third of a command's time (bench/results, 2026-11-25).
    rows = raw_execute(
        conn,
        "SELECT id, triggers, format FROM webhooks WHERE campaign_id = ? AND disabled_at IS NULL",
        (campaign,),
    ).fetchall()
    return [(str(i), tuple(t for t in str(ts).split(",") if t), str(f)) for i, ts, f in rows]


def enqueue(conn: Connection, campaign: str, posts: list[tuple[str, int, int, str]]) -> None:
    """Queue (webhook id, first seq, seq, trigger) posts, in the caller's transaction."""
    now = now_us()
    conn.execute(
        insert(outbox),
        [
            {
                "webhook_id": hook,
                "campaign_id": campaign,
                "first_seq": first,
                "seq": seq,
                "trigger": trigger,
                "parts_sent": 0,
                "attempts": 0,
                "next_attempt_at": now,
                "created_at": now,
            }
            for hook, first, seq, trigger in posts
        ],
    )


def due_posts(store: EventStore, now: int) -> list[Due]:
    """For each enabled webhook, its oldest unsent post when that post is due now: later
    posts wait behind it, so each webhook receives its posts in order."""
    with store.engine.connect() as conn:
        hooks = conn.execute(select(webhooks).where(webhooks.c.disabled_at.is_(None))).all()
        found: list[Due] = []
        for row in hooks:
            head = conn.execute(
                select(outbox)
                .where(outbox.c.webhook_id == row.id, outbox.c.sent_at.is_(None))
                .order_by(outbox.c.id)
                .limit(1)
            ).first()
            if head is None or head.next_attempt_at > now:
                continue
            found.append(
                Due(
                    outbox_id=int(head.id),
                    hook=_hook(row),
                    first_seq=int(head.first_seq),
                    seq=int(head.seq),
                    trigger=str(head.trigger),
                    parts_sent=int(head.parts_sent),
                    attempts=int(head.attempts),
                )
            )
    return found


def record_part(store: EventStore, outbox_id: int, parts_sent: int, done: bool) -> None:
    """`parts_sent` messages of the post are out (all of it when `done`): the webhook works."""
    with store.service_rows() as conn:
        values: dict[str, object] = {"parts_sent": parts_sent, "attempts": 0}
        if done:
            values["sent_at"] = now_us()
        conn.execute(update(outbox).where(outbox.c.id == outbox_id).values(**values))
        hook = select(outbox.c.webhook_id).where(outbox.c.id == outbox_id).scalar_subquery()
        conn.execute(
            update(webhooks)
            .where(webhooks.c.id == hook)
            .values(failing_since=None, last_error=None)
        )


def record_failure(
    store: EventStore,
    due: Due,
    error: str,
    *,
    retry_at: int,
    disable_after: int,
) -> bool:
    """A failed attempt: the post waits until `retry_at`; a webhook failing since more than
    `disable_after` microseconds is disabled with `error` as the reason. Whether it was."""
    now = now_us()
    since = due.hook.failing_since if due.hook.failing_since is not None else now
    disabled = now - since >= disable_after
    with store.service_rows() as conn:
        conn.execute(
            update(outbox)
            .where(outbox.c.id == due.outbox_id)
            .values(attempts=due.attempts + 1, next_attempt_at=retry_at)
        )
        conn.execute(
            update(webhooks)
            .where(webhooks.c.id == due.hook.id)
            .values(
                failing_since=since,
                last_error=error[:300],
                disabled_at=now if disabled else None,
                disabled_reason=error[:300] if disabled else None,
            )
        )
    return disabled


def claim(store: EventStore, due: Due, until: int) -> bool:
    """Take the post for one sender until `until` (another `webhook deliver`, or the
    service's worker, leaves it alone meanwhile); whether this sender got it."""
    with store.service_rows() as conn:
        result = conn.execute(
            update(outbox)
            .where(
                outbox.c.id == due.outbox_id,
                outbox.c.sent_at.is_(None),
                outbox.c.parts_sent == due.parts_sent,
                outbox.c.next_attempt_at <= now_us(),
            )
            .values(next_attempt_at=until)
        )
        return bool(result.rowcount)
