"""The one-row reads the service makes for every request (a token, a head), on a SQLite file:
they run on connections of their own, see every commit at once (no idle connection keeps an
old snapshot), serve many threads, and close with the store."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tablelog.commands import database
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.errors import StorageError
from tablelog.rules.common import EndScene, StartScene, StartSession
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import open_store


def test_reads_see_each_commit_from_many_threads_and_close_with_the_store(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "t.db")
    database.upgrade(path)
    store = open_store(path)
    create_campaign(store, "t", ruleset="improv")
    execute(store, "t", c.CreateCharacter(player="bob", character="Kit", talents=[]))
    execute(store, "t", StartSession())
    other = open_store(path)  # another writer, as a CLI beside the service would be
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            for round_ in range(5):
                before = store.head("t")
                assert before is not None
                execute(other, "t", StartScene(title=f"scene {round_}"))
                execute(other, "t", EndScene())
                heads = list(pool.map(lambda _: store.head("t"), range(32)))
                assert {h.seq for h in heads if h is not None} == {before.seq + 2}
    finally:
        other.close()
        store.close()
    with pytest.raises(StorageError):
        store.head("t")
