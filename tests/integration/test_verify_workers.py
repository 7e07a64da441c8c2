"""`verify` in worker processes finds exactly what the walk in one process finds: the same
counts on an intact log, the same first break (campaign, seq, reason) on a tampered one, on
SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from sqlalchemy import delete, select, update

from tablelog.commands import database
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.events.chain import chained_hash
from tablelog.rules.common import EndScene, StartScene, StartSession
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store, verify_worker, verify_workers
from tablelog.storage.schema import campaigns, events
from tablelog.storage.verify import Report, verify_log
from tablelog.storage.verify_worker import Linked, Part
from tablelog.storage.verify_workers import linked, target_of
from tablelog.workers import read_frame, usable_cpus, write_frame


@pytest.fixture
def store(target: str) -> Iterator[EventStore]:
    database.upgrade(target)
    opened = open_store(target)
    for name in ("alpha", "beta", "gamma"):
        create_campaign(opened, name, ruleset="improv")
        execute(opened, name, c.CreateCharacter(player="bob", character="Kit", talents=[]))
        execute(opened, name, StartSession())
        for _ in range(5):
            execute(opened, name, StartScene(title="on"))
            execute(opened, name, EndScene())
    yield opened
    opened.close()


def both_ways(store: EventStore) -> Report:
    """The report of one walk, which two processes (this one and a worker) and three give
    too: this process takes campaigns from the back, the workers from the front."""
    alone = verify_log(store, workers=1)
    assert verify_log(store, workers=2) == alone
    assert verify_log(store, workers=3) == alone
    return alone


def test_an_intact_log_gives_the_same_report(store: EventStore) -> None:
    report = both_ways(store)
    assert report == verify_log(store)
    stored = sum(len(store.read(name)) for name in ("alpha", "beta", "gamma"))
    assert (report.ok, report.campaigns, report.events) == (True, 3, stored)


@pytest.mark.parametrize("seq", [1, 7])
def test_the_first_break_is_the_one_a_single_walk_meets(store: EventStore, seq: int) -> None:
    # beta breaks at `seq`, gamma at 3: the first break in campaign order is beta's.
    for name, at in (("gamma", 3), ("beta", seq)):
        with store.engine.begin() as conn:
            conn.execute(
                update(events)
                .where(events.c.campaign_id == name, events.c.seq == at)
                .values(actor="mallory")
            )
    report = both_ways(store)
    bad = report.first_bad
    assert bad is not None
    assert (bad.campaign, bad.seq) == ("beta", seq)
    assert "hash" in bad.reason


@pytest.mark.parametrize(
    "script",
    [
        "exit 3",  # starts, and dies before a word
        r"printf '\000\000\000\020ab'",  # answers 2 bytes of a 16-byte result, then dies
        "exec /no/such/python",  # cannot run at all
    ],
    ids=["dies-at-once", "dies-midway", "cannot-run"],
)
def test_a_worker_that_fails_leaves_its_campaigns_to_the_verifier(
    store: EventStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    alone = verify_log(store, workers=1)
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\n{script}\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(fake))
    assert verify_log(store, workers=3) == alone


def test_a_worker_checks_parts_itself(store: EventStore) -> None:
    # Driven as the pool drives it: every part answered as sound, and they link up (a worker
    # that answered nothing would leave the work to the verifier, unseen by the tests above).
    heads = {head.name: head for head in store.campaigns()}
    parts = [part for head in heads.values() for part in _parts(head.name, head.seq, 4)]
    worker = subprocess.Popen(
        [sys.executable, "-P", verify_worker.__file__],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert worker.stdin is not None
    assert worker.stdout is not None
    write_frame(worker.stdin, msgspec.msgpack.encode(target_of(store)))
    for part in parts:
        write_frame(worker.stdin, msgspec.msgpack.encode(part))
    worker.stdin.close()
    answers = [msgspec.msgpack.decode(read_frame(worker.stdout), type=Linked | None) for _ in parts]
    worker.stdout.close()
    assert worker.wait(timeout=30) == 0
    assert None not in answers
    for name, head in heads.items():
        mine = [a for p, a in zip(parts, answers, strict=True) if p.name == name]
        assert len(mine) > 2
        assert linked(mine, head.hash)


def _parts(name: str, seq: int, size: int) -> list[Part]:
    return [
        Part(name, "improv", first, min(first + size - 1, seq), first + size > seq)
        for first in range(1, seq + 1, size)
    ]


def _rechain(store: EventStore, name: str, seq: int, prev: bytes) -> None:
    """Give `name`'s event at `seq` the prev_hash `prev` and rehash it and every event after
    it, moving the head along: the chain then breaks at `seq` alone."""
    with store.engine.begin() as conn:
        rows = conn.execute(
            select(events)
            .where(events.c.campaign_id == name, events.c.seq >= seq)
            .order_by(events.c.seq)
        ).all()
        for row in rows:
            header = tuple(getattr(row, c) for c in HEADER)
            digest = chained_hash(prev, header, row.payload)
            conn.execute(
                update(events)
                .where(events.c.campaign_id == name, events.c.seq == row.seq)
                .values(prev_hash=prev, hash=digest)
            )
            prev = digest
        conn.execute(update(campaigns).where(campaigns.c.name == name).values(head_hash=prev))


HEADER = ("campaign_id", "seq", "event_id", "type", "schema_version", "actor", "recorded_at")


@pytest.mark.parametrize(
    ("tamper", "named"),
    [
        ("link-at-a-part", 7),  # seq 7 and after rehashed onto a wrong prev_hash
        ("payload-at-a-part", 7),
        ("row-gone-at-a-part", 7),
        ("row-after-head", "last"),  # the head left behind the log
        ("head-hash", "last"),
    ],
)
def test_parts_find_the_break_a_single_walk_finds(
    store: EventStore, monkeypatch: pytest.MonkeyPatch, tamper: str, named: int | str
) -> None:
    # Parts of 3 events: beta's seq 7 begins its third part. Each tampering there must be
    # found by the parts (or their links) and named as a single walk names it.
    monkeypatch.setattr(verify_workers, "PART", 3)
    head = store.head("beta")
    assert head is not None
    assert verify_workers.parts_of("beta", "improv", head.seq)[2].first == 7
    at = (events.c.campaign_id == "beta", events.c.seq == 7)
    beta = update(campaigns).where(campaigns.c.name == "beta")
    with store.engine.begin() as conn:
        if tamper == "payload-at-a-part":
            payload = conn.execute(select(events.c.payload).where(*at)).scalar_one()
            conn.execute(update(events).where(*at).values(payload=payload.replace(b"}", b" }")))
        elif tamper == "row-gone-at-a-part":
            conn.execute(delete(events).where(*at))
        elif tamper == "row-after-head":
            conn.execute(beta.values(head_seq=head.seq - 1))
        elif tamper == "head-hash":
            conn.execute(beta.values(head_hash=bytes(32)))
    if tamper == "link-at-a-part":
        _rechain(store, "beta", 7, bytes(range(32)))
    report = both_ways(store)
    bad = report.first_bad
    assert bad is not None
    assert (bad.campaign, bad.seq) == ("beta", head.seq if named == "last" else named)
    assert (report.campaigns, report.events, report.ok) == (2, len(store.read("alpha")), False)


def test_a_small_log_starts_no_worker(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object) -> None:
        raise AssertionError("a worker was started for a small log")

    monkeypatch.setattr(verify_workers.Pool, "__init__", refused)
    assert verify_log(store).ok
    assert verify_workers.workers_for(1000, server=False) == 1
    assert verify_workers.workers_for(10_000_000, server=False) == min(usable_cpus(), 4000)
