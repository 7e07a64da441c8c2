"""A service's SQLite file is checkpointed by a thread of its own, never inside a commit: the
writers' automatic checkpoints are off, the log still reaches the database file, and
nothing is lost when the store closes."""

from __future__ import annotations

import time
from pathlib import Path

from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.rules.common import EndScene, StartScene, StartSession
from tablelog.rulesets.improv.rules.commands import CreateCharacter
from tablelog.storage import open_store
from tablelog.storage.verify import verify_log


def test_the_checkpointer_copies_the_log_and_commits_do_not(tmp_path: Path) -> None:
    db = tmp_path / "service.db"
    store = open_store(str(db), create=True)
    create_campaign(store, "heist", ruleset="improv")
    execute(store, "heist", CreateCharacter(player="bob", character="Kit", talents=[]))
    execute(store, "heist", StartSession())
    store.checkpoint_in_background()
    with store.transaction("heist") as tx:  # a writer of the service's
        autocheckpoint = tx.connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
    assert autocheckpoint == 0
    size = db.stat().st_size  # the database file, without what waits in the log
    for _ in range(300):
        execute(store, "heist", StartScene(title="on"))
        execute(store, "heist", EndScene())
    wal = Path(f"{db}-wal").stat().st_size
    assert wal > 1000 * 4096  # the log grew past where a commit would have checkpointed it
    deadline = time.monotonic() + 10
    while db.stat().st_size == size and time.monotonic() < deadline:  # the thread's round
        time.sleep(0.05)
    assert db.stat().st_size > size  # the thread copied the log into the file
    head = store.head("heist")
    store.close()
    reopened = open_store(str(db))
    try:
        assert reopened.head("heist") == head
        assert verify_log(reopened).ok
    finally:
        reopened.close()


def test_a_one_shot_process_keeps_sqlites_own_checkpoints(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "cli.db"), create=True)
    try:
        create_campaign(store, "heist", ruleset="improv")
        with store.transaction("heist") as tx:
            autocheckpoint = tx.connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        assert autocheckpoint == 1000
    finally:
        store.close()
