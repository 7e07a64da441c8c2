"""How many live feeds may be open at once, per access token and per client address.

A live feed holds a connection (a file descriptor) for as long as its reader likes. Without a
cap one observer's token held 1,500 of them, and with a limit of 1,024 open files one reader
could lock every other player out. So a token may hold `DEFAULT_PER_TOKEN` feeds (a player's
browser tabs and devices, with room to spare) and an address `DEFAULT_PER_ADDRESS` (a table
behind one home router); the next is refused (429, `too-many-feeds`) and changes nothing.

A feed's slot is taken before its response starts and given back when the feed ends, however
it ends: its reader went away (the stream is cancelled), its token was revoked, the service
stops (the stream is closed), or the response was dropped before it ever started (a reader
that left at once: its generator never ran, so a finalizer gives the slot back).

Several services on one database count together (`bind`): each open feed is a row of the
database, held by its service while that service's lease runs; the service renews it while
it holds feeds (every `RENEW_S`, one row however many feeds it holds) and drops its rows
when it stops; a service killed outright stops holding its feeds' places when its lease runs
out (commands/shared_limits.py).
A token's ninth feed is refused whichever services hold the other eight. Without a database
bound (the unit tests), the counts live in the service's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import anyio

from tablelog.commands.shared_limits import RENEW_S, SharedLimits
from tablelog.errors import TablelogError, TooManyFeeds

_LOG = logging.getLogger("tablelog.http")

DEFAULT_PER_TOKEN = 8
DEFAULT_PER_ADDRESS = 64


class Slot:
    """One open feed's place in the counts; `release` gives it back (once, however often it
    is called)."""

    def __init__(self, feeds: Feeds, token: str, address: str, row: str | None = None) -> None:
        self._feeds = feeds
        self._token = token
        self._address = address
        self._row = row  # its row in the database's count, if one is bound
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._feeds._give_back(self._token, self._address, self._row)


class Feeds:
    """The open feeds of one service, counted per token digest and per address. Used from
    the service's event loop only (the feed handler is async), so no lock is needed."""

    def __init__(
        self, per_token: int = DEFAULT_PER_TOKEN, per_address: int = DEFAULT_PER_ADDRESS
    ) -> None:
        self.per_token = per_token
        self.per_address = per_address
        self._tokens: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()
        self.shared: SharedLimits | None = None
        self._renewing: asyncio.Task[None] | None = None

    def bind(self, shared: SharedLimits) -> None:
        """Count with every service on the database; renew this one's leases (on the running
        loop) until `close`."""
        self.shared = shared
        self._renewing = asyncio.get_running_loop().create_task(self._renew())

    def close(self) -> None:
        """The service stops: its feeds count no more anywhere."""
        if self._renewing is not None:
            self._renewing.cancel()
        if self.shared is not None:
            try:
                self.shared.close_all()
            except TablelogError:  # the database is gone too: the leases run out
                _LOG.warning("could not drop this service's feeds from the count")

    async def _renew(self) -> None:
        assert self.shared is not None
        while True:
            await asyncio.sleep(RENEW_S)
            if self._tokens:  # a service without feeds holds no lease: no query
                try:
                    await anyio.to_thread.run_sync(self.shared.renew)
                except TablelogError:
                    _LOG.exception("renewing the live feeds' leases failed")

    def open(self, token: str, address: str) -> Slot:
        """A slot for a new feed of `token` (its digest) from `address`, or TooManyFeeds
        while either already holds its limit (then nothing is counted). With a database
        bound it writes: call it off the loop."""
        held = self._tokens[token], self._addresses[address]
        row = None
        if self.shared is not None:
            # Counted with this one, so two services opening at once cannot both squeeze in.
            row, *counted = self.shared.open_feed(token, address)
            held = counted[0] - 1, counted[1] - 1
        try:
            if held[0] >= self.per_token:
                raise TooManyFeeds(
                    f"this access token already holds {self.per_token} open live feeds (the "
                    "service's limit); close one before opening another"
                )
            if held[1] >= self.per_address:
                raise TooManyFeeds(
                    f"this address already holds {self.per_address} open live feeds (the "
                    "service's limit); close one before opening another"
                )
        except TooManyFeeds:
            if row is not None and self.shared is not None:
                self.shared.close_feed(row)
            raise
        self._tokens[token] += 1
        self._addresses[address] += 1
        return Slot(self, token, address, row)

    def open_count(self, token: str, address: str) -> tuple[int, int]:
        """The feeds open now for `token` and for `address`."""
        return self._tokens[token], self._addresses[address]

    def _give_back(self, token: str, address: str, row: str | None) -> None:
        for counts, key in ((self._tokens, token), (self._addresses, address)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]  # a map of open feeds only: it never grows past them
        if row is not None and self.shared is not None:
            # Off the loop, and awaited by nobody: a feed ending must not wait on a write.
            asyncio.get_running_loop().run_in_executor(None, self._drop, row)

    def _drop(self, row: str) -> None:
        assert self.shared is not None
        try:
            self.shared.close_feed(row)
        except TablelogError:  # its lease runs out instead
            _LOG.warning("could not drop a closed feed from the count")


def holding(slot: Slot, feed: AsyncIterator[Any]) -> None:
    """Tie `slot` to the lifetime of the feed's generator `feed` (whose own `finally` calls
    `slot.release`): if the generator is dropped without ever having run, the slot is given
    back on the event loop, never from inside a garbage collection that might interrupt a
    count being changed."""
    loop = asyncio.get_running_loop()
    weakref.finalize(feed, _release_soon, loop, slot).atexit = False


def _release_soon(loop: asyncio.AbstractEventLoop, slot: Slot) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed: the counts went with it
        loop.call_soon_threadsafe(slot.release)
