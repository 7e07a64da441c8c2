"""What several services on one database count together (revision 0013): hits against a
limit per subject (a client address) in a sliding window, and the live feeds open now, each
leased by the service that holds it."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select, update

from tablelog.storage.schema import limit_hits, open_feeds
from tablelog.storage.store import EventStore


def hits(store: EventStore, kind: str, subject: str, since: int) -> list[int]:
    """When (microseconds UTC, oldest first) `subject` hit the limit `kind` after `since`."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(limit_hits.c.at)
            .where(
                limit_hits.c.kind == kind,
                limit_hits.c.subject == subject,
                limit_hits.c.at > since,
            )
            .order_by(limit_hits.c.at)
        )
        return [int(row[0]) for row in rows]


def add_hit(store: EventStore, kind: str, subject: str, at: int, forget_before: int) -> None:
    """Count a hit of `subject` at `at`; hits of `kind` older than `forget_before` (out of
    every window) are dropped on the way, so the table holds one window's worth."""
    with store.service_rows() as conn:
        conn.execute(
            delete(limit_hits).where(limit_hits.c.kind == kind, limit_hits.c.at < forget_before)
        )
        conn.execute(insert(limit_hits).values(kind=kind, subject=subject, at=at))


def open_feed(
    store: EventStore, feed: str, service: str, token: str, address: str, now: int, lease: int
) -> tuple[int, int]:
    """Count feed `feed` of `token` from `address` as open (held by `service` until `now +
    lease`) and say how many live feeds `token` and `address` now hold, this one included."""
    with store.service_rows() as conn:
        conn.execute(
            insert(open_feeds).values(
                id=feed, service=service, token_hash=token, address=address, lease_until=now + lease
            )
        )
        live = open_feeds.c.lease_until > now
        by_token = conn.execute(
            select(func.count()).where(open_feeds.c.token_hash == token, live)
        ).scalar_one()
        by_address = conn.execute(
            select(func.count()).where(open_feeds.c.address == address, live)
        ).scalar_one()
        return int(by_token), int(by_address)


def close_feeds(store: EventStore, feeds: list[str]) -> None:
    with store.service_rows() as conn:
        conn.execute(delete(open_feeds).where(open_feeds.c.id.in_(feeds)))


def renew_feeds(store: EventStore, service: str, now: int, lease: int) -> None:
    """Extend the leases of `service`'s feeds, and forget every feed whose lease ran out
    (its service died without closing it)."""
    with store.service_rows() as conn:
        conn.execute(
            update(open_feeds)
            .where(open_feeds.c.service == service)
            .values(lease_until=now + lease)
        )
        conn.execute(delete(open_feeds).where(open_feeds.c.lease_until <= now))


def close_service_feeds(store: EventStore, service: str) -> None:
    with store.service_rows() as conn:
        conn.execute(delete(open_feeds).where(open_feeds.c.service == service))
