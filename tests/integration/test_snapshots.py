"""Snapshots and the per-process state cache: a command never needs the whole log, and yet
the state it decides on is always the fold of the log as it stands.

Each check compares the state a command or a read works on with a fresh fold of every
stored event, on SQLite and PostgreSQL. Snapshots are written every few events here
(`SNAPSHOT_EVERY` is lowered) so a short campaign crosses several.
"""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import select, update

from tablelog.commands import database, state
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.reads import items_of, show
from tablelog.commands.table import campaign_state, execute
from tablelog.projections.fold import fold
from tablelog.projections.views import state_view
from tablelog.rulesets.improv import rules as improv
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store
from tablelog.storage.schema import snapshots

EVERY = 5


@pytest.fixture(autouse=True)
def frequent_snapshots(monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    monkeypatch.setattr(state, "SNAPSHOT_EVERY", EVERY)
    database.upgrade(target)


def scenes(store: EventStore, count: int) -> None:
    """`count` scenes ended and begun again: cheap events that each move the state on."""
    for _ in range(count):
        execute(store, "t", c.EndScene())
        execute(store, "t", c.StartScene(title="again"))


def table(store: EventStore) -> None:
    create_campaign(store, "t", ruleset="improv")
    for player, name in (("bob", "Kit"), ("sue", "Jason")):
        execute(store, "t", c.CreateCharacter(player=player, character=name, talents=[]))
    execute(store, "t", c.StartSession())
    execute(store, "t", c.StartScene())


def fresh_fold(store: EventStore) -> object:
    folded = fold(store.read("t"))
    return state_view(folded, None)


def cached(store: EventStore) -> object:
    return state_view(campaign_state(store, "t"), None)


def snapshot_seqs(store: EventStore) -> list[int]:
    with store.engine.connect() as conn:
        return [row.seq for row in conn.execute(select(snapshots.c.seq))]


def test_commands_write_snapshots_and_every_state_is_the_fold(target: str) -> None:
    store = open_store(target, create=True)
    try:
        table(store)
        scenes(store, 6)
        assert snapshot_seqs(store), "no snapshot written"
        assert cached(store) == fresh_fold(store)
    finally:
        store.close()
    # Another process (a new store, an empty cache) starts from the snapshot and agrees.
    again = open_store(target)
    try:
        snap = again.snapshot("t", improv.RULESET.projection)
        assert snap is not None
        assert 0 < snap.seq < again.read("t")[-1].seq
        assert cached(again) == fresh_fold(again)
        scenes(again, 2)
        assert cached(again) == fresh_fold(again)
    finally:
        again.close()


def test_a_log_moved_on_by_another_writer_is_caught_up(target: str) -> None:
    first, second = open_store(target, create=True), open_store(target)
    try:
        table(first)
        assert cached(first) == fresh_fold(first)
        scenes(second, 3)  # the first store's cached state is now behind
        assert cached(first) == fresh_fold(first)
        scenes(first, 1)
        assert cached(second) == fresh_fold(second)
    finally:
        first.close()
        second.close()


def test_a_snapshot_that_does_not_match_the_log_is_ignored(target: str) -> None:
    store = open_store(target, create=True)
    try:
        table(store)
        scenes(store, 4)
        real = fresh_fold(store)
        seq = plant_wrong_state(store)
        # The planted state is used when its hash is the event's (the cache has teeth)...
        assert read_fresh(target) != real
        # ...and ignored when it claims another history, or when its bytes are damaged.
        with store.engine.begin() as conn:
            conn.execute(update(snapshots).values(hash=b"\x01" * 32))
        assert read_fresh(target) == real
        with store.engine.begin() as conn:
            conn.execute(update(snapshots).values(state=b"\xc1 damaged", hash=_hash(store, seq)))
        assert read_fresh(target) == real
    finally:
        store.close()


def plant_wrong_state(store: EventStore) -> int:
    """Store, as the snapshot at the head, a state the log does not lead to."""
    folded = fold(store.read("t"))
    folded.state.session = 99
    with store.transaction("t") as tx:
        tx.save_snapshot(
            folded.ruleset.projection,
            folded.seq,
            _hash(store, folded.seq),
            folded.ruleset.encode_state(folded.state),
        )
    return folded.seq


def read_fresh(target: str) -> object:
    """The state as a new process reads it (a new store: an empty cache)."""
    fresh = open_store(target)
    try:
        return cached(fresh)
    finally:
        fresh.close()


def test_a_snapshot_of_another_projection_version_is_not_used(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(target, create=True)
    try:
        table(store)
        scenes(store, 4)
        real = fresh_fold(store)
        plant_wrong_state(store)
        assert read_fresh(target) != real
        # A tablelog whose Improv evolve changed (the next projection version) folds the log.
        newer = dataclasses.replace(improv.RULESET, version=improv.RULESET.version + 1)
        monkeypatch.setattr(improv, "RULESET", newer)
        assert read_fresh(target) == real
    finally:
        store.close()


def _hash(store: EventStore, seq: int) -> bytes:
    return next(e.hash for e in store.read("t") if e.seq == seq)


def fight(store: EventStore, key: str, gm_card: str, kit_card: str) -> None:
    """A simple conflict, played out and closed: Kit against a GM stake."""
    execute(store, "t", c.OpenConflict(conflict=key))
    execute(store, "t", c.SetStake(conflict=key, side="goons", text="they win", gm=True))
    execute(store, "t", c.SetStake(conflict=key, side="kit", text="Kit wins", opposes="goons"))
    execute(store, "t", c.PlayCard(conflict=key, side="goons", card=gm_card))
    execute(store, "t", c.PlayCard(conflict=key, side="kit", card=kit_card))
    execute(store, "t", c.Reveal(conflict=key))
    execute(store, "t", c.Close(conflict=key))


def test_closed_conflicts_are_archived_and_show_rebuilds_them_from_the_log(target: str) -> None:
    store = open_store(target, create=True)
    try:
        table(store)
        fight(store, "c1", "5H", "KS")
        whole = show(store, "t", "c1", None)
        summary = cached(store)
        assert len(whole.view["rounds"]) == 1
        assert whole.view["rounds"][0]["plays"]["kit"]["card"] == "KS"
        fight(store, "c2", "QD", "3C")
        scenes(store, 3)  # snapshots after both closes
        kept = campaign_state(store, "t").state
        assert isinstance(kept, improv.ImprovState)
        # c1 is kept as its record, not its plays; c2, closed last, is still whole.
        first, second = kept.archived("c1"), kept.conflicts["c2"]
        assert first is not None
        assert "c1" not in kept.conflicts
        assert "c2" not in kept.archive
        assert (first.played, first.beats) == (1, (("kit", "goons"),))
        assert second.rounds[0].plays
        assert first.closed_at < second.closed_at == len(store.read("t")) - 6
        assert cached(store)["conflicts"]["c1"] == summary["conflicts"]["c1"]
        assert show(store, "t", "c1", None) == whole
        assert cached(store) == fresh_fold(store)
    finally:
        store.close()
    again = open_store(target)  # another process: from the snapshot, then the log
    try:
        assert again.snapshot("t", improv.RULESET.projection) is not None
        assert show(again, "t", "c1", None) == whole
        assert show(again, "t", "c1", "bob").view == whole.view  # all revealed: nothing hidden
        # Nor in the log: another player sees the cards played in the archived conflict.
        lines = [i.line for i in items_of(again, "t", again.read("t"), "sue")]
        assert any('"card":"KS"' in line and '"conflict":"c1"' in line for line in lines)
        assert cached(again) == fresh_fold(again)
    finally:
        again.close()


def test_awaits_kept_beside_a_snapshot_say_what_a_fold_from_the_start_says(
    target: str,
) -> None:
    """A process that tracks whom the table waits on writes the steps, since when each has
    lasted, beside each snapshot; a new process starts from them (not from the first event)
    and says exactly what a fold from the first event says."""
    store = open_store(target)
    try:
        table(store)
        execute(store, "t", c.OpenConflict(conflict="c1", extended=True, rounds=3))
        execute(store, "t", c.SetStake(conflict="c1", side="Riso", gm=True, text="keep the bar"))
        execute(store, "t", c.SetStake(conflict="c1", side="Kit", text="out", opposes="Riso"))
        state.awaited(store, "t")  # from here on this process tracks them
        execute(store, "t", c.PlayCard(conflict="c1", side="Riso", card="5C"))
        scenes(store, 3)  # bob's wait goes on across snapshots
        awaits = [p for (p,) in store_rows(store) if "+awaits@" in p]
        assert awaits, "no awaits were kept beside the snapshots"
    finally:
        store.close()
    later = open_store(target)  # a new store: nothing cached
    try:
        kept = state.awaited(later, "t")
        with state.reading(later, "t") as folded:
            read_after = lambda seq: later.read("t", after_seq=seq)  # noqa: E731
            read_snapshot = lambda name: later.snapshot("t", name)  # noqa: E731
            assert state._tracked_from_snapshot(folded, read_after, read_snapshot) is not None
            _fresh, afresh = state._tracked_afresh(folded, read_after, lambda name: None)
        assert [(s.step, s.seq, s.at) for s in kept] == [
            (s.step, s.seq, s.at) for s in afresh.steps.values()
        ]
        assert [(s.step.player, s.step.character) for s in kept] == [("bob", "Kit")]
    finally:
        later.close()


def store_rows(store: EventStore) -> list[tuple[str]]:
    with store.engine.connect() as conn:
        return [(str(p),) for p in conn.execute(select(snapshots.c.projection)).scalars()]


def test_a_revocation_after_another_writers_appends_leaves_the_cache_true(target: str) -> None:
    """Two processes on one log (two services, or a service and the CLI): one revokes a
    token after the other appended. Its cached state, older than those appends, is not moved
    on past them (it was: a running session vanished from that service's table)."""
    from tablelog.commands import access

    here, there = open_store(target), open_store(target)
    try:
        create_campaign(here, "t", ruleset="improv")
        for player, name in (("bob", "Kit"), ("sue", "Jason")):
            access.invite(here, "t", player)
            execute(here, "t", c.CreateCharacter(player=player, character=name, talents=[]))
        cached(here)  # `here` has the table as it stands now
        execute(there, "t", c.StartSession())  # the other process appends
        assert access.revoke(here, "t", "bob") == 1
        assert cached(here) == fresh_fold(here)
        execute(here, "t", c.StartScene())  # the session `there` started runs here too
    finally:
        here.close()
        there.close()
