"""Turning a `--db` target into a configured SQLAlchemy engine, and driver errors into ours.

SQLite follows SQLAlchemy's documented recipe for pysqlite: the driver's own transaction
handling is turned off and `begin` emits BEGIN IMMEDIATE for writers, so a writer takes the
file's write lock before it reads the state it decides on. A deferred BEGIN that later writes
fails with SQLITE_BUSY in WAL mode instead of waiting; IMMEDIATE waits (busy_timeout) and queues.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection, Dialect, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    SQLAlchemyError,
)

from tablelog.errors import DamagedDatabase, StorageError

BUSY_TIMEOUT_MS = 60_000
WRITE = "tablelog_write"
"""Execution option: a connection that will write begins with BEGIN IMMEDIATE on SQLite."""


def resolve_url(target: str) -> URL:
    """A file path means SQLite; anything with `://` is an SQLAlchemy URL."""
    if not target.strip():
        raise StorageError("the database target is empty; give a file path or a database URL")
    if "://" not in target:
        try:
            path = Path(target).expanduser()
        except RuntimeError as exc:  # "~someone/x.db" for a user that does not exist
            raise StorageError(f"cannot use {target!r} as a file path: {exc}") from None
        return URL.create("sqlite+pysqlite", database=str(path))
    try:
        url = make_url(target)
    except (ArgumentError, ValueError):
        raise StorageError(f"{target!r} is neither a file path nor a database URL") from None
    if url.drivername in ("postgresql", "postgres"):
        # psycopg 3 is the driver tablelog ships with; a bare scheme means it.
        url = url.set(drivername="postgresql+psycopg")
    elif url.drivername == "sqlite":
        url = url.set(drivername="sqlite+pysqlite")
    if url.drivername == "sqlite+pysqlite" and file_of(url) is None:
        raise StorageError(
            f"{target!r} is an in-memory database, which would lose the log on exit; "
            "give a file path"
        )
    if url.drivername not in ("sqlite+pysqlite", "postgresql+psycopg"):
        raise StorageError(
            f"database URL scheme {url.drivername!r} is not supported; "
            "use a file path (SQLite) or postgresql+psycopg://user@host/db"
        )
    return url


def describe(url: URL) -> str:
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return url.render_as_string(hide_password=True)


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def file_of(url: URL) -> Path | None:
    """The file a SQLite URL names; None for a database server or a database in memory."""
    if not is_sqlite(url) or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


# Connections kept open for reuse. The service runs each request in a worker thread, and a
# connection beyond those kept is opened and closed again for one request (on SQLite, with
# its PRAGMAs): 16 busy clients against the default 5 cost a third of the commands' rate.
# Connections open only when needed, so a CLI process still opens one.
POOL_KEPT = 20
POOL_OVERFLOW = 20
POOL_MOST = POOL_KEPT + POOL_OVERFLOW  # connections at once, unless the host chose (`serve`)


def build_engine(url: URL, connections: int = POOL_MOST) -> Engine:
    """The engine for `url`, holding at most `connections` connections at once (a thread
    wanting one more waits for one to come back)."""
    kept = min(POOL_KEPT, connections)
    pooling: dict[str, Any] = {"pool_size": kept, "max_overflow": connections - kept}
    try:
        if is_sqlite(url):
            # No rollback when a connection goes back to the pool: the driver runs in
            # autocommit mode, SQLAlchemy ends its own transactions (see `_on_begin`), and a
            # one-statement read (`EventStore.one_row`) leaves none open.
            engine = create_engine(
                url,
                connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
                pool_reset_on_return=None,
                **pooling,
            )
            configure_sqlite(engine)
            return engine
        return create_engine(url, **pooling)
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise StorageError(f"cannot use database {describe(url)}: {exc}") from None


def configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's `begin` event below emit BEGIN, not the driver.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # WAL is switched on once, when tablelog migrates the file (`enable_wal`): it is
            # persistent, and a file tablelog refuses must be left exactly as it was.
            cursor.execute("PRAGMA synchronous = FULL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = "IMMEDIATE" if connection.get_execution_options().get(WRITE) else "DEFERRED"
        raw_execute(connection, f"BEGIN {mode}").close()


def enable_wal(engine: Engine) -> None:
    """Put a SQLite file in WAL mode (persistent): readers never block the one writer.

    Runs on the raw driver connection, outside any transaction, as SQLite requires.
    """
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
        finally:
            cursor.close()
    finally:
        raw.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def driver_error(what: str, orig: BaseException) -> StorageError:
    """The one-sentence error for an exception the database driver raised."""
    if isinstance(orig, sqlite3.DatabaseError) and getattr(orig, "sqlite_errorcode", None) in (
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
    ):
        return DamagedDatabase(f"{what}: the database file is damaged ({orig})")
    return StorageError(f"{what}: {_first_line(orig)}")


def _from_driver(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return True
    psycopg = sys.modules.get("psycopg")  # imported only by PostgreSQL users
    return psycopg is not None and isinstance(exc, psycopg.Error)


def raw_execute(conn: Connection, sql: str, params: Any = ()) -> Any:
    """Run `sql` (? placeholders) on the driver's connection under `conn`, inside the
    transaction `conn` began, and return the driver's cursor. For the few statements every
    command runs: SQLAlchemy's execution around each cost the service a sixth of a
    command's time (bench/service.py). The driver's exceptions are its own (see
    `translated`)."""
    cursor = driver_cursor(conn)
    cursor.execute(driver_sql(conn.dialect, sql), params)
    return cursor


def driver_cursor(conn: Connection) -> Any:
    """A cursor of the driver's connection under `conn` (see `raw_execute`)."""
    driver = conn.connection.driver_connection
    assert driver is not None
    return driver.cursor()


def driver_sql(dialect: Dialect, sql: str) -> str:
    """`sql`, written with ? placeholders, in the driver's parameter style."""
    return sql if dialect.paramstyle == "qmark" else sql.replace("?", "%s")


@contextmanager
def translated(what: str) -> Iterator[None]:
    """Turn any driver or SQLAlchemy error into a one-sentence StorageError."""
    try:
        yield
    except IntegrityError as exc:
        # Unique keys the caller expects to collide are handled where they are written;
        # anything reaching here is a constraint the log's own invariants should prevent.
        raise StorageError(
            f"{what}: a stored row conflicts: {_first_line(exc.orig or exc)}"
        ) from None
    except DBAPIError as exc:
        raise driver_error(what, exc.orig or exc) from None
    except SQLAlchemyError as exc:
        raise StorageError(f"{what}: {_first_line(exc)}") from None
    except UnicodeDecodeError:
        # sqlite3 cannot even decode the error message: the schema itself holds garbage bytes.
        raise DamagedDatabase(
            f"{what}: the database file is damaged (its schema holds bytes that are not text)"
        ) from None
    except Exception as exc:
        # Statements on the hot path run on the driver's own connection (`raw_execute`), so
        # its own exceptions arrive here unwrapped.
        if not _from_driver(exc):
            raise
        raise driver_error(what, exc) from None
