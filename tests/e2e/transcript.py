"""Helpers for the end-to-end transcripts: run the real `tablelog` command line.

`run` runs it in this process by default (tests/support/cli_runner.py: the same entry point,
argv, streams, exit code, directory and environment as `python -m tablelog`, without the half
second a process start costs); `run(..., subprocess=True)` starts the real process, for what
belongs to a process and for the one whole play per ruleset that proves the two agree.

Every test starts in an empty directory (pytest's `tmp_path`) with no TABLELOG_* variables set,
so `./tablelog.db` is the default database. The tests read as transcripts: the command, then
what the contract (cli.md) says must come back.
"""

from __future__ import annotations

import json
import os
import re
import subprocess as _subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec

from tablelog.rulesets.improv.rules import ImprovOptions
from tests.support.cli_runner import run_tablelog

TIMEOUT_S = 60
HEX64 = re.compile(r"[0-9a-f]{64}")
# secrets.token_urlsafe(32): 43 URL-safe base64 characters.
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,}")
IMPROV_DEFAULTS: dict[str, Any] = msgspec.to_builtins(ImprovOptions())


def run(
    tmp_path: Path,
    *args: str,
    env: dict[str, str] | None = None,
    input: str | None = None,
    subprocess: bool = False,
) -> _subprocess.CompletedProcess[str]:
    """`tablelog ARGS...` in `tmp_path`, isolated from the caller's TABLELOG_* settings: in
    this process, or as `python -m tablelog ARGS...` with `subprocess`."""
    if not subprocess:
        return run_tablelog(args, cwd=tmp_path, env=env, input=input)
    return run_process(tmp_path, *args, env=env, input=input)


def run_process(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None, input: str | None = None
) -> _subprocess.CompletedProcess[str]:
    """`python -m tablelog ARGS...` as its own process."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    clean.update(env or {})
    return _subprocess.run(
        [sys.executable, "-m", "tablelog", *args],
        cwd=tmp_path,
        env=clean,
        input=input,
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT_S,
        check=False,
    )


# --- small assertions shared by the transcripts -------------------------------------------


def no_crash(result: _subprocess.CompletedProcess[str]) -> None:
    """No traceback, and no bug turned into a sentence (`main` says `internal-error: ...`
    for an exception no command expected, unless TABLELOG_DEBUG is set)."""
    assert "Traceback" not in result.stderr, result.stderr
    assert "internal-error: " not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout


def one_line(stderr: str) -> str:
    """The stderr of a refusal: exactly one non-empty line."""
    lines = stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {stderr!r}"
    assert lines[0].strip(), f"expected a sentence on stderr, got {stderr!r}"
    return lines[0]


def refused(result: _subprocess.CompletedProcess[str]) -> str:
    """Exit 1 with one sentence on stderr and no traceback; returns the sentence."""
    no_crash(result)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    return one_line(result.stderr)


def ok(result: _subprocess.CompletedProcess[str]) -> str:
    no_crash(result)
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr)
    return result.stdout


def broken(result: _subprocess.CompletedProcess[str]) -> _subprocess.CompletedProcess[str]:
    """`verify` found a broken log: exit 3, no traceback."""
    no_crash(result)
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    return result


def create(tmp_path: Path, name: str, *extra: str) -> str:
    return ok(run(tmp_path, "campaign", "create", name, "--ruleset", "improv", *extra))


def log_json(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """`tablelog log --json ARGS...`, one parsed object per line."""
    out = ok(run(tmp_path, "log", "--json", *args, env=env))
    return [json.loads(line) for line in out.splitlines()]


def campaigns_json(tmp_path: Path, *root: str) -> list[dict[str, Any]]:
    value = json.loads(ok(run(tmp_path, *root, "campaign", "list", "--json")))
    assert isinstance(value, list)
    return value


def db_bytes(path: Path) -> bytearray:
    """The SQLite file's bytes; the CLI must not leave the log in a WAL beside it."""
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, f"{wal} holds unflushed pages"
    return bytearray(path.read_bytes())


def page_size(data: bytes) -> int:
    size = int.from_bytes(data[16:18], "big")
    return 65536 if size == 1 else size
