"""How long the service keeps a web session, and the sentence that ends one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tablelog.errors import Unauthenticated
from tablelog.storage.access import TokenRow
from tablelog.storage.store import now_us

SECOND_US = 1_000_000
DAY_S = 86_400
SESSION_IDLE_S = 14 * DAY_S  # `tablelog serve --session-idle`'s default
SESSION_MAX_S = 30 * DAY_S  # a session's longest life, as long as its cookie's
TOUCH_S = 60.0  # a session's use is recorded at most this often


@dataclass(frozen=True)
class SessionPolicy:
    """How long the service keeps a web session: `idle_s` seconds without a request end it,
    and `max_s` after its sign-in at the latest (its cookie's own age). A use is recorded at
    most once a minute (or once a tenth of `idle_s`, when shorter), so a request costs no
    write; the idle time is counted from the last use recorded. `clock`: microseconds UTC
    (the tests move their own)."""

    idle_s: float = SESSION_IDLE_S
    max_s: float = SESSION_MAX_S
    clock: Callable[[], int] = now_us

    @property
    def touch_us(self) -> int:
        return int(min(TOUCH_S, self.idle_s / 10) * SECOND_US)

    def cutoffs(self) -> tuple[int, int]:
        """Sessions unused since the first, or signed in before the second, have ended."""
        now = self.clock()
        return now - int(self.idle_s * SECOND_US), now - int(self.max_s * SECOND_US)


def span(seconds: float) -> str:
    """A duration as people say it: `14 days`, `2 hours`, `90 seconds`."""
    for unit, size in (("day", DAY_S), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


def session_ended(row: TokenRow, policy: SessionPolicy) -> None:
    aged(row.created_at, row.used_at, policy)


def aged(created_at: int, used_at: int | None, policy: SessionPolicy) -> None:
    """Unauthenticated (`session-expired`) for a session `policy` has ended: idle since
    `used_at` (or `created_at`, never used) too long, or signed in too long ago. A
    campaign's sessions and the admin page's end alike."""
    idle_before, born_before = policy.cutoffs()
    used = created_at if used_at is None else used_at
    if used < idle_before:
        raise Unauthenticated(
            f"this web session ended after {span(policy.idle_s)} without use; open a new "
            "sign-in link",
            code="session-expired",
        )
    if created_at < born_before:
        raise Unauthenticated(
            f"this web session ended {span(policy.max_s)} after its sign-in; open a new "
            "sign-in link",
            code="session-expired",
        )
