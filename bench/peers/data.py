"""The rows every peer writes, loaded once from a `tablelog export --format jsonl` file, and
the result and meter that every peer workload shares.

A row keeps the payload as the exact JSON bytes of the export (`msgspec.Raw`), the bytes the
hash covers and tablelog stores, so a peer writes the same bytes tablelog does.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import msgspec

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_STATM = Path("/proc/self/statm")


@dataclass(frozen=True, slots=True)
class Row:
    """One exported event, its columns as tablelog's `events` table holds them."""

    campaign: str
    seq: int
    event_id: str
    type: str
    schema_version: int
    actor: str
    recorded_at: int
    prev_hash: bytes  # 32 raw bytes, as stored
    hash: bytes
    payload: bytes  # the exact JSON bytes of the event


class _Line(msgspec.Struct, frozen=True):
    campaign: str
    seq: int
    event_id: str
    type: str
    schema_version: int
    actor: str
    recorded_at: int
    prev_hash: str
    hash: str
    payload: msgspec.Raw


def load_rows(path: str | Path) -> list[Row]:
    """Every line of a JSONL export, in file order (each campaign's seq order)."""
    decoder = msgspec.json.Decoder(_Line)
    rows: list[Row] = []
    with open(path, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            r = decoder.decode(line)
            rows.append(
                Row(
                    r.campaign,
                    r.seq,
                    r.event_id,
                    r.type,
                    r.schema_version,
                    r.actor,
                    r.recorded_at,
                    bytes.fromhex(r.prev_hash),
                    bytes.fromhex(r.hash),
                    bytes(r.payload),
                )
            )
    return rows


@dataclass(frozen=True, slots=True)
class Result:
    """One measurement: `events` units (events, or commands) done in `seconds`.

    `peak_mb` is the growth of the process's resident set over its size when the measurement
    started (sampled, so a short spike can be missed); `db` is the file written, if any.
    """

    name: str
    events: int
    seconds: float
    peak_mb: float | None = None
    unit: str = "events"
    db: Path | None = None

    @property
    def rate(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else float("inf")


def _rss() -> int | None:
    try:
        return int(_STATM.read_bytes().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return None


class Meter:
    """Times a block (perf_counter) and samples its peak RSS growth from a thread every 5 ms.

    Reading /proc/self/statm 200 times a second costs the measured code next to nothing; where
    there is no /proc, `peak_mb` is None.
    """

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.seconds = 0.0
        self.peak_mb: float | None = None
        self._base = _rss()
        self._peak = self._base or 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._t0 = 0.0

    def _sample(self) -> None:
        while not self._stop.wait(self.interval):
            rss = _rss()
            if rss is not None and rss > self._peak:
                self._peak = rss

    def __enter__(self) -> Meter:
        self._base = _rss()
        self._peak = self._base or 0
        if self._base is not None:
            self._thread.start()
        self._t0 = time.perf_counter()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.seconds = time.perf_counter() - self._t0
        if self._base is not None:
            self._stop.set()
            self._thread.join()
            self._peak = max(self._peak, _rss() or 0)
            self.peak_mb = (self._peak - self._base) / 2**20

    def result(
        self, name: str, events: int, *, unit: str = "events", db: Path | None = None
    ) -> Result:
        return Result(name, events, self.seconds, self.peak_mb, unit, db)


def fresh(directory: str | Path, name: str) -> Path:
    """A path in `directory` for a new SQLite file, with any earlier file (and WAL) removed."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    path = d / name
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path
