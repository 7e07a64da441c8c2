"""How many live feeds may be open at once, per access token and per client address.

A live feed holds a connection (a file descriptor) for as long as its reader likes. Without a
cap one observer's token held 1,500 of them, and with a limit of 1,024 open files one reader
could lock every other player out. So a token may hold `DEFAULT_PER_TOKEN` feeds (a player's
browser tabs and devices, with room to spare) and an address `DEFAULT_PER_ADDRESS` (a table
behind one home router); the next is refused (429, `too-many-feeds`) and changes nothing.

A feed's slot is taken before its response starts and given back when the feed ends, however
it ends: its reader went away (the stream is cancelled), its token was revoked, the service
stops (the stream is closed), or the response was dropped before it ever started (a reader
that left at once: its generator never ran, so a finalizer gives the slot back). Counts live
in the service's memory, like the throttle's (throttle.py); a stopped service holds none.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from tablelog.errors import TooManyFeeds

DEFAULT_PER_TOKEN = 8
DEFAULT_PER_ADDRESS = 64


class Slot:
    """One open feed's place in the counts; `release` gives it back (once, however often it
    is called)."""

    def __init__(self, feeds: Feeds, token: str, address: str) -> None:
        self._feeds = feeds
        self._token = token
        self._address = address
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._feeds._give_back(self._token, self._address)


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

    def open(self, token: str, address: str) -> Slot:
        """A slot for a new feed of `token` (its digest) from `address`, or TooManyFeeds
        while either already holds its limit (then nothing is counted)."""
        if self._tokens[token] >= self.per_token:
            raise TooManyFeeds(
                f"this access token already holds {self.per_token} open live feeds (the "
                "service's limit); close one before opening another"
            )
        if self._addresses[address] >= self.per_address:
            raise TooManyFeeds(
                f"this address already holds {self.per_address} open live feeds (the "
                "service's limit); close one before opening another"
            )
        self._tokens[token] += 1
        self._addresses[address] += 1
        return Slot(self, token, address)

    def open_count(self, token: str, address: str) -> tuple[int, int]:
        """The feeds open now for `token` and for `address`."""
        return self._tokens[token], self._addresses[address]

    def _give_back(self, token: str, address: str) -> None:
        for counts, key in ((self._tokens, token), (self._addresses, address)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]  # a map of open feeds only: it never grows past them


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
