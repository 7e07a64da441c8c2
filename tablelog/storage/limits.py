"""What several services on one database count together (revision 0013): hits against a
limit per subject (a client address) in a sliding window, and the live feeds open now, each
held by a service while that service's lease runs."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from tablelog.storage.schema import feed_leases, limit_hits, open_feeds
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
    """Count feed `feed` of `token` from `address` as open, held by `service` (whose lease
    runs until `now + lease`), and say how many live feeds `token` and `address` now hold,
    this one included: those of services whose lease runs."""
    with store.service_rows() as conn:
        _hold_lease(conn, service, now + lease)
        conn.execute(
            insert(open_feeds).values(id=feed, service=service, token_hash=token, address=address)
        )
        held = select(feed_leases.c.service).where(feed_leases.c.lease_until > now)
        counted = open_feeds.c.service.in_(held)
        by_token = conn.execute(
            select(func.count()).where(open_feeds.c.token_hash == token, counted)
        ).scalar_one()
        by_address = conn.execute(
            select(func.count()).where(open_feeds.c.address == address, counted)
        ).scalar_one()
        return int(by_token), int(by_address)


def _hold_lease(conn: Connection, service: str, until: int) -> None:
    """Insert or move `service`'s lease: an upsert, since two of its feeds may open at once."""
    upsert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    statement = upsert(feed_leases).values(service=service, lease_until=until)
    conn.execute(
        statement.on_conflict_do_update(
            index_elements=[feed_leases.c.service], set_={"lease_until": until}
        )
    )


def close_feeds(store: EventStore, feeds: list[str]) -> None:
    with store.service_rows() as conn:
        conn.execute(delete(open_feeds).where(open_feeds.c.id.in_(feeds)))


def renew_feeds(store: EventStore, service: str, now: int, lease: int) -> None:
    """Extend `service`'s lease (one row, however many feeds it holds), and forget the feeds
    and leases of services whose lease ran out (they died without closing them)."""
    with store.service_rows() as conn:
        _hold_lease(conn, service, now + lease)
        gone = select(feed_leases.c.service).where(feed_leases.c.lease_until <= now)
        conn.execute(delete(open_feeds).where(open_feeds.c.service.in_(gone)))
        conn.execute(delete(feed_leases).where(feed_leases.c.lease_until <= now))


def close_service_feeds(store: EventStore, service: str) -> None:
    with store.service_rows() as conn:
        conn.execute(delete(open_feeds).where(open_feeds.c.service == service))
        conn.execute(delete(feed_leases).where(feed_leases.c.service == service))
