"""A player's text never drives another player's terminal: C1 controls (U+009B is a CSI) and
bidirectional overrides (U+202E) in narration, stakes and names are stored byte for byte and
shown as escapes by every pretty output of the CLI; JSON output escapes them inside its
strings (the same values); verbatim streams keep the stored bytes in a pipe and escape them
on a terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablelog.cli.output import json_safe, safe
from tests.e2e.transcript import ok, run

CSI = "\u009b"
RLO = "\u202e"
STAKE = f"Amanda keeps {RLO}elif eht{CSI}2J"
NARRATION = f"a shot {CSI}31m rings out {RLO}exe.gnp"
RAW = (CSI, RLO, "\x1b", "\x7f", "\u2066")
CLI = Path(__file__).resolve().parents[2] / "tablelog" / "cli"


@pytest.fixture
def table(tmp_path: Path) -> Path:
    ok(run(tmp_path, "campaign", "create", "heist", "--ruleset", "improv"))
    ok(run(tmp_path, "improv", "character", "bob", "Kit"))
    ok(run(tmp_path, "session", "start"))
    ok(run(tmp_path, "improv", "open"))
    ok(run(tmp_path, "improv", "stake", "c1", "amanda", STAKE, "--gm"))
    ok(run(tmp_path, "improv", "stake", "c1", "kit", "Kit wins", "--opposes", "amanda"))
    ok(run(tmp_path, "improv", "narrate", "c1", "amanda", NARRATION))
    return tmp_path


def clean(text: str) -> bool:
    return not any(ch in text for ch in RAW)


@pytest.mark.parametrize(
    "command",
    [
        ["log"],
        ["improv", "show", "c1"],
        ["state"],
        ["audit"],
        ["replay"],
        ["export", "--format", "markdown"],
        ["export", "--format", "discord"],
    ],
    ids=" ".join,
)
def test_pretty_output_shows_control_characters_as_escapes(table: Path, command: list[str]) -> None:
    out = ok(run(table, *command))
    if command[0] == "export":
        # A forum post turns every control character into a space; the rest of a text is
        # kept for the forum (a terminal gets escapes: see below).
        assert CSI not in out
        return
    assert clean(out), out
    assert "\\x9b" in out or command == ["state"], out
    if command[0] in ("log", "audit", "replay"):
        assert "\\u202eexe.gnp" in out


def test_json_output_escapes_them_and_keeps_the_values(table: Path) -> None:
    state = ok(run(table, "state", "--json"))
    assert clean(state)
    assert "\\u009b" in state
    assert "\\u202e" in state
    stake = json.loads(state)["conflicts"]["c1"]["sides"]["amanda"]["stake"]
    assert stake == STAKE
    shown = ok(run(table, "improv", "show", "c1", "--json"))
    assert clean(shown)


def test_the_log_in_a_pipe_keeps_the_stored_bytes(table: Path) -> None:
    """`log --json` and a jsonl export to a pipe or file are the stored bytes (a chain can
    be checked from them); their values are the texts as given."""
    lines = ok(run(table, "log", "--json")).splitlines()
    texts = [json.loads(line)["payload"].get("text") for line in lines]
    assert STAKE in texts
    assert NARRATION in texts
    assert any(CSI in line for line in lines)
    exported = ok(run(table, "export"))
    assert exported.splitlines() == lines


def on_a_terminal(cwd: Path, *args: str) -> str:
    """`tablelog ARGS...` with its stdout on a pseudo-terminal; what it wrote there."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    errors = cwd / "terminal-stderr.txt"
    with errors.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "tablelog", *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=stderr,
        )
    os.close(follower)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:  # bounded: the command ends, or the deadline
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the terminal closed: the command has ended
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            elif process.poll() is not None:
                break
    finally:
        os.close(leader)
        process.wait(timeout=60)
    assert process.returncode == 0, errors.read_text()
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def test_verbatim_streams_are_escaped_on_a_terminal(table: Path) -> None:
    lines = on_a_terminal(table, "log", "--json").splitlines()
    assert clean("\n".join(lines))
    texts = [json.loads(line)["payload"].get("text") for line in lines]
    assert NARRATION in texts  # JSON escapes: the same values
    exported = on_a_terminal(table, "export").splitlines()
    assert clean("\n".join(exported))
    assert [json.loads(line) for line in exported] == [json.loads(line) for line in lines]
    post = on_a_terminal(table, "export", "--format", "markdown")
    assert clean(post)
    assert "\\u202eexe" in post


def test_the_helpers_escape_every_kind() -> None:
    text = "tab\tand\nnewline stay; \x1b[2J \x07 \r \x7f \x85 \x9b \u061c \u200f \u202a \u2069 é 中"
    shown = safe(text)
    assert clean(shown)
    assert "\r" not in shown
    assert "\x07" not in shown
    assert "\x85" not in shown
    assert shown.startswith("tab\tand\nnewline stay; \\x1b[2J \\x07 \\x0d \\x7f \\x85 \\x9b")
    assert shown.endswith("\\u061c \\u200f \\u202a \\u2069 é 中")
    encoded = json.dumps(text, ensure_ascii=False).encode()
    assert json.loads(json_safe(encoded)) == text
    assert not re.search(rb"\xc2[\x80-\x9f]|\xe2\x80\xae", json_safe(encoded))


def test_every_cli_text_goes_through_the_one_helper() -> None:
    """No module of the CLI writes text to a terminal but through cli/output.py."""
    offenders = [
        f"{path.name}:{number}"
        for path in sorted(CLI.glob("*.py"))
        if path.name != "output.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"typer\.echo|\bprint\(|sys\.stdout\.(buffer\.)?write|console\.print", line)
    ]
    assert offenders == []
