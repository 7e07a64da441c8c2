"""Commands queued for one campaign are written as a group, one transaction and one commit,
on SQLite and PostgreSQL: each is decided on the state its predecessors left, a refused one
writes nothing and stops no other, and a failure of the shared part leaves each command to
be tried on its own."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tablelog.commands import database, state
from tablelog.commands.group_commit import Order, place, place_soon
from tablelog.commands.table import campaign_state, execute, salted, secure_shuffle
from tablelog.errors import ConcurrencyConflict, InvalidInput, TablelogError
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import Folded, fold
from tablelog.projections.views import state_view
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import CampaignTransaction, EventStore, open_store
from tablelog.storage.verify import verify_log
from tests.support.tables import table_in_play

CAMPAIGN = "heist"


@pytest.fixture
def store(target: str) -> Iterator[EventStore]:
    database.upgrade(target)
    opened = open_store(target)
    table_in_play(opened, CAMPAIGN)
    yield opened
    opened.close()


def order(command: Any, **options: Any) -> Order:
    values: dict[str, Any] = {
        "ruleset": "improv",
        "actor": None,
        "expected_seq": None,
        "shuffle": secure_shuffle,
        "caller": None,
        "on_begin": None,
        "on_commit": None,
        "on_done": None,
    }
    return Order(command=command, **(values | options))


def queued(store: EventStore, *orders: Order) -> None:
    """Orders waiting for the campaign, as if their threads were blocked on its lock."""
    state.entry_for(store, CAMPAIGN).waiting.extend(orders)


def narrate(text: str) -> c.Narrate:
    return c.Narrate(conflict="c1", side="Kit", text=text)


def assert_log_is_whole(store: EventStore) -> None:
    assert verify_log(store).ok
    envelopes = store.read(CAMPAIGN)
    assert [e.seq for e in envelopes] == list(range(1, len(envelopes) + 1))
    assert state_view(campaign_state(store, CAMPAIGN)) == state_view(fold(envelopes))


def test_queued_commands_go_in_together_each_on_the_state_before_it(store: EventStore) -> None:
    head = store.head(CAMPAIGN)
    assert head is not None
    first, refused, stale, last = (
        order(narrate("one")),
        order(c.PlayCard(conflict="c1", side="Kit", card="ZZ")),  # no such card
        order(narrate("stale"), expected_seq=head.seq),  # the group moves the head first
        order(narrate("two")),
    )
    queued(store, first, refused, stale)
    written = place(store, CAMPAIGN, last, salted)
    assert [o.settled for o in (first, refused, stale, last)] == [True] * 4
    assert first.written is not None
    assert [e.seq for e in first.written] == [head.seq + 1]
    assert [e.seq for e in written] == [head.seq + 2]
    assert isinstance(refused.error, InvalidInput)
    assert isinstance(stale.error, ConcurrencyConflict)
    assert [e.event().text for e in store.read(CAMPAIGN, after_seq=head.seq)] == ["one", "two"]
    assert_log_is_whole(store)


def test_a_failure_of_the_shared_part_tries_each_command_alone(store: EventStore) -> None:
    head = store.head(CAMPAIGN)
    assert head is not None
    tries: list[str] = []

    def breaks(tx: CampaignTransaction, written: list[Envelope]) -> None:
        tries.append("broken")
        raise OSError("the disk went away")  # after the append: the whole group rolls back

    answers: list[int] = []

    def answer(folded: Folded, written: list[Envelope]) -> None:
        answers.append(written[-1].seq)

    good, broken = order(narrate("kept"), on_done=answer), order(narrate("lost"), on_commit=breaks)
    queued(store, good, broken)
    place(store, CAMPAIGN, order(narrate("also kept")), salted)
    assert tries == ["broken", "broken"]  # in the group, then alone
    assert isinstance(broken.error, OSError)
    texts = [e.event().text for e in store.read(CAMPAIGN, after_seq=head.seq)]
    assert texts == ["kept", "also kept"]
    assert answers == [head.seq + 1, head.seq + 1]  # built again when tried alone
    assert_log_is_whole(store)


def test_many_threads_on_one_campaign_each_land_once(store: EventStore) -> None:
    head = store.head(CAMPAIGN)
    assert head is not None
    errors: list[BaseException] = []

    def writer(number: int) -> None:
        try:
            for i in range(25):
                execute(store, CAMPAIGN, narrate(f"{number}.{i}"))
        except TablelogError as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    texts = [e.event().text for e in store.read(CAMPAIGN, after_seq=head.seq)]
    assert sorted(texts) == sorted(f"{n}.{i}" for n in range(8) for i in range(25))
    for n in range(8):  # each thread's commands in the order it sent them
        mine = [t for t in texts if t.startswith(f"{n}.")]
        assert mine == [f"{n}.{i}" for i in range(25)]
    assert_log_is_whole(store)


def test_orders_queued_without_a_thread_beside_blocking_writers_each_land_and_are_told_once(
    store: EventStore,
) -> None:
    """`place_soon` (the service's event loop) beside `place` (threads that block): every
    order lands once, each queued one is told once, and the campaign's writer stops only
    when nothing waits."""
    head = store.head(CAMPAIGN)
    assert head is not None
    told: list[Order] = []
    told_lock = threading.Lock()

    def tell(settled: Order) -> None:
        with told_lock:
            told.append(settled)

    blocking_errors: list[BaseException] = []

    def blocking(number: int) -> None:
        try:
            for i in range(20):
                execute(store, CAMPAIGN, narrate(f"b{number}.{i}"))
        except TablelogError as exc:  # pragma: no cover - reported below
            blocking_errors.append(exc)

    soon = [order(narrate(f"q{i}"), on_settled=tell) for i in range(150)]
    with ThreadPoolExecutor(4) as writers:
        threads = [threading.Thread(target=blocking, args=(n,)) for n in range(3)]
        for thread in threads:
            thread.start()
        for queued_order in soon:
            place_soon(store, CAMPAIGN, queued_order, salted, writers.submit)
        for thread in threads:
            thread.join(timeout=120)
        deadline = time.monotonic() + 60
        while len(told) < len(soon) and time.monotonic() < deadline:
            time.sleep(0.01)
    assert not blocking_errors
    assert sorted(id(o) for o in told) == sorted(id(o) for o in soon)  # each told, once
    assert all(o.settled and o.error is None for o in soon)
    texts = [e.event().text for e in store.read(CAMPAIGN, after_seq=head.seq)]
    expected = [f"q{i}" for i in range(150)] + [f"b{n}.{i}" for n in range(3) for i in range(20)]
    assert sorted(texts) == sorted(expected)
    assert [t for t in texts if t.startswith("q")] == [f"q{i}" for i in range(150)]  # in order
    entry = state.entry_for(store, CAMPAIGN)
    assert not entry.waiting
    assert not entry.draining
    assert_log_is_whole(store)


def test_an_order_whose_writer_cannot_start_is_not_left_queued(store: EventStore) -> None:
    head = store.head(CAMPAIGN)
    assert head is not None

    def no_thread(_work: Any) -> None:
        raise RuntimeError("cannot schedule new futures after shutdown")

    stranded = order(narrate("never"), on_settled=lambda _o: None)
    with pytest.raises(RuntimeError):
        place_soon(store, CAMPAIGN, stranded, salted, no_thread)
    entry = state.entry_for(store, CAMPAIGN)
    assert not entry.waiting
    assert not entry.draining
    told: list[Order] = []
    with ThreadPoolExecutor(1) as writers:
        later = order(narrate("later"), on_settled=told.append)
        place_soon(store, CAMPAIGN, later, salted, writers.submit)
        deadline = time.monotonic() + 30
        while not told and time.monotonic() < deadline:
            time.sleep(0.01)
    assert told == [later]
    assert [e.event().text for e in store.read(CAMPAIGN, after_seq=head.seq)] == ["later"]
