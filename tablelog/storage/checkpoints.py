"""SQLite's WAL checkpoints moved off the write path, for a long-running service.

By default the commit that grows the write-ahead log past 1,000 pages copies the log into the
database file and syncs it, while holding the write lock: every command queued behind it
waits, tens of milliseconds on a slow disk (the service's p99, bench/service.py). A service
instead turns the writers' automatic checkpoints off and checkpoints from a thread of its
own, PASSIVE (never waiting for, nor holding up, a writer or a reader), a few times a
second. One-shot processes (the CLI) keep SQLite's default: their last connection to close
checkpoints the log anyway.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import Engine

EVERY = 0.2  # seconds: the log grows by a few hundred pages at most in between


class Checkpointer:
    def __init__(self, engine: Engine, every: float = EVERY) -> None:
        self._engine = engine
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablelog-checkpoints", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        fairy = self._engine.raw_connection()
        connection: Any = fairy.driver_connection
        fairy.detach()  # its own: the pool never hands it to anyone else
        failure = self._engine.dialect.loaded_dbapi.Error
        try:
            while not self._stop.wait(self._every):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except failure:
                    continue  # busy or interrupted: the next round takes it up again
        finally:
            connection.close()
