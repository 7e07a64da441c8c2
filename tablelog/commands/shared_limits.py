"""The limits several services on one database keep together (storage/limits.py): the
throttle's windows (failed sign-ins, campaigns created) and the live feeds' caps count what
every service saw, not one process's share of it."""

from __future__ import annotations

import uuid

from tablelog.commands.database import EventStore
from tablelog.commands.session_policy import SECOND_US
from tablelog.storage import limits
from tablelog.storage.store import now_us

# A feed is counted while its service renews its lease: a service that died (SIGKILL, the
# machine lost) stops holding its feeds' places within LEASE_S.
LEASE_S = 60.0
RENEW_S = 20.0


class SharedLimits:
    """One service's view of the counts in the database. `service`: this process's own id,
    for the leases of its feeds."""

    def __init__(self, store: EventStore, service: str | None = None) -> None:
        self.store = store
        self.service = service or uuid.uuid4().hex[:16]

    @staticmethod
    def now() -> int:
        return now_us()

    def hits(self, kind: str, subject: str, window_s: float) -> list[int]:
        """When (microseconds UTC, oldest first) `subject` hit `kind` in the last window."""
        return limits.hits(self.store, kind, subject, now_us() - int(window_s * SECOND_US))

    def add(self, kind: str, subject: str, window_s: float) -> None:
        now = now_us()
        limits.add_hit(self.store, kind, subject, now, now - int(window_s * SECOND_US))

    def open_feed(self, token: str, address: str) -> tuple[str, int, int]:
        """A new feed's id, and the feeds `token` and `address` hold with it, everywhere."""
        feed = uuid.uuid4().hex
        by_token, by_address = limits.open_feed(
            self.store, feed, self.service, token, address, now_us(), int(LEASE_S * SECOND_US)
        )
        return feed, by_token, by_address

    def close_feed(self, feed: str) -> None:
        limits.close_feeds(self.store, [feed])

    def renew(self) -> None:
        limits.renew_feeds(self.store, self.service, now_us(), int(LEASE_S * SECOND_US))

    def close_all(self) -> None:
        limits.close_service_feeds(self.store, self.service)
