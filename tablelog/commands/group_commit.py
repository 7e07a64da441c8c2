"""Commands for one campaign written together: several in one transaction, one durable commit.

A command's cost is mostly its campaign's lock: everything from BEGIN to the commit's fsync
happens while every other command of the campaign waits (bench/service.py). So the commands
that queue for a campaign while one is being written go in the next transaction together,
each decided on the state its predecessors in that transaction left, each appended after
them; then one commit makes all of them durable, and only then is any of them answered. A
command that is refused (a rule, its If-Match) is refused alone and writes nothing; should
the shared part fail (the database, a commit), each command of the group is tried again on
its own, so none is refused for another's sake.

One process at a time writes a campaign's group (the entry's lock, then the database's);
with a single command waiting, as from the CLI, this is the plain append algorithm.

Two ways in: `place` writes from the caller's thread and returns the events (the CLI, any
blocking caller); `place_soon` only queues, for a caller that waits without a thread of its
own (the service's event loop): a writer thread is started when none is on its way, writes
until nothing waits, and tells each order's `on_settled`. A service's command then costs no
thread of its own waiting on the campaign's lock, and no wake-up of one after each group.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tablelog.commands import awaits, rng_answer, rng_flow, state
from tablelog.commands.access import Caller
from tablelog.commands.outbox import Outbox
from tablelog.errors import RuleViolation, StorageError
from tablelog.events.envelope import Envelope, Pending
from tablelog.projections.fold import Folded
from tablelog.rules import registry
from tablelog.rules.common import Command
from tablelog.rules.rng_commands import RNG_COMMANDS
from tablelog.storage import CampaignTransaction, EventStore

OnCommit = Callable[[CampaignTransaction, list[Envelope]], None]
OnBegin = Callable[[CampaignTransaction], None]
OnDone = Callable[[Folded, list[Envelope]], None]
OnSettled = Callable[["Order"], object]
Submit = Callable[[Callable[[], None]], object]
Salt = Callable[[Any], Any]

MAX_GROUP = 64  # commands in one transaction: a bound on what one failure makes run again


@dataclass(eq=False)
class Order:
    """One command waiting to be written, and then its outcome."""

    command: Command
    ruleset: str | None
    actor: str | None
    expected_seq: int | None
    shuffle: Any
    caller: Caller | None
    on_begin: OnBegin | None
    on_commit: OnCommit | None
    on_done: OnDone | None
    # The command draws from `secrets` (not a shuffle a test or a what-if chose): in a
    # campaign of committed shuffles its randomness waits for the players (rng_flow.py).
    committable: bool = False
    # Told (in the writing thread) once the order is settled: `place_soon`'s caller.
    on_settled: OnSettled | None = None
    written: list[Envelope] | None = None
    error: BaseException | None = None
    settled: bool = False

    def outcome(self) -> list[Envelope]:
        if self.error is not None:
            raise self.error
        assert self.written is not None
        return self.written


def place(store: EventStore, campaign: str, order: Order, salt: Salt) -> list[Envelope]:
    """Write `order`, in a group with whatever else waits for the campaign; its events."""
    entry = state.entry_for(store, campaign)
    entry.waiting.append(order)
    with entry.lock:
        # Whoever holds the lock writes everything waiting; this order may already be done.
        while not order.settled:
            group: list[Order] = []
            while entry.waiting and len(group) < MAX_GROUP:
                group.append(entry.waiting.popleft())
            try:
                _write(store, campaign, entry, group, salt)
            finally:  # interrupted (Ctrl-C): no order may wait for an answer that never comes
                for stranded in group:
                    if not stranded.settled:
                        _settle(stranded, error=StorageError("the write was interrupted"))
    return order.outcome()


def place_soon(store: EventStore, campaign: str, order: Order, salt: Salt, submit: Submit) -> None:
    """Queue `order` (with an `on_settled`) and return at once; `submit` runs a writer in a
    thread when none is on its way for the campaign."""
    entry = state.entry_for(store, campaign)
    with entry.queued:
        entry.waiting.append(order)
        start, entry.draining = not entry.draining, True
    if start:
        try:
            submit(lambda: _drain(store, campaign, entry, salt))
        except BaseException:  # no thread to be had (the service is stopping): not queued
            with entry.queued:
                entry.draining = False
                with contextlib.suppress(ValueError):
                    entry.waiting.remove(order)
            raise


def _drain(store: EventStore, campaign: str, entry: state.Entry, salt: Salt) -> None:
    """Write what waits for the campaign, in groups, until nothing does. (A thread of
    `place` may have written some of it meanwhile: it tells them as this would.)"""
    while True:
        with entry.lock:
            while entry.waiting:
                group = [entry.waiting.popleft() for _ in range(min(MAX_GROUP, len(entry.waiting)))]
                try:
                    _write(store, campaign, entry, group, salt)
                finally:  # no order may wait for an answer that never comes
                    for stranded in group:
                        if not stranded.settled:
                            _settle(stranded, error=StorageError("the write was interrupted"))
        with entry.queued:  # an order queued after the last look starts no writer: look again
            if not entry.waiting:
                entry.draining = False
                return


def _write(
    store: EventStore, campaign: str, entry: state.Entry, group: list[Order], salt: Salt
) -> None:
    try:
        _write_together(store, campaign, entry, group, salt)
    except Exception as exc:
        entry.folded = entry.awaits = None  # they may hold events that were never committed
        if len(group) == 1:
            _settle(group[0], error=exc)
            return
        for order in group:
            _write(store, campaign, entry, [order], salt)


def _write_together(
    store: EventStore, campaign: str, entry: state.Entry, group: Sequence[Order], salt: Salt
) -> None:
    """One transaction for the whole group: each order decided and appended in turn."""
    done: list[tuple[Order, list[Envelope]]] = []
    refused: list[tuple[Order, Exception]] = []
    with store.transaction(campaign) as tx:
        folded = state.load_locked(entry, tx)
        if entry.committed_rng is None:
            entry.committed_rng = rng_flow.setting(tx).committed_rng
        posts = Outbox(tx)  # webhooks' posts, queued with the events they post
        if posts.turns.live:  # someone may be told: the steps each command begins are needed
            state.track_locked(entry, tx, folded)
        for order in group:
            try:
                pending = _decided(tx, folded, order, salt, committed=entry.committed_rng)
            except Exception as exc:  # the order's own refusal: nothing of it is written
                refused.append((order, exc))
                continue
            open_before = posts.open_conflicts(folded)
            written = tx.append(pending, fresh_ids=True).events
            if written:
                # The next order decides on the state after these.
                begun = awaits.moved_on(entry, folded, written, one_command=True)
                if entry.committed_rng:
                    more, also = _reveals(tx, entry, folded, written)
                    written, begun = written + more, begun + also
                entry.hash = written[-1].hash
                posts.after(folded, open_before, written, begun)
            if order.on_commit is not None:
                order.on_commit(tx, written)
            if order.on_done is not None:
                order.on_done(folded, written)  # kept by the caller only once committed
            done.append((order, written))
        saved = state.snapshot_due(entry, tx, folded)
    if saved is not None:
        entry.saved = saved
    for order, written in done:
        _settle(order, written=written)
    for order, error in refused:
        _settle(order, error=error)


def _reveals(
    tx: CampaignTransaction, entry: state.Entry, folded: Folded, written: list[Envelope]
) -> tuple[list[Envelope], list[awaits.Since]]:
    """The seeds these events make due for reveal (rng_flow.py), appended after them, and
    the steps they began."""
    due = rng_flow.reveals_due(tx, folded, written)
    if not due:
        return [], []
    more = tx.append(_pending(folded, due), fresh_ids=True).events
    return more, awaits.moved_on(entry, folded, more, one_command=True)


def _decided(
    tx: CampaignTransaction, folded: Folded, order: Order, salt: Salt, *, committed: bool
) -> list[Pending]:
    """What `order` appends on this state, or the exception that refuses it."""
    if order.on_begin is not None:
        order.on_begin(tx)
    if isinstance(order.command, RNG_COMMANDS):
        tx.require_seq(order.expected_seq)
        return _pending(folded, rng_answer.answer(tx, folded, order.command, order.caller, salt))
    rules = folded.ruleset
    if not rules.takes(order.command) or order.ruleset not in (None, rules.name):
        meant = order.ruleset or registry.owner_of(order.command) or "other rulesets'"
        raise RuleViolation(
            f"campaign {folded.campaign} plays {rules.name}; {meant} commands do not apply to it",
            code="wrong-ruleset",
        )
    tx.require_seq(order.expected_seq)
    by = order.actor
    if order.caller is not None:
        folded.ruleset.authorize(
            folded.state, order.command, order.caller.player, order.caller.role
        )
        by = by or order.caller.player
    if committed and order.committable:
        return _pending(folded, rng_flow.decide(tx, folded, order.command, by, salt))
    events = folded.ruleset.decide(folded.state, order.command, order.shuffle)
    return _pending(folded, [(salt(e), by) for e in events])


def _pending(folded: Folded, acted: rng_flow.Acted) -> list[Pending]:
    return [
        Pending.of(
            event,
            actor=by or folded.ruleset.actor(folded.state, event),
            event_id=str(uuid.uuid4()),
        )
        for event, by in acted
    ]


def _settle(
    order: Order, *, written: list[Envelope] | None = None, error: BaseException | None = None
) -> None:
    order.written, order.error, order.settled = written, error, True
    if order.on_settled is not None:
        order.on_settled(order)
