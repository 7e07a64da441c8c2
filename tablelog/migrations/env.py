"""Alembic environment: runs on the connection tablelog hands over, or on the configured URL.

tablelog passes an open connection (with the migration lock taken and a transaction begun) in
`config.attributes["connection"]`; the `alembic` command line uses `sqlalchemy.url` instead.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from tablelog.storage.schema import metadata

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things in place; batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_online() -> None:
    connection = config.attributes.get("connection")
    if isinstance(connection, Connection):
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set sqlalchemy.url in alembic.ini, or run `tablelog db upgrade`")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    _run_online()
