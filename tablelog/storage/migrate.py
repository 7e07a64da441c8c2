"""Schema revisions: the cheap check every command pays, and the upgrade that runs Alembic.

A command reads the stored revision once and compares it with the HEAD baked into the package.
Only when they differ does Alembic run, inside one transaction that holds the migration lock
(SQLite: BEGIN IMMEDIATE on the file; PostgreSQL: an advisory lock), and it re-reads the
revision under the lock, so two processes opening a new file at once migrate it exactly once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from tablelog.errors import SchemaMismatch
from tablelog.migrations import HEAD, SCRIPT_LOCATION
from tablelog.storage.engine import WRITE, describe, enable_wal, is_sqlite, translated

if TYPE_CHECKING:
    from alembic.config import Config

# Any constant works; it only has to be the same for every tablelog process.
_PG_MIGRATION_LOCK = 0x7461626C656C6F67  # "tablelog"


def alembic_config() -> Config:
    # Alembic is imported only when a migration or a revision listing is needed: the cheap
    # check on every command must not pay for importing it.
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


def known_revisions() -> list[str]:
    """Every revision this package carries, oldest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def read_revision(connection: Connection) -> str | None:
    """The stored revision, or None for a database tablelog has never migrated."""
    from alembic.runtime.migration import MigrationContext

    revision = MigrationContext.configure(connection).get_current_revision()
    return None if revision is None else str(revision)


def current_revision(engine: Engine) -> str | None:
    """The cheap path every command takes: one SELECT, and a catalog look-up only on failure."""
    with translated(f"cannot read {describe(engine.url)}"), engine.connect() as conn:
        try:
            row = conn.exec_driver_sql("SELECT version_num FROM alembic_version").first()
        except DBAPIError:
            conn.rollback()
            if inspect(conn).has_table("alembic_version"):
                raise
            return None
        return None if row is None else str(row[0])


def _tables(engine: Engine) -> list[str]:
    with translated(f"cannot read {describe(engine.url)}"), engine.connect() as conn:
        return inspect(conn).get_table_names()


def check_revision(engine: Engine, *, auto_upgrade: bool) -> None:
    """Make sure the schema is at HEAD, migrating a SQLite file when allowed."""
    revision = current_revision(engine)
    if revision == HEAD:
        return
    if revision is not None and revision not in known_revisions():
        raise SchemaMismatch(
            f"{describe(engine.url)} is at schema revision {revision}, which this tablelog "
            f"(newest {HEAD}) does not know; it was written by a newer tablelog"
        )
    if auto_upgrade:
        if revision is None and (foreign := _tables(engine)):
            # Never turn someone else's SQLite file into a tablelog log behind their back.
            raise SchemaMismatch(
                f"{describe(engine.url)} is not a tablelog database (it holds tables "
                f"{', '.join(sorted(foreign)[:5])} and no tablelog schema revision)"
            )
        upgrade(engine)
        return
    state = "not migrated" if revision is None else f"at revision {revision}"
    raise SchemaMismatch(
        f"{describe(engine.url)} is {state}, this tablelog needs revision {HEAD}; "
        "run `tablelog db upgrade`"
    )


def upgrade(engine: Engine, revision: str = "head") -> str | None:
    """Run Alembic up to `revision` under the migration lock; return the revision reached."""
    return _migrate(engine, "upgrade", revision)


def downgrade(engine: Engine, revision: str) -> str | None:
    return _migrate(engine, "downgrade", revision)


def _migrate(engine: Engine, direction: str, revision: str) -> str | None:
    if is_sqlite(engine.url):
        with translated(f"cannot migrate {describe(engine.url)}"):
            enable_wal(engine)
    with (
        translated(f"cannot migrate {describe(engine.url)}"),
        engine.connect().execution_options(**{WRITE: True}) as conn,
        conn.begin(),
    ):
        if not is_sqlite(engine.url):
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
        before = read_revision(conn) if direction == "upgrade" else None
        if direction == "upgrade" and before == HEAD and revision == "head":
            return before
        from alembic import command

        config = alembic_config()
        config.attributes["connection"] = conn
        if direction == "upgrade":
            command.upgrade(config, revision)
        else:
            command.downgrade(config, revision)
        return read_revision(conn)
