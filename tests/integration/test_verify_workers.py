"""`verify` in worker processes finds exactly what the walk in one process finds: the same
counts on an intact log, the same first break (campaign, seq, reason) on a tampered one, on
SQLite and PostgreSQL."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update

from tablelog.commands import database
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.rules.common import EndScene, StartScene, StartSession
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store
from tablelog.storage.schema import events
from tablelog.storage.verify import Report, verify_log


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
