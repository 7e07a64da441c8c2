"""End-to-end: `tablelog replay` shows the table after each event of a conflict."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.transcript import ok, refused, run


def test_replay_steps_through_a_conflict_up_to_a_seq(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo"))
    out = ok(run(tmp_path, "replay", "--conflict", "fight", "--at", "23"))
    steps = [line for line in out.splitlines() if line.startswith("--- seq ")]
    assert steps[0] == "--- seq 12: conflict fight opens (extended, 3 rounds)"
    assert steps[-1].startswith("--- seq 23: fight round 1 revealed")
    assert len(steps) == 23 - 12 + 1
    assert "round 1 (face down):" in out  # before the reveal
    *_, beats, rights = out.rstrip().splitlines()
    assert beats == "    kit beats riso; riso beats jason; goons beats diana"
    assert rights.startswith("    narration rights follow the ranking: Kit 15 > Goons 13 >")
    # --step on a pipe is plain output: no prompt waits for Enter.
    piped = ok(run(tmp_path, "replay", "--conflict", "fight", "--at", "14", "--step"))
    assert "[Enter" not in piped


def test_replaying_an_unknown_conflict_is_refused(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo"))
    line = refused(run(tmp_path, "replay", "--conflict", "nope"))
    assert line == "nothing-to-replay: campaign bar-fight has no events of conflict nope"
