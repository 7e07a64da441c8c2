"""A real tablelog service for the tests: `tablelog serve` as a subprocess on a free loopback
port, over a database the test chooses; stopped (and its output shown on failure) afterwards.

`admin_token(url)` is the admin token the service printed on its first start over its
database (creating a campaign through it takes that token)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

START_TIMEOUT_S = 30.0
# `serve` options for a test that makes a campaign per case (the default is 20 an hour).
MANY_CAMPAIGNS = ("--campaign-limit", "100000")
_ADMIN_LINE = re.compile(r"^admin token \(.*\): (\S+)$", re.MULTILINE)
_ADMIN_TOKENS: dict[str, str] = {}  # url -> the admin token its service printed
_PROCESSES: dict[str, subprocess.Popen[bytes]] = {}  # url -> its running service


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_service(
    db: str,
    cwd: Path,
    *options: str,
    program: Sequence[str] = ("-m", "tablelog"),
    env: Mapping[str, str] | None = None,
    port: int | None = None,
) -> Iterator[str]:
    """Start `tablelog --db DB serve [OPTIONS]` on 127.0.0.1 and yield its base URL once it
    answers; `program` is what python runs (a launcher script that registers a ruleset);
    `env`: variables it gets besides the caller's, whose TABLELOG_* ones it never sees;
    `port`: the one it listens on (a restart at the same address), else a free one."""
    port = port or free_port()
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env = {**inherited, **(env or {})}
    log = (cwd / f"serve-{port}.log").open("w+", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, *program, "--db", db, "serve", "--port", str(port), *options],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:  # bounded: gives up at the deadline
            if process.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"tablelog serve exited {process.returncode}: {log.read()}")
            try:
                if httpx.get(url + "/", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"tablelog serve did not answer on {url}")
            time.sleep(0.1)
        printed = _ADMIN_LINE.search(Path(log.name).read_text(encoding="utf-8"))
        if printed is not None:
            _ADMIN_TOKENS[url] = printed.group(1)
        _PROCESSES[url] = process
        yield url
    finally:
        _PROCESSES.pop(url, None)
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
        _ADMIN_TOKENS.pop(url, None)


def process_of(url: str) -> subprocess.Popen[bytes]:
    """The process of the running service at `url` (a test that kills it outright)."""
    return _PROCESSES[url.rstrip("/")]


def admin_token(url: str) -> str:
    """The admin token the service at `url` printed when it started over a new database."""
    token = _ADMIN_TOKENS.get(url.rstrip("/"))
    if token is None:
        raise RuntimeError(f"the service at {url} printed no admin token (not its first start?)")
    return token


def admin(url: str) -> dict[str, str]:
    """The headers of a request made with the admin token (a campaign's creation)."""
    return {"Authorization": f"Bearer {admin_token(url)}"}
