"""The storage contract, written once and run on a SQLite file and on PostgreSQL.

Each test reads like a transcript: given a campaign and some events, when an append or a
tampering happens, then these rows, this head, or this error.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from sqlalchemy import delete, select, update

from tablelog.commands import database
from tablelog.commands.campaigns import create_campaign
from tablelog.errors import (
    AlreadyExists,
    ConcurrencyConflict,
    DamagedDatabase,
    DuplicateEventId,
    NotFound,
)
from tablelog.events.chain import GENESIS, event_hash
from tablelog.storage import EventStore, open_store
from tablelog.storage.schema import campaigns, events
from tablelog.storage.verify import verify_log
from tests.support.events import Tick, tick

REPO = Path(__file__).resolve().parents[2]


class StoreContract:
    """Subclasses provide `url`: a fresh, empty database of their backend."""

    @pytest.fixture
    def url(self) -> str:
        raise NotImplementedError

    @pytest.fixture
    def store(self, url: str) -> Iterator[EventStore]:
        database.upgrade(url)
        store = open_store(url)
        yield store
        store.close()

    @pytest.fixture
    def campaign(self, store: EventStore) -> str:
        create_campaign(store, "probe", ruleset="improv")
        return "probe"

    def append_ticks(self, store: EventStore, campaign: str, n: int) -> None:
        for _ in range(n):
            with store.transaction(campaign) as tx:
                tx.append([tick("w", tx.head.seq)])

    # --- appending -------------------------------------------------------------------------

    def test_a_new_campaign_starts_its_chain_at_seq_1(self, store: EventStore) -> None:
        created = create_campaign(store, "Probe", ruleset="improv", gm="Mara")
        first = created.event
        assert (first.campaign, first.seq, first.type, first.actor) == (
            "probe",
            1,
            "campaign.created",
            "mara",
        )
        assert first.prev_hash == GENESIS
        head = store.head("probe")
        assert head is not None
        assert (head.seq, head.hash, head.ruleset) == (1, first.hash, "improv")
        assert store.read("probe") == [first]

    def test_appends_are_gapless_and_chained(self, store: EventStore, campaign: str) -> None:
        self.append_ticks(store, campaign, 5)
        log = store.read(campaign)
        assert [e.seq for e in log] == [1, 2, 3, 4, 5, 6]
        for before, after in itertools.pairwise(log):
            assert after.prev_hash == before.hash
        head = store.head(campaign)
        assert head is not None
        assert (head.seq, head.hash) == (6, log[-1].hash)

    def test_the_hash_covers_every_column_but_position(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 1)
        e = store.read(campaign)[-1]
        assert e.hash == event_hash(
            prev_hash=e.prev_hash,
            campaign=e.campaign,
            seq=e.seq,
            event_id=e.event_id,
            type=e.type,
            schema_version=e.schema_version,
            actor=e.actor,
            recorded_at=e.recorded_at,
            payload=e.payload,
        )

    def test_payload_bytes_come_back_exactly_as_encoded(
        self, store: EventStore, campaign: str
    ) -> None:
        pending = tick('ünïcødé "quoted" \'; DROP TABLE events; --', 0)
        with store.transaction(campaign) as tx:
            tx.append([pending])
        stored = store.read(campaign)[-1]
        assert stored.payload == pending.payload
        assert stored.event() == msgspec.json.decode(pending.payload, type=Tick)

    def test_a_batch_appends_in_one_transaction(self, store: EventStore, campaign: str) -> None:
        with store.transaction(campaign) as tx:
            result = tx.append([tick("a"), tick("b"), tick("c")])
        assert [e.seq for e in result.events] == [2, 3, 4]
        assert [e.actor for e in store.read(campaign, after_seq=1)] == ["a", "b", "c"]

    def test_a_rollback_leaves_no_hole(self, store: EventStore, campaign: str) -> None:
        def decide_then_fail() -> None:
            with store.transaction(campaign) as tx:
                tx.append([tick("lost")])
                raise RuntimeError("the decision failed after the insert")

        with pytest.raises(RuntimeError):
            decide_then_fail()
        assert [e.seq for e in store.read(campaign)] == [1]
        self.append_ticks(store, campaign, 1)
        assert [e.seq for e in store.read(campaign)] == [1, 2]

    # --- idempotency and optimistic concurrency ----------------------------------------------

    def test_a_retry_with_the_same_event_id_returns_the_original(
        self, store: EventStore, campaign: str
    ) -> None:
        pending = tick("w", 1)
        with store.transaction(campaign) as tx:
            first = tx.append([pending])
        with store.transaction(campaign) as tx:
            again = tx.append([pending])
        assert again.replayed
        assert again.events == first.events
        assert [e.seq for e in store.read(campaign)] == [1, 2]

    def test_an_event_id_with_a_different_payload_is_refused(
        self, store: EventStore, campaign: str
    ) -> None:
        event_id = str(uuid.uuid4())
        with store.transaction(campaign) as tx:
            tx.append([tick("w", 1, event_id=event_id)])
        with pytest.raises(DuplicateEventId, match="seq 2"), store.transaction(campaign) as tx:
            tx.append([tick("w", 99, event_id=event_id)])
        assert [e.seq for e in store.read(campaign)] == [1, 2]

    def test_an_event_id_from_another_campaign_is_refused(
        self, store: EventStore, campaign: str
    ) -> None:
        create_campaign(store, "other", ruleset="improv")
        pending = tick("w", 1)
        with store.transaction(campaign) as tx:
            tx.append([pending])
        with pytest.raises(DuplicateEventId), store.transaction("other") as tx:
            tx.append([pending])
        assert [e.seq for e in store.read("other")] == [1]

    def test_a_stale_expected_seq_is_a_concurrency_conflict(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 2)
        with pytest.raises(ConcurrencyConflict) as caught, store.transaction(campaign) as tx:
            tx.append([tick("late")], expected_seq=1)
        assert (caught.value.expected, caught.value.actual) == (1, 3)
        assert caught.value.code == "concurrency-conflict"
        with store.transaction(campaign) as tx:
            result = tx.append([tick("fresh")], expected_seq=3)
        assert result.last_seq == 4

    def test_concurrent_writers_queue_and_decide_inside_the_lock(
        self, url: str, store: EventStore, campaign: str
    ) -> None:
        writers, each = 4, 15
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.integration.appender",
                    url,
                    campaign,
                    f"w{i}",
                    str(each),
                ],
                cwd=REPO,
                env=env,
                stderr=subprocess.PIPE,
            )
            for i in range(writers)
        ]
        for proc in procs:
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err.decode()
        log = store.read(campaign)
        assert [e.seq for e in log] == list(range(1, writers * each + 2))
        ticks = [(e.seq, e.event()) for e in log[1:]]
        assert all(isinstance(t, Tick) and t.seen == seq - 1 for seq, t in ticks)
        assert verify_log(store).ok

    # --- campaigns and reads -----------------------------------------------------------------

    def test_campaign_names_are_unique(self, store: EventStore, campaign: str) -> None:
        with pytest.raises(AlreadyExists):
            create_campaign(store, "PROBE", ruleset="improv")
        assert [c.name for c in store.campaigns()] == ["probe"]

    def test_an_unknown_campaign_cannot_be_written(self, store: EventStore) -> None:
        with pytest.raises(NotFound), store.transaction("nobody"):
            pass

    def test_reads_start_after_a_seq_and_stop_at_another(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 5)
        assert [e.seq for e in store.read(campaign, after_seq=3)] == [4, 5, 6]
        assert [e.seq for e in store.read(campaign, after_seq=1, upto_seq=3)] == [2, 3]

    def test_read_all_walks_every_campaign_in_position_order(
        self, store: EventStore, campaign: str
    ) -> None:
        create_campaign(store, "second", ruleset="improv")
        self.append_ticks(store, campaign, 1)
        self.append_ticks(store, "second", 1)
        assert [(e.campaign, e.seq) for e in store.read_all()] == [
            ("probe", 1),
            ("second", 1),
            ("probe", 2),
            ("second", 2),
        ]

    # --- verify ------------------------------------------------------------------------------

    def tamper(self, store: EventStore, statement: object) -> None:
        with store.engine.begin() as conn:
            conn.execute(statement)  # type: ignore[call-overload]

    def first_bad(self, store: EventStore) -> tuple[str | None, int | None, str]:
        report = verify_log(store)
        assert not report.ok
        assert report.first_bad is not None
        return report.first_bad.campaign, report.first_bad.seq, report.first_bad.reason

    def test_an_intact_log_verifies(self, store: EventStore, campaign: str) -> None:
        self.append_ticks(store, campaign, 3)
        create_campaign(store, "second", ruleset="improv")
        report = verify_log(store)
        assert (report.ok, report.campaigns, report.events, report.first_bad) == (
            True,
            2,
            5,
            None,
        )

    def test_a_changed_payload_byte_is_named(self, store: EventStore, campaign: str) -> None:
        self.append_ticks(store, campaign, 3)
        original = store.read(campaign)[2].payload
        changed = original.replace(b'"seen":2', b'"seen":7')
        assert changed != original
        self.tamper(
            store,
            update(events)
            .where(events.c.campaign_id == campaign, events.c.seq == 3)
            .values(payload=changed),
        )
        assert self.first_bad(store)[:2] == (campaign, 3)

    def test_a_missing_row_is_named(self, store: EventStore, campaign: str) -> None:
        self.append_ticks(store, campaign, 4)
        self.tamper(store, delete(events).where(events.c.seq == 3))
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 3)
        assert "missing" in reason

    def test_a_truncated_tail_disagrees_with_the_head(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 4)
        self.tamper(store, delete(events).where(events.c.seq == 5))
        assert self.first_bad(store)[:2] == (campaign, 5)

    def test_swapped_rows_are_named(self, store: EventStore, campaign: str) -> None:
        self.append_ticks(store, campaign, 4)
        log = store.read(campaign)
        for seq, source in ((3, log[3]), (4, log[2])):
            self.tamper(
                store,
                update(events)
                .where(events.c.campaign_id == campaign, events.c.seq == seq)
                .values(
                    payload=source.payload,
                    hash=source.hash,
                    prev_hash=source.prev_hash,
                    actor=source.actor,
                    event_id=f"swap-{seq}",
                ),
            )
        assert self.first_bad(store)[:2] == (campaign, 3)

    def test_a_forged_row_with_its_own_hash_breaks_the_next_link(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 4)
        forged = store.read(campaign)[2]
        payload = forged.payload.replace(b'"seen":2', b'"seen":9')
        digest = event_hash(
            prev_hash=forged.prev_hash,
            campaign=campaign,
            seq=3,
            event_id=forged.event_id,
            type=forged.type,
            schema_version=forged.schema_version,
            actor=forged.actor,
            recorded_at=forged.recorded_at,
            payload=payload,
        )
        self.tamper(
            store,
            update(events)
            .where(events.c.campaign_id == campaign, events.c.seq == 3)
            .values(payload=payload, hash=digest),
        )
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 4)
        assert "prev_hash" in reason

    def test_an_undecodable_payload_is_a_break_not_a_crash(
        self, store: EventStore, campaign: str
    ) -> None:
        self.rewrite_tail(store, campaign, 2, b"\xff\xfe not json")
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 2)
        assert "cannot be read" in reason

    def test_a_rewritten_tail_is_caught_against_an_exported_head(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 3)
        exported = store.read(campaign)[-1]
        forged = tick("forger", 1).payload
        self.rewrite_tail(store, campaign, 2, forged)
        assert verify_log(store).ok  # a full rewrite with recomputed hashes is self-consistent
        report = verify_log(store, head=(exported.seq, exported.hash))
        assert report.first_bad is not None
        assert report.first_bad.seq == exported.seq
        assert "does not contain head" in report.first_bad.reason

    def test_the_exported_head_of_an_intact_log_is_found(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 2)
        exported = store.read(campaign)[1]
        assert verify_log(store, head=(exported.seq, exported.hash)).ok
        assert not verify_log(store, head=(exported.seq, bytes(32))).ok

    def test_a_ruleset_changed_in_the_campaigns_table_is_named(
        self, store: EventStore, campaign: str
    ) -> None:
        self.tamper(store, update(campaigns).values(ruleset="beer-run"))
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 1)
        assert "beer-run" in reason

    def test_a_campaign_emptied_of_its_events_is_a_break(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 2)
        with store.engine.begin() as conn:
            conn.execute(delete(events).where(events.c.campaign_id == campaign))
            conn.execute(update(campaigns).values(head_seq=0, head_hash=GENESIS))
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 1)
        assert "no events" in reason

    def test_verify_sees_one_snapshot_while_writers_append(
        self, url: str, store: EventStore, campaign: str
    ) -> None:
        # Campaigns sorting before "probe" make the walk reach it well after reading the heads:
        # without one snapshot, the ticks committed meanwhile would contradict its stale head.
        for i in range(15):
            create_campaign(store, f"a{i:02}", ruleset="improv")
            self.append_ticks(store, f"a{i:02}", 3)
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        writers = [
            subprocess.Popen(
                [sys.executable, "-m", "tests.integration.appender", url, campaign, f"w{i}", "40"],
                cwd=REPO,
                env=env,
                stderr=subprocess.PIPE,
            )
            for i in range(2)
        ]
        reports = []
        try:
            # Bounded: at most 200 checks, and only while the writers are still running.
            for _ in range(200):
                reports.append(verify_log(store))
                if all(w.poll() is not None for w in writers):
                    break
        finally:
            for writer in writers:
                _, err = writer.communicate(timeout=300)
                assert writer.returncode == 0, err.decode()
        assert reports
        assert [r.first_bad for r in reports if not r.ok] == []
        assert verify_log(store).events == 81 + 15 * 4

    def rewrite_tail(self, store: EventStore, campaign: str, seq: int, payload: bytes) -> None:
        """Replace event `seq` and drop what follows, recomputing every hash: a clean forgery."""
        self.append_ticks(store, campaign, max(0, seq - len(store.read(campaign))))
        log = store.read(campaign)
        target = log[seq - 1]
        digest = event_hash(
            prev_hash=target.prev_hash,
            campaign=campaign,
            seq=seq,
            event_id=target.event_id,
            type=target.type,
            schema_version=target.schema_version,
            actor=target.actor,
            recorded_at=target.recorded_at,
            payload=payload,
        )
        with store.engine.begin() as conn:
            conn.execute(delete(events).where(events.c.campaign_id == campaign, events.c.seq > seq))
            conn.execute(
                update(events)
                .where(events.c.campaign_id == campaign, events.c.seq == seq)
                .values(payload=payload, hash=digest)
            )
            conn.execute(
                update(campaigns)
                .where(campaigns.c.name == campaign)
                .values(head_seq=seq, head_hash=digest)
            )
            assert conn.execute(select(campaigns.c.head_seq)).scalar() == seq


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def url(self, sqlite_target: str) -> str:
        return sqlite_target

    def test_a_seq_stored_as_text_is_a_break(self, store: EventStore, campaign: str) -> None:
        # SQLite's dynamic typing lets a tampered file hold any type in any column.
        self.append_ticks(store, campaign, 2)
        self.tamper(store, update(events).where(events.c.seq == 2).values(seq="two"))
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 2)
        # Text sorts after numbers in SQLite, so the walk finds seq 2 missing first.
        assert "missing" in reason or "'two'" in reason

    def test_a_hash_stored_as_text_is_a_break(self, store: EventStore, campaign: str) -> None:
        self.append_ticks(store, campaign, 2)
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE events SET hash = 'abc' WHERE seq = 2")
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 2)
        assert "not bytes" in reason

    def test_the_file_is_in_wal_mode_so_readers_never_block_the_writer(
        self, store: EventStore, campaign: str
    ) -> None:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"

    def test_text_that_is_not_utf8_is_a_break_not_a_crash(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 2)
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE events SET actor = CAST(X'FF77' AS TEXT) WHERE seq = 3")
        name, seq, reason = self.first_bad(store)
        assert (name, seq) == (campaign, 3)
        assert "actor is not UTF-8" in reason

    def test_reading_a_damaged_row_is_a_refusal_not_a_crash(
        self, store: EventStore, campaign: str
    ) -> None:
        self.append_ticks(store, campaign, 1)
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE events SET payload = 'text, not bytes' WHERE seq = 2")
        with pytest.raises(DamagedDatabase, match="tablelog verify"):
            store.read(campaign)


@pytest.mark.postgresql
class TestPostgreSQLStore(StoreContract):
    @pytest.fixture
    def url(self, pg_target: str) -> str:
        return pg_target
