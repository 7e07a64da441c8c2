"""The ruleset contract, proven by a ruleset tablelog has never seen: the one-card duel, a
distribution of its own (`tests/duel`, installed beside tablelog), found by its entry point
alone and played through the real `tablelog` command and a real service. Nothing in tablelog
names it, yet it gets `show`, `state`, `log`,
`replay`, `audit`, the exports, `whatif`, `demo`, import and verify, the service's commands and
reads, and every read filtered for its caller (a card face down is its player's alone)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.support.server import running_service

LAUNCH = "-m", "tablelog"  # the real command: the duel is found by its entry point
TIMEOUT_S = 60


def tl(cwd: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    """`tablelog ARGS` in `cwd`, on `./t.db` unless --server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    where = [] if "--server" in args else ["--db", "t.db"]
    done = subprocess.run(
        [sys.executable, *LAUNCH, *where, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    if ok:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def tl_json(cwd: Path, *args: str) -> Any:
    return json.loads(tl(cwd, *args).stdout)


def duel_with_two_cards_down(cwd: Path) -> dict[str, str]:
    """A campaign `d` with ann and bob, duel c1 opened and both cards down; their tokens."""
    tokens = {"gm": tl_json(cwd, "campaign", "create", "d", "--ruleset", "duel", "--json")["token"]}
    for player in ("ann", "bob"):
        tokens[player] = tl_json(cwd, "invite", player, "--json")["token"]
    tl(cwd, "session", "start")
    assert "duel c1 opens" in tl(cwd, "duel", "open", "ann", "bob").stdout
    tl(cwd, "duel", "play", "c1", "ann", "9")
    tl(cwd, "duel", "play", "c1", "bob", "12")
    return tokens


def test_the_cli_plays_a_duel_through_every_generic_command(tmp_path: Path) -> None:
    duel_with_two_cards_down(tmp_path)
    # Face down: each player sees its own card only; the operator sees both.
    assert tl_json(tmp_path, "duel", "show", "c1", "--as", "bob", "--json")["plays"] == {
        "ann": None,
        "bob": 12,
    }
    state = tl_json(tmp_path, "state", "--json")
    assert (state["ruleset"], state["session"], state["seq"]) == ("duel", 1, 7)
    assert state["conflicts"]["c1"]["plays"] == {"ann": 9, "bob": 12}
    assert tl_json(tmp_path, "state", "--as", "ann", "--json")["conflicts"]["c1"]["plays"] == {
        "ann": 9,
        "bob": None,
    }
    # A refusal: one sentence, exit 1, nothing written.
    refused = tl(tmp_path, "duel", "play", "c1", "ann", "3", ok=False)
    assert refused.returncode == 1
    assert refused.stderr.strip() == "already-played: ann has already played"
    assert tl_json(tmp_path, "state", "--json")["seq"] == 7

    assert "12 beats 9" in tl(tmp_path, "duel", "reveal", "c1").stdout
    shown = tl_json(tmp_path, "duel", "show", "c1", "--as", "ann", "--json")
    assert (shown["plays"], shown["beats"]) == ({"ann": 9, "bob": 12}, [["bob", "ann"]])
    log = [json.loads(line) for line in tl(tmp_path, "log", "--json").stdout.splitlines()]
    assert [e["type"] for e in log] == [
        "campaign.created",
        "duel.player_joined",
        "duel.player_joined",
        "session.started",
        "duel.opened",
        "duel.card_played",
        "duel.card_played",
        "duel.revealed",
    ]
    replay = tl(tmp_path, "replay", "--conflict", "c1").stdout
    assert "ann: face down" not in replay  # the operator's replay shows every card
    assert "duel c1 (closed): ann: 9, bob: 12" in replay

    audit = tl_json(tmp_path, "audit", "--json")
    assert audit["ok"] is True
    assert [c["conflict"] for c in audit["conflicts"]] == ["c1"]
    assert audit["sessions"] == [{"session": 1, "first_seq": 4, "last_seq": 8}]
    post = tl(tmp_path, "export", "--format", "markdown", "--conflict", "c1").stdout
    assert "12 beats 9" in post
    assert "tablelog verify -c d --head 8:" in post

    # What if bob had played a 3? The real log is only read.
    (tmp_path / "moves.txt").write_text("duel play c1 bob 3\nduel reveal c1\n")
    whatif = tl_json(tmp_path, "whatif", "--at", "6", "moves.txt", "--json")
    [difference] = whatif["differences"]
    assert (difference["conflict"], difference["real"], difference["whatif"]) == (
        "c1",
        [["bob", "ann"]],
        [["ann", "bob"]],
    )
    assert tl_json(tmp_path, "state", "--json")["seq"] == 8

    # Exported, imported elsewhere, verified: the same chain.
    tl(tmp_path, "export", "--output", "d.jsonl")
    imported = tl(tmp_path, "--db", "copy.db", "import", "d.jsonl")
    assert "8 events" in imported.stdout
    assert tl_json(tmp_path, "--db", "copy.db", "verify", "--json")["ok"] is True


def test_the_demo_of_a_new_ruleset(tmp_path: Path) -> None:
    written = tl(tmp_path, "demo", "--ruleset", "duel").stdout
    assert "wrote campaign duel (8 events)" in written
    assert "duel d1 revealed: 12 beats 9" in written
    assert "`tablelog duel show d1 -c duel`" in written
    assert tl_json(tmp_path, "duel", "show", "d1", "--json")["winner"] == "bob"


def test_the_service_carries_the_duel_and_hides_what_it_must(tmp_path: Path) -> None:
    tl_json(tmp_path, "campaign", "create", "d", "--ruleset", "duel", "--json")
    tokens = {p: tl_json(tmp_path, "invite", p, "--json")["token"] for p in ("ann", "bob")}
    tl(tmp_path, "session", "start")
    tl(tmp_path, "duel", "open", "ann", "bob")
    with running_service("t.db", tmp_path, program=LAUNCH) as url:
        as_ann = ("--server", url, "--access-token", tokens["ann"])
        tl(tmp_path, *as_ann, "duel", "play", "c1", "ann", "9")  # the CLI as the service's client
        bob = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {tokens['bob']}"})
        with bob:
            # Ann's card is hers until the reveal: not in bob's log, show or state.
            log = bob.get("/campaigns/d/log").json()
            played = [json.loads(i["line"]) for i in log if "card_played" in i["line"]]
            assert [(p["payload"]["card"], p["payload"]["salt"]) for p in played] == [(None, None)]
            assert bob.get("/campaigns/d/duel/conflicts/c1").json()["view"]["plays"] == {
                "ann": None
            }
            assert bob.get("/campaigns/d/state").json()["conflicts"]["c1"]["plays"] == {"ann": None}
            # Bob acts only for himself; the GM reveals.
            as_ann_body = bob.post(
                "/campaigns/d/duel/conflicts/c1/plays", json={"player": "ann", "card": 2}
            )
            assert (as_ann_body.status_code, as_ann_body.json()["code"]) == (403, "not-yours")
            bad = bob.post(
                "/campaigns/d/duel/conflicts/c1/plays", json={"player": "bob", "card": 40}
            )
            assert (bad.status_code, bad.json()["code"]) == (422, "bad-card")
            assert (
                bob.post(
                    "/campaigns/d/duel/conflicts/c1/plays", json={"player": "bob", "card": 12}
                ).status_code
                == 201
            )
            early = bob.post("/campaigns/d/duel/conflicts/c1/reveals", json={})
            assert (early.status_code, early.json()["code"]) == (403, "gm-only")
        revealed = tl(tmp_path, "duel", "reveal", "c1")  # the operator, locally
        assert "12 beats 9" in revealed.stdout
        with httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {tokens['bob']}"}
        ) as bob:
            assert bob.get("/campaigns/d/duel/conflicts/c1").json()["view"]["plays"] == {
                "ann": 9,
                "bob": 12,
            }
            assert bob.get("/campaigns/d/audit").json()["ok"] is True
            post = bob.get("/campaigns/d/export", params={"format": "discord"}).text
            assert "12 beats 9" in post
        schema = httpx.get(url + "/schema/openapi.json").json()
        assert "/campaigns/{campaign}/duel/conflicts/{conflict}/plays" in schema["paths"]
