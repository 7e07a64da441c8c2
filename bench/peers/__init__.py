"""Peer measurements for the benchmark harness: the same exported rows, written and read by
stdlib sqlite3, by SQLAlchemy Core + msgspec, and by the `eventsourcing` library.

`run_all` runs every workload and returns its results; `python -m bench.peers JSONL` prints
them. Each workload gets fresh files in the scratch directory and times only its own work.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from . import eventsourcing_peer, raw_sqlite, sqlalchemy_msgspec
from .data import Result, Row, load_rows

__all__ = ["Result", "Row", "format_table", "load_rows", "run_all"]


def run_all(
    rows: Sequence[Row],
    directory: str | Path,
    *,
    per_event_limit: int = 2000,
    commands: int = 2000,
    reconstruct_total: int | None = None,
) -> list[Result]:
    """Every peer workload on `rows`, in a fixed order; `reconstruct_total` defaults to
    `len(rows)`. The read+decode floors read the files their bulk appends wrote."""
    results: list[Result] = []

    raw = raw_sqlite.append_executemany(rows, directory)
    results.append(raw)
    results.append(raw_sqlite.append_per_event(rows, directory, per_event_limit))
    assert raw.db is not None
    results.append(raw_sqlite.read_decode(raw.db))

    sa = sqlalchemy_msgspec.append_executemany(rows, directory)
    results.append(sa)
    assert sa.db is not None
    results.append(sqlalchemy_msgspec.read_decode(sa.db))

    results.append(eventsourcing_peer.batched_append(rows, directory))
    results.append(eventsourcing_peer.single_append(rows, directory, per_event_limit))
    results.append(eventsourcing_peer.get_decide_save(directory, commands, rows=rows))
    total = len(rows) if reconstruct_total is None else reconstruct_total
    results.append(eventsourcing_peer.reconstruct(directory, total, rows=rows))
    return results


def format_table(results: Sequence[Result]) -> str:
    lines = [f"{'peer':<52} {'count':>9} {'seconds':>9} {'rate/s':>11} {'peak MB':>8}"]
    for r in results:
        peak = "" if r.peak_mb is None else f"{r.peak_mb:.1f}"
        lines.append(
            f"{r.name:<52} {r.events:>9} {r.seconds:>9.3f} {r.rate:>11,.0f} {peak:>8}  {r.unit}/s"
        )
    return "\n".join(lines)
