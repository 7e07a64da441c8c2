"""One watcher per campaign with open live feeds, however many feeds there are.

A campaign watched by hundreds of browsers would cost hundreds of polls of the database every
quarter of a second if each feed polled alone. Here one task per campaign reads the head and
the digests of the live tokens (one read each, `POLL_S` apart, or at once when this service
appends: `wake`) and tells its feeds when either changed; each feed then sends what is new
(feeds of one viewer share one read of it, `stream._items`) or, its token gone, says so and
ends. Whoever appended (this service, another, the CLI on the same database), a feed hears
of it within `POLL_S`.
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

POLL_S = 0.25  # also how soon a revoked token's feed ends
_LOG = logging.getLogger("tablelog.http")


class Watch:
    """What the feeds of one campaign follow: its head and its live tokens, and an event
    set (and replaced) whenever either changed."""

    def __init__(self) -> None:
        self.head = -1  # unknown until the first read
        self.live: frozenset[str] | None = None
        self.live_at = 0.0  # when the read of `live` began (time.monotonic)
        self.changed = asyncio.Event()
        self.nudge = asyncio.Event()
        self.feeds = 0
        self.task: asyncio.Task[None] | None = None

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
        """A command of this service appended to `campaign` (from any thread): read now."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._nudge, campaign)

    def _nudge(self, campaign: str) -> None:
        found = self._by_campaign.get(campaign)
        if found is not None:
            found.nudge.set()

    @contextlib.asynccontextmanager
    async def watching(self, store: EventStore, campaign: str) -> AsyncIterator[Watch]:
        found = self._by_campaign.get(campaign)
        if found is None:
            found = self._by_campaign[campaign] = Watch()
            found.task = asyncio.create_task(_follow(store, campaign, found, self.policy))
        found.feeds += 1
        try:
            yield found
        finally:
            found.feeds -= 1
            if found.feeds == 0 and self._by_campaign.get(campaign) is found:
                del self._by_campaign[campaign]
                if found.task is not None:
                    found.task.cancel()


async def _follow(store: EventStore, campaign: str, watch: Watch, policy: SessionPolicy) -> None:
    while True:
        began = time.monotonic()
        watch.nudge.clear()  # before the read: a nudge during it brings another at once
        try:
            head, live = await anyio.to_thread.run_sync(watched, store, campaign, policy)
        except Exception:  # a database that fails for a moment: the feeds wait, and we retry
            _LOG.exception("live feed of %s: reading the head failed", campaign)
        else:
            seq = head.seq if head is not None else -1
            if seq != watch.head or live != watch.live:
                watch.head, watch.live, watch.live_at = seq, live, began
                told, watch.changed = watch.changed, asyncio.Event()
                told.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watch.nudge.wait(), POLL_S)
