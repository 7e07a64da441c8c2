"""Failed sign-ins, counted per client address: after too many in a minute, that address
may not present a token at all until the oldest failure is a minute old.

A token is 256 random bits, so guessing one is hopeless anyway; the limit keeps a guesser
(or a misconfigured bot hammering with a revoked token) from costing the service a database
read per try. Only a token the service does not know, or one that was revoked, counts: a
request without any token is told so and costs nothing. Counts live in the service's memory
(a restart forgets them) and are kept for a bounded number of addresses.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from tablelog.errors import TooManyFailures

WINDOW_S = 60.0
DEFAULT_LIMIT = 20  # failed sign-ins per address and minute
_ADDRESSES_KEPT = 10_000


class FailedSignIns:
    def __init__(
        self, limit: int = DEFAULT_LIMIT, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._limit = limit
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def _now(self) -> float:
        return self._clock()

    def check(self, address: str) -> None:
        """TooManyFailures while `address` has used up its failed sign-ins."""
        with self._lock:
            failures = self._recent(address, self._now())
            if failures is None or len(failures) < self._limit:
                return
            wait = max(1, math.ceil(failures[0] + WINDOW_S - self._now()))
        raise TooManyFailures(
            f"{self._limit} failed sign-ins from this address within a minute; try again in "
            f"{wait} s",
            retry_after=wait,
        )

    def failed(self, address: str) -> None:
        with self._lock:
            now = self._now()
            failures = self._recent(address, now)
            if failures is None:
                failures = self._failures[address] = deque()
                while len(self._failures) > _ADDRESSES_KEPT:
                    self._failures.popitem(last=False)
            failures.append(now)
            self._failures.move_to_end(address)

    def _recent(self, address: str, now: float) -> deque[float] | None:
        failures = self._failures.get(address)
        if failures is None:
            return None
        while failures and failures[0] <= now - WINDOW_S:
            failures.popleft()
        if not failures:
            del self._failures[address]
            return None
        return failures
