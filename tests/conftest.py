"""Backends for the tests: a SQLite file, and PostgreSQL when TABLELOG_TEST_PG_URL is set.

Each PostgreSQL test gets a schema of its own (carried in the URL as search_path, so the CLI
and Alembic see it too) and drops it afterwards. In CI the PostgreSQL half must run: a missing
server is a failure there, never a silent skip.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, text

PG_URL_VARIABLE = "TABLELOG_TEST_PG_URL"


def pg_base_url() -> str:
    url = os.environ.get(PG_URL_VARIABLE)
    if url:
        return url
    if os.environ.get("CI"):
        pytest.fail(f"{PG_URL_VARIABLE} is not set: CI must run the PostgreSQL tests")
    pytest.skip(f"set {PG_URL_VARIABLE} to run the PostgreSQL tests")


@pytest.fixture
def pg_target() -> Iterator[str]:
    """A database URL whose search_path is a fresh, empty schema."""
    base = pg_base_url()
    schema = f"tl_{uuid.uuid4().hex[:16]}"
    admin = create_engine(base.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # the server is down or refuses: say so plainly
        admin.dispose()
        pytest.fail(f"cannot reach PostgreSQL at {base}: {exc}")
    separator = "&" if "?" in base else "?"
    yield f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture
def sqlite_target(tmp_path: Path) -> str:
    return str(tmp_path / "tablelog.db")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def target(request: pytest.FixtureRequest) -> str:
    """Both backends, for tests that are not part of a contract class."""
    name = "sqlite_target" if request.param == "sqlite" else "pg_target"
    value: str = request.getfixturevalue(name)
    return value


@pytest.fixture(autouse=True, scope="session")
def _private_user_directories(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test writes the user's own data or configuration directories (kept checkpoints,
    sealed cards, a server's signing key): they point into pytest's temporary directory, for
    this process and every `tablelog` it starts."""
    home = tmp_path_factory.mktemp("user")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(home / "data"))
        patch.setenv("XDG_CONFIG_HOME", str(home / "config"))
        yield
