"""The live feeds' slots per token and per address (http/feeds.py): taken before a feed starts,
given back however it ends, its reader gone, the service closing it, or dropped unstarted."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncGenerator

import pytest

from tablelog.errors import TooManyFeeds
from tablelog.http.feeds import Feeds, Slot, holding


def test_a_token_past_its_feeds_is_refused_and_nothing_is_counted() -> None:
    feeds = Feeds(per_token=2, per_address=3)
    slots = [feeds.open("bob", "10.0.0.1"), feeds.open("bob", "10.0.0.1")]
    with pytest.raises(TooManyFeeds) as refused:
        feeds.open("bob", "10.0.0.1")
    assert refused.value.code == "too-many-feeds"
    assert "2 open live feeds" in refused.value.message
    assert feeds.open_count("bob", "10.0.0.1") == (2, 2)  # the refusal took no slot
    feeds.open("sue", "10.0.0.1")  # another token, the address's third
    with pytest.raises(TooManyFeeds, match="this address already holds 3"):
        feeds.open("ann", "10.0.0.1")
    feeds.open("ann", "10.0.0.2")  # another address is not held to it
    slots[0].release()
    slots[0].release()  # once only, however often
    assert feeds.open_count("bob", "10.0.0.1") == (1, 2)
    feeds.open("bob", "10.0.0.1")


async def _feed(slot: Slot, started: asyncio.Event) -> AsyncGenerator[str, None]:
    """The shape of stream._feed: the slot is given back in its `finally`."""
    try:
        started.set()
        yield "first"
        await asyncio.Event().wait()  # a quiet feed: waits for ever
        yield "never"
    finally:
        slot.release()


def test_a_feed_cancelled_closed_or_dropped_unstarted_gives_its_slot_back() -> None:
    async def scenario() -> list[tuple[int, int]]:
        feeds = Feeds(per_token=3, per_address=3)
        counts = []
        # Its reader went away: the stream's task is cancelled while the feed waits.
        slot = feeds.open("bob", "a")
        started = asyncio.Event()
        feed = _feed(slot, started)
        holding(slot, feed)

        async def read() -> None:
            async for _ in feed:
                pass

        task = asyncio.create_task(read())
        await started.wait()
        await asyncio.sleep(0.01)
        counts.append(feeds.open_count("bob", "a"))
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        counts.append(feeds.open_count("bob", "a"))
        # The service closes a feed suspended at a message (on its way down).
        slot = feeds.open("bob", "a")
        closed = _feed(slot, asyncio.Event())
        holding(slot, closed)
        assert await anext(closed) == "first"
        await closed.aclose()
        counts.append(feeds.open_count("bob", "a"))
        # Its reader left before the response started: the generator never ran.
        slot = feeds.open("bob", "a")
        holding(slot, _feed(slot, asyncio.Event()))  # dropped at once
        gc.collect()
        counts.append(feeds.open_count("bob", "a"))  # given back on the loop, not in the GC
        await asyncio.sleep(0)
        counts.append(feeds.open_count("bob", "a"))
        return counts

    assert asyncio.run(scenario()) == [(1, 1), (0, 0), (0, 0), (1, 1), (0, 0)]
