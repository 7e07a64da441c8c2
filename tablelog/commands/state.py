"""The state a command or a read works on, without replaying the whole log each time.

Each process keeps, per store and campaign, the folded state at the newest seq it has seen
and the hash of that event; the next command reads only the events after it (checking that
the first one chains onto that hash, so a log changed behind its back is folded afresh). A
process that has not seen the campaign starts from its newest snapshot: the state encoded by
the ruleset every `SNAPSHOT_EVERY` events, in the append transaction, keyed by the
ruleset's projection version (a snapshot of another version, or of a history the log no longer
holds, is ignored). Snapshots are a cache: the audit, replay, export and verify read events.

The cached state is shared, so it is only ever touched with its entry's lock held: writers
hold it for the whole transaction (they queue on the database lock anyway), readers while
they build their view (`reading`).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tablelog import __version__
from tablelog.commands.awaits import Since, Tracked, moved_on, track_from_start
from tablelog.errors import NotFound, StorageError
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import Folded, fold, fold_onto
from tablelog.rules import registry
from tablelog.storage import CampaignTransaction, EventStore
from tablelog.storage.store import CampaignHead, Snapshot

SNAPSHOT_EVERY = 200
_CAMPAIGNS_KEPT = 64


@dataclass
class Entry:
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Commands waiting for the lock; its holder writes them as a group (group_commit.py).
    waiting: deque[Any] = field(default_factory=deque)
    # A writer thread is on its way for the commands queued without a thread of their own
    # (`group_commit.place_soon`); `queued` guards it with their appends.
    draining: bool = False
    queued: threading.Lock = field(default_factory=threading.Lock)
    folded: Folded | None = None
    hash: bytes = b""  # the hash of the event at folded.seq
    committed_rng: bool | None = None  # the campaign's shuffles are committed (None: unread)
    saved: int = -1  # the seq of the stored snapshot, as far as this process knows (-1: unknown)
    # Views built from the state, per viewer, with the (seq, hash) they were built at: the
    # service's readers mostly ask again before anything moves (see `kept_view`).
    views: dict[str | None, tuple[int, bytes, Any]] = field(default_factory=dict)
    # Since when the table waits on each step (awaits.py): None until someone asks.
    awaits: Tracked | None = None
    # The players' texts holding a direction control, as of a seq (commands/page.py's
    # `campaign_texts`): None until a page asks.
    directed: tuple[int, frozenset[str]] | None = None


class _Cache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, Entry] = OrderedDict()

    def entry(self, campaign: str) -> Entry:
        with self._lock:
            found = self._entries.get(campaign)
            if found is None:
                found = self._entries[campaign] = Entry()
                if len(self._entries) > _CAMPAIGNS_KEPT:
                    self._entries.popitem(last=False)
            else:
                self._entries.move_to_end(campaign)
            return found


_CACHES: weakref.WeakKeyDictionary[EventStore, _Cache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def _entry(store: EventStore, campaign: str) -> Entry:
    with _CACHES_LOCK:
        cache = _CACHES.get(store)
        if cache is None:
            cache = _CACHES[store] = _Cache()
    return cache.entry(campaign)


ReadAfter = Callable[[int], Sequence[Envelope]]
ReadSnapshot = Callable[[str], Snapshot | None]


def _load(
    entry: Entry, head: CampaignHead, read_after: ReadAfter, read_snapshot: ReadSnapshot
) -> Folded:
    """Bring the entry to `head` and return its state (the entry's lock is held)."""
    folded = entry.folded
    if folded is not None and (
        folded.seq > head.seq or (folded.seq == head.seq and entry.hash != head.hash)
    ):
        folded = None  # the log is not the one this state was folded from
    if folded is not None and folded.seq < head.seq:
        newer = read_after(folded.seq)
        if not newer or newer[0].prev_hash != entry.hash:
            folded = None
        else:
            moved_on(entry, folded, newer)
            entry.hash = newer[-1].hash
    if folded is None:
        entry.awaits = None
        folded = _from_snapshot(entry, head, read_after, read_snapshot)
    entry.folded = folded
    return folded


def _snapshot_onto(
    campaign: str, rules: registry.Ruleset[Any], snap: Snapshot | None, read_after: ReadAfter
) -> tuple[Folded, bytes] | None:
    """The state from `snap` moved on by the events after it, with the hash of the last
    event folded; None when there is no snapshot, it cannot be read, or the events after it
    do not chain onto it (the log is the truth)."""
    if snap is None:
        return None
    try:
        folded = Folded(campaign, rules, rules.decode_state(snap.state), snap.seq)
    except ValueError:
        return None
    newer = read_after(snap.seq)
    if newer and newer[0].prev_hash != snap.hash:
        return None
    fold_onto(folded, newer)
    return folded, newer[-1].hash if newer else snap.hash


def _from_snapshot(
    entry: Entry, head: CampaignHead, read_after: ReadAfter, read_snapshot: ReadSnapshot
) -> Folded:
    rules = registry.get(head.ruleset)
    snap = read_snapshot(rules.projection)
    usable = snap if snap is not None and snap.seq <= head.seq else None
    loaded = _snapshot_onto(head.name, rules, usable, read_after)
    if loaded is not None and usable is not None:
        folded, entry.hash = loaded
        entry.saved = usable.seq
        return folded
    envelopes = read_after(0)
    if not envelopes:
        raise StorageError("the campaign has no events; `tablelog verify` checks the log")
    folded = fold(envelopes)
    entry.hash = envelopes[-1].hash
    entry.saved = snap.seq if snap is not None else 0
    return folded


def entry_for(store: EventStore, campaign: str) -> Entry:
    """The campaign's cache entry; hold its lock around `load_locked` ... `advance`."""
    return _entry(store, campaign)


def load_locked(entry: Entry, tx: CampaignTransaction) -> Folded:
    """The state at the transaction's locked head (entry lock held)."""
    return _load(entry, tx.head, lambda seq: list(tx.events(seq)), tx.snapshot)


def track_locked(entry: Entry, tx: CampaignTransaction, folded: Folded) -> None:
    """Make the awaits of `folded` (the transaction's state, entry lock held) live, folding
    the campaign afresh from the transaction's events as `tracked` does from the store: a
    command's append then knows the steps it began (turn notices need them)."""
    if entry.awaits is not None and entry.awaits.seq == folded.seq:
        return
    fresh, entry.awaits = _tracked_afresh(folded, lambda seq: list(tx.events(seq)), tx.snapshot)
    folded.state, folded.seq = fresh.state, fresh.seq


def snapshot_due(entry: Entry, tx: CampaignTransaction, folded: Folded) -> int | None:
    """Write the state `folded` (at the head before this append) as the campaign's snapshot
    when enough events have passed since the last one; the seq written, or None."""
    if entry.saved < 0:
        stored = tx.snapshot(folded.ruleset.projection)
        entry.saved = stored.seq if stored is not None else 0
    if folded.seq - entry.saved < SNAPSHOT_EVERY:
        return None
    tx.save_snapshot(
        folded.ruleset.projection, folded.seq, entry.hash, folded.ruleset.encode_state(folded.state)
    )
    if entry.awaits is not None and entry.awaits.seq == folded.seq:
        # Beside it, since when each step has lasted: a new process need not fold it all.
        tx.save_snapshot(awaits_projection(folded), folded.seq, entry.hash, entry.awaits.encode())
    return folded.seq


def advance(entry: Entry, written: Sequence[Envelope], saved: int | None) -> None:
    """After the commit: fold what was appended into the cached state, if that state is
    the one it was appended onto. A writer that did not load it (an append beside the
    table, a revocation) may have written after events of another service or of the CLI
    that it never folded: then the cache is dropped, and the next read folds afresh."""
    if saved is not None:
        entry.saved = saved
    if written and entry.folded is not None:
        if written[0].prev_hash != entry.hash or written[0].seq != entry.folded.seq + 1:
            entry.folded, entry.awaits = None, None
            return
        moved_on(entry, entry.folded, written)
        entry.hash = written[-1].hash


@contextmanager
def reading(
    store: EventStore, campaign: str, *, head: CampaignHead | None = None
) -> Iterator[Folded]:
    """The campaign's state now, valid inside the block only (it is shared and moves on).

    `head`, when given, was just read (the service reads it with the caller's token)."""
    entry = _entry(store, campaign)
    with entry.lock:
        if head is None or (entry.folded is not None and entry.folded.seq > head.seq):
            # Read with the lock held: a head read before it, with a writer finishing in
            # between, would be older than the cached state, which would be thrown away.
            head = store.head(campaign)
        if head is None:
            raise NotFound(f"campaign {campaign!r} does not exist in {store.label}")
        yield _load(
            entry,
            head,
            lambda seq: store.read(campaign, after_seq=seq, upto_seq=head.seq),
            lambda projection: store.snapshot(campaign, projection, upto_seq=head.seq),
        )


def kept_view(
    store: EventStore,
    campaign: str,
    viewer: str | None,
    head: CampaignHead | None,
    build: Callable[[Folded, str | None], Any],
) -> Any:
    """`build(state, viewer)` of the campaign's state now; the one built before when the head
    has not moved since (`head`, just read, says so without taking the entry's lock). What
    is returned is shared: callers must not change it."""
    entry = _entry(store, campaign)
    kept = entry.views.get(viewer)
    if head is not None and kept is not None and (kept[0], kept[1]) == (head.seq, head.hash):
        return kept[2]
    with reading(store, campaign, head=head) as folded:
        view = build(folded, viewer)
        entry.views[viewer] = (folded.seq, entry.hash, view)
    return view


def state_at(store: EventStore, campaign: str, at: int) -> Folded:
    """The campaign's state as of seq `at`: from the newest snapshot at or before it, or from
    the first event (a private copy: the caller may keep it)."""
    head = store.head(campaign)
    if head is None:
        raise NotFound(f"campaign {campaign!r} does not exist in {store.label}")
    rules = registry.get(head.ruleset)
    snap = store.snapshot(campaign, rules.projection, upto_seq=at)
    loaded = _snapshot_onto(
        campaign, rules, snap, lambda seq: store.read(campaign, after_seq=seq, upto_seq=at)
    )
    return loaded[0] if loaded is not None else fold(store.stream(campaign, upto_seq=at))


def awaited(store: EventStore, campaign: str, *, head: CampaignHead | None = None) -> list[Since]:
    """The steps the table waits on now, each with the event after which it began."""
    with reading(store, campaign, head=head) as folded:
        return list(tracked(store, folded).steps.values())


def tracked(store: EventStore, folded: Folded) -> Tracked:
    """The awaits of the state `folded` (inside `reading`: the entry's lock is held).

    The first ask in a process folds the campaign afresh, working the steps out after every
    event (awaits.py); from then on the cache keeps them moving with the state."""
    entry = _entry(store, folded.campaign)
    found = entry.awaits
    if found is None or found.seq != folded.seq:
        campaign, upto = folded.campaign, folded.seq
        fresh, found = _tracked_afresh(
            folded,
            lambda seq: store.read(campaign, after_seq=seq, upto_seq=upto),
            lambda projection: store.snapshot(campaign, projection, upto_seq=upto),
        )
        entry.awaits = found
        # The fresh state is the same as the cached one: keep one, so both move on together.
        folded.state, folded.seq = fresh.state, fresh.seq
    return found


def awaits_projection(folded: Folded) -> str:
    """The snapshot key of the awaits beside the state's: the steps' words are tablelog's, so
    another version of it starts afresh rather than carry over words it would not say."""
    return f"{folded.ruleset.projection}+awaits@{__version__}"


def _tracked_afresh(
    folded: Folded, read_after: ReadAfter, read_snapshot: ReadSnapshot
) -> tuple[Folded, Tracked]:
    """The state `folded` is at, again, with its awaits: from the snapshots kept together
    when they chain onto the log, else from the first event."""
    kept = _tracked_from_snapshot(folded, read_after, read_snapshot)
    if kept is not None:
        return kept
    envelopes = read_after(0)
    fresh = fold(envelopes[:1])
    return fresh, track_from_start(fresh, envelopes)


def _tracked_from_snapshot(
    folded: Folded, read_after: ReadAfter, read_snapshot: ReadSnapshot
) -> tuple[Folded, Tracked] | None:
    """The state and its awaits from the snapshots written together, moved on by the events
    after them; None when there are none, or they do not chain onto the log now."""
    rules, campaign = folded.ruleset, folded.campaign
    snap, kept = read_snapshot(rules.projection), read_snapshot(awaits_projection(folded))
    if snap is None or kept is None or (snap.seq, snap.hash) != (kept.seq, kept.hash):
        return None
    if snap.seq > folded.seq:
        return None
    try:
        fresh = Folded(campaign, rules, rules.decode_state(snap.state), snap.seq)
        found = Tracked.decode(kept.state)
    except ValueError:
        return None
    newer = [e for e in read_after(snap.seq) if e.seq <= folded.seq]
    if (newer and newer[0].prev_hash != snap.hash) or found.seq != snap.seq:
        return None
    holder = _Holder(found)
    moved_on(holder, fresh, newer)
    return (fresh, found) if holder.awaits is found and found.seq == folded.seq else None


@dataclass
class _Holder:
    awaits: Tracked | None
