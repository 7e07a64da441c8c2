"""Limits per client address, counted in a sliding window.

Failed sign-ins: after too many in a minute, that address may not present a token at all
until the oldest failure is a minute old. A token is 256 random bits, so guessing one is
hopeless anyway; the limit keeps a guesser (or a misconfigured bot hammering with a revoked
token) from costing the service a database read per try. Only a token the service does not
know, or one that was revoked, counts: a request without any token is told so and costs
nothing.

Campaigns created: each one is a new stream in the database, so an address may create only
so many an hour, whatever token it holds.

Several services on one database count together (`bind`: the hits are kept in the database,
commands/shared_limits.py), so an address gets the same number of tries however a load
balancer spreads its requests. A failed sign-in reads the address's failures of the last
minute from the database and refuses the try past the limit (429) on any service; each
service also remembers what it read, so a request it sees from an address past the limit is
refused before its token is looked up, without a query. Campaigns are counted in the
database alone (a creation is rare). Without a database bound (the unit tests), the counts
live in memory, for a bounded number of addresses. The address is the socket's peer unless
`serve --forwarded-allow-ips` trusts a proxy's `X-Forwarded-For`.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from tablelog.commands.shared_limits import SharedLimits
from tablelog.errors import TooManyFailures

WINDOW_S = 60.0
DEFAULT_LIMIT = 20  # failed sign-ins per address and minute
CAMPAIGN_WINDOW_S = 3600.0
DEFAULT_CAMPAIGN_LIMIT = 20  # campaigns created per address and hour
_ADDRESSES_KEPT = 10_000


class _Window:
    """Events per address within the last `window_s` seconds."""

    kind = ""  # its name among the database's hits (limit_hits.kind)

    def __init__(self, limit: int, window_s: float, clock: Callable[[], float]) -> None:
        self._limit = limit
        self._window = window_s
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self.shared: SharedLimits | None = None

    def bind(self, shared: SharedLimits) -> None:
        """Count with every service on the database from now on."""
        self.shared = shared

    def _shared_wait(self, address: str) -> int | None:
        """As `_wait`, from the database's count (every service's), which this service
        now remembers too."""
        assert self.shared is not None
        found = self.shared.hits(self.kind, address, self._window)
        now, now_us = self._clock(), self.shared.now()
        with self._lock:
            if found:
                # Each hit on this service's clock, as long ago as the database says.
                self._seen[address] = deque(now - (now_us - at) / 1e6 for at in found)
                self._seen.move_to_end(address)
                while len(self._seen) > _ADDRESSES_KEPT:
                    self._seen.popitem(last=False)
            else:
                self._seen.pop(address, None)
        if len(found) < self._limit:
            return None
        return max(1, math.ceil((found[0] - now_us) / 1e6 + self._window))

    def _wait(self, address: str) -> int | None:
        """Seconds until `address` may go on, or None when it is under its limit."""
        with self._lock:
            now = self._clock()
            seen = self._recent(address, now)
            if seen is None or len(seen) < self._limit:
                return None
            return max(1, math.ceil(seen[0] + self._window - now))

    def _add(self, address: str) -> None:
        with self._lock:
            now = self._clock()
            seen = self._recent(address, now)
            if seen is None:
                seen = self._seen[address] = deque()
                while len(self._seen) > _ADDRESSES_KEPT:
                    self._seen.popitem(last=False)
            seen.append(now)
            self._seen.move_to_end(address)

    def _recent(self, address: str, now: float) -> deque[float] | None:
        seen = self._seen.get(address)
        if seen is None:
            return None
        while seen and seen[0] <= now - self._window:
            seen.popleft()
        if not seen:
            del self._seen[address]
            return None
        return seen


class FailedSignIns(_Window):
    kind = "sign-in"

    def __init__(
        self, limit: int = DEFAULT_LIMIT, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(limit, WINDOW_S, clock)

    def check(self, address: str) -> None:
        """TooManyFailures while `address` has used up its failed sign-ins."""
        wait = self._wait(address)
        if wait is not None:
            self._refuse(wait)

    def _refuse(self, wait: int) -> None:
        raise TooManyFailures(
            f"{self._limit} failed sign-ins from this address within a minute; try again "
            f"in {wait} s",
            retry_after=wait,
        )

    def failed(self, address: str) -> None:
        """Count a failed sign-in; TooManyFailures instead when, counting every service's,
        the address has already used them up (this try is then not counted)."""
        if self.shared is None:
            self._add(address)
            return
        wait = self._shared_wait(address)
        if wait is not None:
            self._refuse(wait)
        self.shared.add(self.kind, address, self._window)
        self._add(address)


class CampaignQuota(_Window):
    kind = "campaign"

    def __init__(
        self, limit: int = DEFAULT_CAMPAIGN_LIMIT, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(limit, CAMPAIGN_WINDOW_S, clock)

    def check(self, address: str) -> None:
        """TooManyFailures (429, `too-many-campaigns`) while `address` has created its
        campaigns for the hour (on every service, with a database bound)."""
        wait = self._wait(address) if self.shared is None else self._shared_wait(address)
        if wait is not None:
            raise TooManyFailures(
                f"{self._limit} campaigns were created from this address within an hour (the "
                f"service's limit); try again in {wait} s",
                retry_after=wait,
                code="too-many-campaigns",
            )

    def created(self, address: str) -> None:
        if self.shared is not None:
            self.shared.add(self.kind, address, self._window)
        self._add(address)
