"""PostgreSQL's notifications of appends and revocations, for a service's live feeds.

Revision 0013's triggers send `e CAMPAIGN SEQ SCHEMA` on the channel `tablelog` whenever a
campaign's head moves and `a CAMPAIGN SCHEMA` whenever one of its tokens stops working (a
channel is the whole database's: the listener keeps its own schema's), whoever wrote (any
service, the CLI, an import); PostgreSQL delivers them when the transaction commits. A service
holds one connection that listens (`Listener`, in a thread of its own: psycopg's blocking
`notifies` wakes on the socket, costing no query while nothing happens) and is told of each.

A connection can be lost (the server restarted, a proxy cut it): the listener says so
(`on_lost`: the service then polls, as on SQLite), connects again with a growing pause, and
once it listens again says so too (`on_listening`), so the service reads every watched
campaign's head once and misses nothing committed while it was deaf.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy.engine import URL

CHANNEL = "tablelog"
APPLICATION_NAME = "tablelog-listen"  # how an operator (and a test) finds the connection
_WAIT_S = 0.5  # how often the thread looks whether the service is stopping
_RETRY_S = (0.1, 0.25, 0.5, 1.0, 2.0)  # pauses between attempts to connect again
_LOG = logging.getLogger("tablelog.listen")


@dataclass(frozen=True)
class Change:
    """One notification: `kind` `e` (the head moved to `seq`) or `a` (access ended)."""

    kind: str
    campaign: str
    seq: int | None = None


def parse(payload: str, schema: str) -> Change | None:
    """The change a payload says for the log in `schema`, or None for another schema's or
    one this version does not know. The schema comes last and may hold spaces."""
    if payload.startswith("e "):
        parts = payload.split(" ", 3)
        if len(parts) == 4 and parts[3] == schema and parts[2].isdigit():
            return Change("e", parts[1], int(parts[2]))
    elif payload.startswith("a "):
        parts = payload.split(" ", 2)
        if len(parts) == 3 and parts[2] == schema:
            return Change("a", parts[1])
    return None


def libpq_url(url: URL) -> str:
    """The SQLAlchemy URL as psycopg takes it (no `+psycopg` driver part)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """One listening connection, in a daemon thread, until `stop`."""

    def __init__(
        self,
        url: URL,
        on_change: Callable[[Change], None],
        on_listening: Callable[[], None],
        on_lost: Callable[[], None],
    ) -> None:
        self._dsn = libpq_url(url)
        self._on_change = on_change
        self._on_listening = on_listening
        self._on_lost = on_lost
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablelog-listen", daemon=True)
        self.listening = threading.Event()  # set while the connection listens

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        attempt = 0
        while not self._stopping.is_set():
            try:
                with psycopg.connect(
                    self._dsn, autocommit=True, application_name=APPLICATION_NAME
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    found = conn.execute("SELECT current_schema()").fetchone()
                    schema = str(found[0]) if found is not None else "public"
                    attempt = 0
                    self.listening.set()
                    self._on_listening()
                    self._serve(conn, schema)
            except psycopg.Error as error:
                _LOG.warning("listening for appends: %s; connecting again", error)
            except Exception:  # a callback's failure must not end the service's ears
                _LOG.exception("listening for appends failed; connecting again")
            if self.listening.is_set():
                self.listening.clear()
                self._on_lost()
            if self._stopping.wait(_RETRY_S[min(attempt, len(_RETRY_S) - 1)]):
                return
            attempt += 1

    def _serve(self, conn: psycopg.Connection[Any], schema: str) -> None:
        while not self._stopping.is_set():
            for note in conn.notifies(timeout=_WAIT_S):
                change = parse(note.payload, schema)
                if change is not None:
                    self._on_change(change)
