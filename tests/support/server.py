"""A real tablelog service for the tests: `tablelog serve` as a subprocess on a free loopback
port, over a database the test chooses; stopped (and its output shown on failure) afterwards."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

START_TIMEOUT_S = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_service(
    db: str, cwd: Path, *options: str, program: Sequence[str] = ("-m", "tablelog")
) -> Iterator[str]:
    """Start `tablelog --db DB serve [OPTIONS]` on 127.0.0.1 and yield its base URL once it
    answers; `program` is what python runs (a launcher script that registers a ruleset)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
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
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
