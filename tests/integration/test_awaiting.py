"""Whom the table waits on, for a ruleset tablelog has never seen (the toy duel: awaiting
worked out from its contract alone), on both backends: `state --json`'s `awaiting` with since
when, the same from a fresh process (folded afresh) as from the service's warm cache (moved
on event by event, other writers' events included), and `tablelog waiting` across campaigns,
oldest first, locally and through the service."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from tests.support.cli_runner import run_tablelog
from tests.support.server import running_service


def tl(cwd: Path, target: str, *args: str) -> str:
    where = [] if "--server" in args else ["--db", target]
    done = run_tablelog([*where, *args], cwd=cwd)  # in this process: tests/support/cli_runner.py
    assert "Traceback" not in done.stderr, (args, done.stderr)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def steps(view: dict[str, Any]) -> list[tuple[str, str, str | None, int]]:
    return [(s["player"], s["what"], s["conflict"], s["since_seq"]) for s in view["awaiting"]]


def test_the_duel_waits_on_each_player_then_the_gm(tmp_path: Path, target: str) -> None:
    def state() -> dict[str, Any]:
        found: dict[str, Any] = json.loads(tl(tmp_path, target, "state", "--json", "-c", "x"))
        return found

    tl(tmp_path, target, "db", "upgrade")
    tl(tmp_path, target, "campaign", "create", "x", "--ruleset", "duel", "--gm", "gina")
    for who in ("ann", "bob"):
        tl(tmp_path, target, "invite", who, "-c", "x")
    tl(tmp_path, target, "session", "start", "-c", "x")
    assert state()["awaiting"] == []  # no duel open: nobody to wait on
    tl(tmp_path, target, "duel", "open", "ann", "bob", "-c", "x")
    opened = state()["seq"]
    assert steps(state()) == [
        ("ann", "play this card", "c1", opened),
        ("bob", "play this card", "c1", opened),
    ]
    tl(tmp_path, target, "duel", "play", "c1", "ann", "9", "-c", "x")
    now = state()
    # bob has been awaited since the duel opened, not since ann's card: his wait goes on.
    assert steps(now) == [("bob", "play this card", "c1", opened)]
    assert now["awaiting"][0]["gm"] is False
    assert now["awaiting"][0]["since"].endswith("Z")
    assert all("9" not in s["what"] for s in now["awaiting"])  # no card in a step
    tl(tmp_path, target, "duel", "play", "c1", "bob", "4", "-c", "x")
    both = state()["seq"]
    assert steps(state()) == [("gina", "reveal", "c1", both)]
    assert state()["awaiting"][0]["gm"] is True
    text = tl(tmp_path, target, "state", "-c", "x")
    assert "waiting on gina (GM): reveal in c1, since " in text
    tl(tmp_path, target, "duel", "reveal", "c1", "-c", "x")
    assert state()["awaiting"] == []


def test_a_warm_service_and_a_fresh_process_agree(tmp_path: Path, target: str) -> None:
    """The service keeps its steps moving with its cache; a local writer's events reach it
    by the incremental path; a new process folds the log afresh: both say the same."""
    tl(tmp_path, target, "db", "upgrade")
    tl(tmp_path, target, "campaign", "create", "x", "--ruleset", "duel", "--gm", "gina")
    tl(tmp_path, target, "campaign", "create", "y", "--ruleset", "duel", "--gm", "gina")
    gm = {
        name: json.loads(
            tl(tmp_path, target, "invite", "gina", "--role", "gm", "--json", "-c", name)
        )["token"]
        for name in ("x", "y")
    }
    ann = ""
    for name in ("x", "y"):
        for who in ("ann", "bob"):
            invited = json.loads(tl(tmp_path, target, "invite", who, "--json", "-c", name))
            ann = invited["token"] if (name, who) == ("x", "ann") else ann
        tl(tmp_path, target, "session", "start", "-c", name)
    tl(tmp_path, target, "duel", "open", "ann", "bob", "-c", "y")  # y waits longest
    with running_service(target, tmp_path) as url:

        def served(name: str) -> dict[str, Any]:
            headers = {"Authorization": f"Bearer {gm[name]}"}
            answer = httpx.get(f"{url}/campaigns/{name}/state", headers=headers, timeout=30)
            assert answer.status_code == 200, answer.text
            found: dict[str, Any] = answer.json()
            return found

        assert served("x")["awaiting"] == []  # the service tracks x from here on
        remote = ("--server", url, "--access-token", gm["x"])
        tl(tmp_path, target, *remote, "duel", "open", "ann", "bob", "-c", "x")
        tl(tmp_path, target, "duel", "play", "c1", "bob", "3", "-c", "x")  # a local writer
        as_ann = ("--server", url, "--access-token", ann)
        tl(tmp_path, target, *as_ann, "duel", "play", "c1", "ann", "5", "-c", "x")
        warm = served("x")
        fresh = json.loads(tl(tmp_path, target, "state", "--json", "-c", "x"))
        assert warm["awaiting"] == fresh["awaiting"]
        assert steps(warm) == [("gina", "reveal", "c1", warm["seq"])]

        everywhere = json.loads(tl(tmp_path, target, "waiting", "--json"))["waiting"]
        assert [(w["campaign"], w["player"]) for w in everywhere] == [
            ("y", "ann"),
            ("y", "bob"),
            ("x", "gina"),
        ]
        through = json.loads(tl(tmp_path, target, *remote, "waiting", "--json"))["waiting"]
        assert [(w["campaign"], w["player"], w["what"]) for w in through] == [
            ("x", "gina", "reveal")
        ]
        table = tl(tmp_path, target, "waiting")
        assert table.splitlines()[0].split() == [
            "campaign",
            "player",
            "character",
            "to",
            "do",
            "since",
        ]
        assert "gina (GM)" in table
        assert "play this card (c1)" in table
