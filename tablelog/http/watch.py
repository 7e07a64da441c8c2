"""One watcher per campaign with open live feeds, however many feeds there are.

A campaign watched by hundreds of browsers would cost hundreds of polls of the database every
quarter of a second if each feed polled alone. Here one task per campaign reads the head and
the digests of the live tokens and tells its feeds when either changed; each feed then sends
what is new (feeds of one viewer share one read of it, `stream._items`) or, its token gone,
says so and ends.

When it reads: on PostgreSQL, when the database says the campaign's tokens changed
(storage/listen.py: one listening connection per service, told of every committed append and
revocation, by any service or the CLI), and when one of its sessions ends for its age; an
append's notification carries the new head, which the feeds are told without a read. An idle
campaign costs no query however long it is watched. On SQLite, which cannot tell, every
`POLL_S`, and at once when this service appends (`wake`). While a lost listening connection
is being made again the watchers poll as on SQLite, and once it listens again each reads
once, so nothing committed meanwhile is missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import anyio

from tablelog.commands.access import watched
from tablelog.commands.database import EventStore
from tablelog.commands.session_policy import SessionPolicy

POLL_S = 0.25  # without notifications, also how soon a revoked token's feed ends
_LOG = logging.getLogger("tablelog.http")


class Watch:
    """What the feeds of one campaign follow: its head and its live tokens, and an event
    set (and replaced) whenever either changed."""

    def __init__(self) -> None:
        self.head = -1  # unknown until the first read
        self.live: frozenset[str] | None = None
        self.live_at = 0.0  # when the read of `live` began (time.monotonic)
        self.next_end: float | None = None  # when a live session ends for its age (monotonic)
        self.changed = asyncio.Event()
        self.nudge = asyncio.Event()
        self.feeds = 0
        self.task: asyncio.Task[None] | None = None
        self.reading = False  # the watcher's read of the head and tokens is under way

    def holds(self, digest: str, since: float) -> bool:
        """Whether a token seen live at `since` still is: a read begun before then cannot
        tell (the token may be a session signed in after it), so it is believed until the
        next read."""
        return self.live is None or self.live_at < since or digest in self.live


class Watches:
    def __init__(self, policy: SessionPolicy | None = None) -> None:
        # A session the policy ended for its age is live no more: its feed ends too.
        self.policy = policy or SessionPolicy()
        self._by_campaign: dict[str, Watch] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closing = False  # the service is stopping: every feed ends (close)
        # The database tells of every change (PostgreSQL, its listener connected): the
        # watchers read only when told. Set and cleared on the loop (`listening`, `deaf`).
        self.pushed = False
        # The feeds' shared reads (stream.py): this service's, on its own loop.
        self.shared: OrderedDict[Any, asyncio.Future[Any]] = OrderedDict()

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    def close(self) -> None:
        """The service is stopping (called on its loop): every feed ends now, its stream
        closed cleanly and its slot given back, rather than cut when the server gives up
        waiting for it."""
        self.closing = True
        for watch in self._by_campaign.values():
            watch.changed.set()

    def wake(self, campaign: str) -> None:
        """A command of this service appended to `campaign` (from any thread): read now,
        unless the database's notification will say so anyway. A campaign nobody watches
        here costs nothing: no wake-up of the loop (read without its lock: a feed opened
        meanwhile reads the head itself when its watcher starts)."""
        if not self.pushed and campaign in self._by_campaign:
            self._soon(self._nudge, campaign)

    def told(self, campaign: str, seq: int | None = None) -> None:
        """The database notified a change of `campaign` (from the listener's thread): its
        head moved to `seq`, or (None) its tokens changed."""
        self._soon(self._heard, campaign, seq)

    def listening(self) -> None:
        """The listener listens (again): from now on the database tells; every watcher reads
        once, for what was committed while nobody listened."""
        self._soon(self._set_pushed, True)

    def deaf(self) -> None:
        """The listening connection was lost: the watchers poll until it is back."""
        self._soon(self._set_pushed, False)

    def _soon(self, call: Any, *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed meanwhile: nobody to tell
                loop.call_soon_threadsafe(call, *args)

    def _set_pushed(self, pushed: bool) -> None:
        self.pushed = pushed
        for watch in self._by_campaign.values():
            watch.nudge.set()

    def _nudge(self, campaign: str) -> None:
        found = self._by_campaign.get(campaign)
        if found is not None:
            found.nudge.set()

    def _heard(self, campaign: str, seq: int | None) -> None:
        """A notification, on the loop. A new head needs no read: an append cannot change
        the tokens (a revocation sends its own notification), so the feeds are told the
        head at once. Anything else, or a head heard while the watcher reads (its read may
        be older), makes it read."""
        found = self._by_campaign.get(campaign)
        if found is None:
            return
        if seq is None or found.reading or found.live is None:
            found.nudge.set()
        elif seq > found.head:
            found.head = seq
            told, found.changed = found.changed, asyncio.Event()
            told.set()

    @contextlib.asynccontextmanager
    async def watching(self, store: EventStore, campaign: str) -> AsyncIterator[Watch]:
        found = self._by_campaign.get(campaign)
        if found is None:
            found = self._by_campaign[campaign] = Watch()
            found.task = asyncio.create_task(_follow(store, campaign, found, self))
        found.feeds += 1
        try:
            yield found
        finally:
            found.feeds -= 1
            if found.feeds == 0 and self._by_campaign.get(campaign) is found:
                del self._by_campaign[campaign]
                if found.task is not None:
                    found.task.cancel()


async def _follow(store: EventStore, campaign: str, watch: Watch, watches: Watches) -> None:
    while True:
        began = time.monotonic()
        watch.nudge.clear()  # before the read: a nudge during it brings another at once
        failed = False
        watch.reading = True
        try:
            head, live, next_end = await anyio.to_thread.run_sync(
                watched, store, campaign, watches.policy
            )
        except Exception:  # a database that fails for a moment: the feeds wait, and we retry
            _LOG.exception("live feed of %s: reading the head failed", campaign)
            failed = True
        else:
            seq = head.seq if head is not None else -1
            watch.next_end = _monotonic_at(next_end, watches.policy)
            if seq != watch.head or live != watch.live:
                watch.head, watch.live, watch.live_at = seq, live, began
                told, watch.changed = watch.changed, asyncio.Event()
                told.set()
        finally:
            watch.reading = False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watch.nudge.wait(), _quiet_for(watch, watches, failed))


def _quiet_for(watch: Watch, watches: Watches, failed: bool) -> float | None:
    """How long a watcher may wait for a nudge before it reads anyway: told of every change,
    until its first session ends for its age (None: for ever); otherwise `POLL_S`."""
    if failed or not watches.pushed:
        return POLL_S
    if watch.next_end is None:
        return None
    return max(POLL_S, watch.next_end - time.monotonic())


def _monotonic_at(at_us: int | None, policy: SessionPolicy) -> float | None:
    """A moment on the policy's clock (microseconds UTC) on the loop's (monotonic)."""
    if at_us is None:
        return None
    return time.monotonic() + (at_us - policy.clock()) / 1_000_000
