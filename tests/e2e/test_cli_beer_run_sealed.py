"""End-to-end, locally: a Beer Run round with sealed pools. `pool` seals on this machine
(only the commitment is written to the log), `unseal` opens once every pool is in, the
round plays on, and the audit says the seals held."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from tests.e2e.transcript import ok, refused, run


def test_a_round_with_sealed_pools(tmp_path: Path) -> None:
    env = {"TABLELOG_SEALED": str(tmp_path / "sealed")}

    def tl(*args: str) -> str:
        return ok(run(tmp_path, *args, env=env))

    tl(
        *("campaign", "create", "pub", "--ruleset", "beer-run"),
        *("--option", "sealed_plays=true", "--option", "dice=recorded"),
    )
    tl(
        *("beer-run", "character", "ann", "Alice", "-a", "Body:Body:d8", "-a", "Mind:Mind:d6"),
        *("-a", "Kit:Kit:d4", "-a", "Brawl:Body:d10"),
    )
    tl(
        *("beer-run", "character", "gm", "Bob", "-a", "Body:Body:d8", "-a", "Resolve:Mind:d6"),
        *("-a", "Kit:Kit:d6"),
    )
    tl("beer-run", "open", "--side", "a=alice", "--side", "b=bob")
    tl("beer-run", "goal", "c1", "alice", "Bob backs down", "--ability", "resolve")
    tl("beer-run", "goal", "c1", "bob", "Alice is beaten")
    tl("beer-run", "pool", "c1", "alice", "Body", "Mind", "Kit", "--extra", "Brawl")
    with closing(sqlite3.connect(tmp_path / "tablelog.db")) as conn, conn:
        types = [r[0] for r in conn.execute("SELECT type FROM events")]
    assert types[-1] == "br.pool_sealed"
    early = refused(run(tmp_path, "beer-run", "unseal", "c1", env=env))
    assert early.startswith("open-too-early: ")
    tl("beer-run", "pool", "c1", "bob", "Body", "Resolve", "Kit")
    tl("beer-run", "unseal", "c1")  # this machine keeps both: both are opened
    tl("beer-run", "roll", "c1", "alice", "7", "5", "3", "2")
    tl("beer-run", "roll", "c1", "bob", "7", "4", "6")
    shown = tl("beer-run", "show", "c1")
    assert "upper hand" in shown.lower()
    assert "sealed: held" in tl("audit")
