"""End-to-end: long work shows a progress bar on a terminal and stays quiet when piped.

The campaign is written through the library (thousands of events through the CLI would take
minutes); `verify` and `replay` then run as real subprocesses, once with stderr on a
pseudo-terminal and once piped.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from tablelog.commands.campaigns import create_campaign
from tablelog.events import Pending
from tablelog.rulesets.improv.events import PlayerJoined
from tablelog.storage import open_store
from tests.e2e.transcript import TIMEOUT_S, ok, run

EVENTS = 2500  # above the CLI's threshold for showing a bar (cli/progress.py MIN_TOTAL)


@pytest.fixture
def big_campaign(tmp_path: Path) -> Path:
    store = open_store(str(tmp_path / "tablelog.db"), create=True)
    try:
        create_campaign(store, "crowd", ruleset="improv")
        joined = [
            Pending.of(
                PlayerJoined(player=f"p{n}", display=f"P{n}"),
                actor="gm",
                event_id=str(uuid.uuid4()),
            )
            for n in range(EVENTS)
        ]
        with store.transaction("crowd") as tx:
            tx.append(joined)
    finally:
        store.close()
    return tmp_path


def _on_a_terminal(tmp_path: Path, *args: str) -> tuple[int, str, bytes]:
    """Run `tablelog ARGS` with stderr on a pseudo-terminal: (exit code, stdout, terminal)."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env |= {"COLUMNS": "100", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    # stdout to a file, not a pipe: a long replay would fill a pipe nobody reads until the
    # loop below ends, and stall there.
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tablelog", *args],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=follower,
            stdin=subprocess.DEVNULL,
        )
        os.close(follower)
        seen = bytearray()
        try:
            for _ in range(TIMEOUT_S * 20):  # bounded: 50 ms a turn
                ready, _w, _x = select.select([leader], [], [], 0.05)
                if ready:
                    try:
                        chunk = os.read(leader, 65536)
                    except OSError:  # the follower closed: the process is done with it
                        break
                    if not chunk:
                        break
                    seen += chunk
                elif process.poll() is not None:
                    break
            process.wait(timeout=TIMEOUT_S)
            out.seek(0)
            stdout = out.read()
        finally:
            os.close(leader)
            if process.poll() is None:
                process.kill()
    return process.returncode, stdout.decode("utf-8", "replace"), bytes(seen)


def test_verify_shows_a_bar_on_a_terminal_and_nothing_when_piped(big_campaign: Path) -> None:
    code, stdout, terminal = _on_a_terminal(big_campaign, "verify")
    assert code == 0, terminal
    assert f"{EVENTS + 1} event(s)" in stdout
    assert b"verifying" in terminal
    assert f"/{EVENTS + 1}".encode() in terminal  # the M/N column of the bar
    piped = run(big_campaign, "verify")
    assert ok(piped) == stdout
    assert piped.stderr == ""


def test_replay_shows_a_bar_on_a_terminal_and_nothing_when_piped(big_campaign: Path) -> None:
    code, stdout, terminal = _on_a_terminal(big_campaign, "replay", "--at", "2400")
    assert code == 0, terminal
    assert "--- seq 2400: player P2398 joins" in stdout
    assert b"replaying" in terminal
    piped = run(big_campaign, "replay", "--at", "2400")
    assert ok(piped) == stdout
    assert piped.stderr == ""


def test_a_small_log_shows_no_bar_even_on_a_terminal(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo"))
    code, _stdout, terminal = _on_a_terminal(tmp_path, "verify")
    assert code == 0
    assert b"verifying" not in terminal


def test_export_and_import_show_bars_on_a_terminal_and_nothing_when_piped(
    big_campaign: Path,
) -> None:
    code, _stdout, terminal = _on_a_terminal(big_campaign, "export", "--output", "crowd.jsonl")
    assert code == 0, terminal
    assert b"exporting" in terminal
    code, stdout, terminal = _on_a_terminal(
        big_campaign, "--db", "copy.db", "import", "crowd.jsonl"
    )
    assert code == 0, terminal
    assert f"imported campaign crowd (improv, {EVENTS + 1} events" in stdout
    assert b"importing" in terminal  # each line checked as it goes in: one bar
    piped = run(big_campaign, "--db", "again.db", "import", "crowd.jsonl")
    ok(piped)
    assert "imported campaign crowd" in piped.stdout
    assert piped.stderr == ""
    exported = run(big_campaign, "export")
    assert ok(exported).encode() == (big_campaign / "crowd.jsonl").read_bytes()
    assert exported.stderr == ""
