"""A small run of the benchmark harness: every workload, tablelog's and its peers', runs to the
end on a few thousand events. No timing is asserted (the machines are shared and noisy); the
figures live in bench/results/."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

from tests.conftest import pg_base_url

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_harness_runs_every_workload(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "run.py"),
            "--events",
            "2500",
            "--per-campaign",
            "1000",
            "--append-events",
            "1000",
            "--commands",
            "20",
            "--scratch",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for workload in (
        "tablelog import",
        "raw sqlite3 executemany",
        "sqlalchemy executemany",
        "eventsourcing save",
        "tablelog commands",
        "eventsourcing get+decide+save",
        "tablelog rebuild",
        "sqlalchemy read+decode",
        "eventsourcing reconstruct",
        "tablelog verify",
    ):
        assert workload in done.stdout, done.stdout


def test_the_service_benchmark_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "service.py"), "--smoke", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "tablelog commands" in done.stdout
    assert "bare reads" in done.stdout


def test_the_postgresql_benchmark_runs() -> None:
    url = pg_base_url()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "postgres.py"), "--smoke", "--url", url],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "tablelog, 8 campaigns" in done.stdout


def test_the_scale_benchmark_runs() -> None:
    """Services on one PostgreSQL database (a database of the bench's own, dropped at the
    end): throughput as services are added, idle feeds, appends reaching their watchers."""
    url = pg_base_url()
    database = f"bench_scale_{uuid.uuid4().hex[:12]}"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "scale.py"),
            "--smoke",
            "--url",
            url,
            "--database",
            database,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for heading in ("## Throughput", "## Idle watching", "## Under appends"):
        assert heading in done.stdout, done.stdout


def test_the_page_benchmark_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "page.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for row in ("| GM | page, right after an append |", "| player bob | table,", "SSE clients"):
        assert row in done.stdout, done.stdout
