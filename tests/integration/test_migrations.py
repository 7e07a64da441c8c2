"""Alembic revisions: round trips and drift on both backends, and first use of a new file."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from tablelog.commands import database
from tablelog.commands.campaigns import create_campaign, list_campaigns
from tablelog.errors import SchemaMismatch
from tablelog.migrations import HEAD
from tablelog.storage import migrate, open_store
from tablelog.storage.engine import resolve_url
from tablelog.storage.schema import metadata

TABLES = {
    "alembic_version",
    "access_tokens",
    "rng_seeds",
    "outbox",
    "webhooks",
    "player_contacts",
    "notices",
    "discord_channels",
    "discord_codes",
    "campaigns",
    "events",
    "idempotency",
    "service_tokens",
    "snapshots",
    "limit_hits",
    "open_feeds",
    "feed_leases",
}


def tables(target: str) -> set[str]:
    engine = create_engine(resolve_url(target))
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_the_baked_head_is_the_head_of_the_revisions() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config())
    assert script.get_current_head() == HEAD
    assert migrate.known_revisions()[-1] == HEAD


def test_upgrade_downgrade_upgrade_round_trips(target: str) -> None:
    assert database.upgrade(target).revision == HEAD
    assert tables(target) == TABLES
    store = open_store(target)
    try:
        assert migrate.downgrade(store.engine, "base") is None
        assert tables(target) == {"alembic_version"}
        assert database.current(target).revision is None
    finally:
        store.close()
    assert database.upgrade(target).revision == HEAD
    assert tables(target) == TABLES
    assert database.current(target).is_current


def test_the_revisions_match_the_models(target: str) -> None:
    database.upgrade(target)
    engine = create_engine(resolve_url(target))
    try:
        with engine.connect() as conn:
            drift = compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()
    assert drift == []


def test_upgrade_is_safe_to_repeat(target: str) -> None:
    assert database.upgrade(target).revision == HEAD
    assert database.upgrade(target).revision == HEAD


def test_an_open_database_pays_one_read_not_an_alembic_run(
    sqlite_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    database.upgrade(sqlite_target)

    def no_alembic(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("Alembic ran on an up-to-date database")

    monkeypatch.setattr(migrate, "upgrade", no_alembic)
    monkeypatch.setattr("alembic.command.upgrade", no_alembic)
    store = open_store(sqlite_target)
    store.close()


@pytest.mark.postgresql
def test_a_server_is_not_migrated_behind_the_users_back(pg_target: str) -> None:
    with pytest.raises(SchemaMismatch, match="tablelog db upgrade"):
        open_store(pg_target)
    assert tables(pg_target) == set()


def test_a_revision_from_a_newer_tablelog_is_refused(target: str) -> None:
    database.upgrade(target)
    engine = create_engine(resolve_url(target))
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(SchemaMismatch, match="newer tablelog"):
        open_store(target)


def test_a_new_file_is_created_and_migrated_on_first_use(sqlite_target: str) -> None:
    store = open_store(sqlite_target, create=True)
    try:
        create_campaign(store, "first", ruleset="improv")
        assert [c.campaign for c in list_campaigns(store)] == ["first"]
    finally:
        store.close()
    assert database.current(sqlite_target).is_current


def test_processes_starting_at_once_on_a_new_file_migrate_it_once(tmp_path: Path) -> None:
    db = tmp_path / "race.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tablelog",
                "--db",
                str(db),
                "campaign",
                "create",
                f"c{i}",
                "--ruleset",
                "improv",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(6)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    store = open_store(str(db))
    try:
        assert [c.campaign for c in list_campaigns(store)] == [f"c{i}" for i in range(6)]
    finally:
        store.close()


# Every revision before head: a database left at each must upgrade with its log intact.
REVISIONS = ["0001", "0002", "0003"]


def fixture_at(revision: str, target: str) -> None:
    """A database at `revision` holding a real campaign: the demo's bar fight and an
    invitation (58 events) and their access tokens, written at head and downgraded (the
    revisions after 0001 only add tables, so the rows are what `revision` stores)."""
    from tablelog.commands import access
    from tablelog.commands.demo import write_demo

    database.upgrade(target)
    store = open_store(target)
    try:
        write_demo(store, "bar-fight")
        access.invite(store, "bar-fight", "susan")
    finally:
        store.close()
    engine = create_engine(resolve_url(target))
    try:
        assert migrate.downgrade(engine, revision) == revision
    finally:
        engine.dispose()


@pytest.mark.parametrize("revision", REVISIONS)
def test_a_database_of_an_older_revision_upgrades_intact(target: str, revision: str) -> None:
    """A database of each older revision upgrades to head with every event intact and
    verifying, and the campaign plays on."""
    from tablelog.commands.log import verify
    from tablelog.commands.table import execute
    from tablelog.rulesets.improv.rules import commands as c

    fixture_at(revision, target)
    before = open_store(target, check_schema=False)
    try:
        stored = before.read("bar-fight")
    finally:
        before.close()
    assert len(stored) == 58
    assert database.upgrade(target).revision == HEAD
    assert tables(target) == TABLES
    store = open_store(target)
    try:
        assert store.read("bar-fight") == stored
        assert verify(store).ok
        execute(store, "bar-fight", c.EndSession())
        assert verify(store).ok
    finally:
        store.close()


# Files written by earlier tablelog versions themselves, committed (tests/fixtures/README.md).
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
WRITTEN_AT = {
    "0001": {"bar-fight": 58},
    "0002": {"bar-fight": 58, "pub": 13},
    "0003": {"bar-fight": 58, "pub": 13},
    "0004": {"bar-fight": 58},
    "0005": {"bar-fight": 58},
    "0006": {"bar-fight": 58},
    "0007": {"bar-fight": 58},
    "0008": {"bar-fight": 58},
    "0009": {"bar-fight": 58},
    "0010": {"bar-fight": 58},
    "0011": {"bar-fight": 58},
    "0012": {"bar-fight": 58},
}


def stored_rows(db: Path) -> list[tuple[object, ...]]:
    """Every event row exactly as the file holds it, read without tablelog."""
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(db)) as conn, conn:
        return conn.execute(
            "SELECT campaign_id, seq, event_id, type, schema_version, actor, recorded_at, "
            "payload, prev_hash, hash FROM events ORDER BY campaign_id, seq"
        ).fetchall()


def test_every_older_revision_has_its_committed_file() -> None:
    revisions = ScriptDirectory.from_config(migrate.alembic_config()).walk_revisions()
    committed = {p.name for p in FIXTURES.glob("*.db.gz")}
    assert {f"revision-{r}.db.gz" for r in WRITTEN_AT} == committed
    assert set(WRITTEN_AT) == {s.revision for s in revisions if s.revision != HEAD}


@pytest.mark.parametrize("revision", sorted(WRITTEN_AT))
def test_a_file_written_by_an_older_revision_upgrades_intact(revision: str, tmp_path: Path) -> None:
    copy = tmp_path / "old.db"
    copy.write_bytes(gzip.decompress((FIXTURES / f"revision-{revision}.db.gz").read_bytes()))
    before = stored_rows(copy)
    engine = create_engine(f"sqlite:///{copy}")
    try:
        assert migrate.current_revision(engine) == revision
    finally:
        engine.dispose()
    # Opening it is enough: a SQLite file is migrated on first use by a newer tablelog.
    from tablelog.commands.log import verify
    from tablelog.commands.table import execute
    from tablelog.rules.common import EndSession

    store = open_store(str(copy))
    try:
        assert {h.name: h.seq for h in store.campaigns()} == WRITTEN_AT[revision]
        assert verify(store).ok
        execute(store, "bar-fight", EndSession())  # and the campaign plays on
        assert verify(store).ok
    finally:
        store.close()
    assert tables(str(copy)) == TABLES
    after = stored_rows(copy)
    assert [row for row in after if row[:2] != ("bar-fight", 59)] == before  # byte for byte


def test_a_web_session_of_revision_0007_lives_on_counted_from_its_sign_in(tmp_path: Path) -> None:
    """Revision 0008 records when a session was last used; a session signed in before it has
    no such record, and its idle time counts from its sign-in."""
    from tablelog.commands import sessions

    copy = tmp_path / "old.db"
    copy.write_bytes(gzip.decompress((FIXTURES / "revision-0007.db.gz").read_bytes()))
    store = open_store(str(copy))
    try:
        listed = sessions.listed(store, "bar-fight")
    finally:
        store.close()
    assert [(s.player, s.role) for s in listed] == [("bob", "player")]
    assert listed[0].last_used_at == listed[0].created_at


def test_the_admin_token_of_revision_0009_stays_a_bearer_token(tmp_path: Path) -> None:
    """Revision 0010 gives service tokens kinds (the admin page's links and sessions); the
    admin token a database held before is a bearer token still, and an admin-page link
    printed now leaves it working."""
    from tablelog.commands.admin_web import new_admin_link, open_admin_session
    from tablelog.storage.access import live_service_tokens

    copy = tmp_path / "old.db"
    copy.write_bytes(gzip.decompress((FIXTURES / "revision-0009.db.gz").read_bytes()))
    store = open_store(str(copy))
    try:
        with store.service_rows() as conn:
            assert live_service_tokens(conn, "admin") == 1
        open_admin_session(store, new_admin_link(store))
        with store.service_rows() as conn:
            assert live_service_tokens(conn, "admin") == 1
    finally:
        store.close()


def test_a_database_of_a_newer_tablelog_is_said_so_and_never_upgraded(tmp_path: Path) -> None:
    """`db current` and `db upgrade` on a database a newer tablelog wrote: the advice is to
    upgrade tablelog, and the upgrade refuses in one sentence (it was a CommandError)."""
    import sqlite3

    from tests.e2e.transcript import ok, refused, run

    ok(run(tmp_path, "campaign", "create", "probe", "--ruleset", "improv"))
    with sqlite3.connect(tmp_path / "tablelog.db") as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    said = ok(run(tmp_path, "db", "current"))
    assert "9999" in said
    assert "newer tablelog" in said
    assert "db upgrade" not in said
    sentence = refused(run(tmp_path, "db", "upgrade"))
    assert "newer tablelog" in sentence
    assert "9999" in sentence
    with sqlite3.connect(tmp_path / "tablelog.db") as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("9999",)]
