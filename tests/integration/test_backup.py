"""Backups a host can trust: `tablelog backup FILE` copies a SQLite log while a real service
keeps writing to it, and the copy is one moment of the live log (every chain verifies, every
campaign a prefix of the live one); a PostgreSQL database goes through pg_dump -Fc, createdb
and pg_restore, and verifies after the restore; refusals write nothing and say one sentence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from sqlalchemy.engine import make_url

from tablelog.commands import database
from tablelog.commands.backup import backup
from tablelog.commands.table import execute
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store
from tests.e2e.transcript import broken, create, ok, one_line, refused, run
from tests.support import tables
from tests.support.server import running_service

CAMPAIGNS = ("heist", "raid")
# Long narrations before the service starts: a file of several MiB, which the backup copies
# in several steps (storage/backup.py, STEP_PAGES) while the writers go on.
FILL, FILL_TEXT = 1200, 3000
TIMEOUT_S = 120


def _live_log(target: str) -> dict[str, str]:
    """Two campaigns with a table in play in a migrated `target`; each one's GM token."""
    database.upgrade(target)
    store = open_store(target)
    try:
        tokens = {name: tables.table_in_play(store, name) for name in CAMPAIGNS}
        for i in range(FILL):
            text = f"{i} " + "x" * FILL_TEXT
            execute(store, CAMPAIGNS[i % 2], c.Narrate(conflict="c1", side="Riso", text=text))
    finally:
        store.close()
    return tokens


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("serve-"))


# --- 1. SQLite: a copy taken while the service writes --------------------------------------


def test_backup_while_the_service_writes_is_one_moment_of_the_live_log(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    copy = tmp_path / "backups" / "copy.db"
    copy.parent.mkdir()
    tokens = _live_log(str(live))
    acked: list[tuple[float, str, int]] = []  # (when, campaign, seq) of each write answered
    failures: list[str] = []
    stop = threading.Event()

    def writer(url: str, campaign: str) -> None:
        headers = {"Authorization": f"Bearer {tokens[campaign]}"}
        with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
            i = 0
            while not stop.is_set():
                done = http.post(
                    f"/campaigns/{campaign}/improv/conflicts/c1/narrations",
                    json={"side": "riso", "text": f"live {i}"},
                )
                if done.status_code != 201:
                    failures.append(f"{campaign} {i}: {done.status_code} {done.text}")
                    return
                acked.append((time.monotonic(), campaign, done.json()["seq"]))
                i += 1

    with running_service(str(live), tmp_path) as url:
        writers = [threading.Thread(target=writer, args=(url, name)) for name in CAMPAIGNS]
        for thread in writers:
            thread.start()
        try:
            deadline = time.monotonic() + TIMEOUT_S
            while len(acked) < 20 and not failures and time.monotonic() < deadline:
                time.sleep(0.05)
            # $ tablelog --db live.db backup backups/copy.db --json   (the service writing)
            began = time.monotonic()
            result = run(tmp_path, "--db", str(live), "backup", str(copy), "--json")
            ended = time.monotonic()
            time.sleep(0.2)  # and the service goes on after it
        finally:
            stop.set()
            for thread in writers:
                thread.join(timeout=TIMEOUT_S)
    assert failures == []
    report = json.loads(ok(result))
    assert report["ok"] is True
    assert report["first_bad"] is None
    assert report["file"] == str(copy)
    assert report["campaigns"] == 2
    assert report["bytes"] == copy.stat().st_size > 4 * 1024 * 1024
    during = [a for a in acked if began <= a[0] <= ended]
    assert during, "no write was answered while the backup ran"
    # Nothing beside the copy: no temporary file, no write-ahead log.
    assert _listing(copy.parent) == ["copy.db"]

    # $ tablelog --db sqlite:///.../copy.db verify --json
    verified = json.loads(ok(run(tmp_path, "--db", f"sqlite:///{copy}", "verify", "--json")))
    assert verified == {
        "ok": True,
        "campaigns": 2,
        "events": report["events"],
        "first_bad": None,
    }

    # The copy is one moment of the live log: each campaign a prefix of the live one.
    stores: list[EventStore] = [open_store(str(live)), open_store(str(copy))]
    try:
        now, then = stores
        copied_total = 0
        for campaign in CAMPAIGNS:
            live_events, copied = now.read(campaign), then.read(campaign)
            assert 0 < len(copied) <= len(live_events)
            assert copied == live_events[: len(copied)]
            head = then.head(campaign)
            assert head is not None
            assert (head.seq, head.hash) == (copied[-1].seq, copied[-1].hash)
            copied_total += len(copied)
        assert copied_total == report["events"]
        live_total = sum(len(now.read(name)) for name in CAMPAIGNS)
        assert live_total > copied_total  # the writes after the copy's moment are not in it
    finally:
        for store in stores:
            store.close()


class _WritesBetweenSteps:
    """A `Progress` that commits a narration through a store of its own after every step
    of the copy: each lands in the live log while the copy is half made."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.copying = False
        self.written = 0

    def start(self, total: int | None, description: str) -> None:
        self.copying = description.startswith("copying")

    def advance(self, count: int = 1) -> None:
        if self.copying:
            text = f"between steps {self.written}"
            execute(self.store, "heist", c.Narrate(conflict="c1", side="Riso", text=text))
            self.written += 1


def test_the_copy_is_the_log_as_it_stood_when_the_copy_began(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    _live_log(str(live))
    store = open_store(str(live))
    try:
        before = {name: store.read(name) for name in CAMPAIGNS}
        writes = _WritesBetweenSteps(store)
        report = backup(str(live), tmp_path / "copy.db", progress=writes)
        after = {name: store.read(name) for name in CAMPAIGNS}
    finally:
        store.close()
    assert report.ok
    assert writes.written >= 2  # the copy took several steps, with a commit after each
    assert len(after["heist"]) == len(before["heist"]) + writes.written
    copied = open_store(str(tmp_path / "copy.db"))
    try:
        # Not restarted by those commits, nor holding any of them: the moment it began.
        assert {name: copied.read(name) for name in CAMPAIGNS} == before
    finally:
        copied.close()
    assert report.events == sum(len(events) for events in before.values())


def test_a_copy_that_fails_verification_is_removed(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    db = tmp_path / "tablelog.db"
    data = bytearray(db.read_bytes())
    at = data.index(b'"campaign":"probe"') + len(b'"campaign":"')
    data[at] = ord("P")  # one byte changed behind tablelog's back
    db.write_bytes(bytes(data))
    before = _listing(tmp_path)

    # $ tablelog backup copy.db
    result = broken(run(tmp_path, "backup", "copy.db"))
    line = one_line(result.stderr)
    assert "probe" in line
    assert "seq 1" in line
    assert "copy.db" in line
    assert _listing(tmp_path) == before

    # $ tablelog backup copy.db --json
    result = broken(run(tmp_path, "backup", "copy.db", "--json"))
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["first_bad"]["campaign"] == "probe"
    assert report["first_bad"]["seq"] == 1
    assert _listing(tmp_path) == before


def test_force_replaces_an_existing_file_with_a_checked_copy(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    (tmp_path / "copy.db").write_text("yesterday's backup\n", encoding="utf-8")

    # $ tablelog backup copy.db --force
    out = ok(run(tmp_path, "backup", "copy.db", "--force"))
    assert out.startswith("backed up tablelog.db to copy.db: 1 campaign, 1 event, ")
    assert "every hash chain in the copy checked and intact" in out
    assert _listing(tmp_path) == ["copy.db", "tablelog.db"]
    verified = json.loads(ok(run(tmp_path, "--db", "copy.db", "verify", "--json")))
    assert verified == {"ok": True, "campaigns": 1, "events": 1, "first_bad": None}


# --- 2. PostgreSQL: the recipe a host follows ------------------------------------------------


def _tools() -> None:
    missing = [t for t in ("pg_dump", "pg_restore", "createdb", "dropdb") if not shutil.which(t)]
    if missing:
        message = f"the PostgreSQL client tools are missing: {', '.join(missing)}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def _tool(*args: str, password: str | None = None) -> None:
    env = {**os.environ, **({"PGPASSWORD": password} if password else {})}
    done = subprocess.run(
        args, capture_output=True, text=True, timeout=TIMEOUT_S, check=False, env=env
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)


@pytest.mark.postgresql
def test_pg_dump_createdb_pg_restore_then_verify(pg_target: str, tmp_path: Path) -> None:
    _tools()
    ok(run(tmp_path, "--db", pg_target, "db", "upgrade"))
    store = open_store(pg_target)
    try:
        for name in CAMPAIGNS:
            tables.table_in_play(store, name)
            for i in range(20):
                execute(store, name, c.Narrate(conflict="c1", side="Riso", text=f"line {i}"))
    finally:
        store.close()
    source = json.loads(ok(run(tmp_path, "--db", pg_target, "verify", "--json")))
    assert source["ok"] is True
    assert source["campaigns"] == 2

    # The fixture's database is a fresh schema in the test server's database: the dump is of
    # that schema (-n), as a host's is of its whole database.
    url = make_url(pg_target)
    options = str(url.query["options"])
    schema = unquote(options).removeprefix("-csearch_path=")
    libpq = url.set(drivername="postgresql", query={}).render_as_string(hide_password=False)
    connection = [f"--host={url.host or '127.0.0.1'}", f"--port={url.port or 5432}"]
    if url.username:
        connection.append(f"--username={url.username}")
    password = None if url.password is None else str(url.password)
    dump = tmp_path / "tablelog.dump"
    restored = f"tl_restored_{uuid.uuid4().hex[:12]}"

    # $ pg_dump -Fc -f tablelog.dump postgresql://...
    _tool("pg_dump", "-Fc", "-n", schema, "-f", str(dump), f"--dbname={libpq}", password=password)
    assert dump.stat().st_size > 0
    # $ createdb tablelog_restored && pg_restore --exit-on-error -d ... tablelog.dump
    _tool("createdb", *connection, restored, password=password)
    try:
        restored_url = url.set(drivername="postgresql", database=restored, query={})
        _tool(
            "pg_restore",
            "--exit-on-error",
            "--no-owner",
            f"--dbname={restored_url.render_as_string(hide_password=False)}",
            str(dump),
            password=password,
        )
        # $ tablelog --db postgresql+psycopg://.../tablelog_restored verify --json
        target = url.set(database=restored).render_as_string(hide_password=False)
        report = json.loads(ok(run(tmp_path, "--db", target, "verify", "--json")))
        assert report == {**source, "ok": True, "first_bad": None}
        for name in CAMPAIGNS:
            one = json.loads(ok(run(tmp_path, "--db", target, "verify", "-c", name, "--json")))
            assert one["ok"] is True
            assert one["campaigns"] == 1
    finally:
        _tool("dropdb", *connection, "--if-exists", "--force", restored, password=password)


# --- 3. refusals: one sentence, nothing written ----------------------------------------------


def test_an_existing_file_is_refused_and_kept(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    kept = tmp_path / "copy.db"
    kept.write_text("yesterday's backup\n", encoding="utf-8")
    before = _listing(tmp_path)

    # $ tablelog backup copy.db
    sentence = refused(run(tmp_path, "backup", "copy.db"))
    assert "copy.db exists" in sentence
    assert "--force" in sentence
    assert kept.read_text(encoding="utf-8") == "yesterday's backup\n"
    assert _listing(tmp_path) == before


def test_a_missing_directory_is_refused(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    before = _listing(tmp_path)

    # $ tablelog backup nowhere/copy.db
    sentence = refused(run(tmp_path, "backup", "nowhere/copy.db", "--json"))
    assert "no directory" in sentence
    assert "nowhere" in sentence
    assert _listing(tmp_path) == before


def test_postgresql_is_refused_with_the_way_to_back_it_up(tmp_path: Path) -> None:
    # No server answers here: the refusal comes before any connection.
    result = run(tmp_path, "--db", "postgresql+psycopg://host@127.0.0.1:1/log", "backup", "x.db")
    sentence = refused(result)
    assert "pg_dump" in sentence
    assert "Hosting" in sentence
    assert _listing(tmp_path) == []


def test_the_live_file_itself_is_refused_even_with_force(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    before = (tmp_path / "tablelog.db").read_bytes()

    # $ tablelog backup tablelog.db --force
    sentence = refused(run(tmp_path, "backup", "tablelog.db", "--force"))
    assert "being backed up" in sentence
    assert (tmp_path / "tablelog.db").read_bytes() == before
    assert _listing(tmp_path) == ["tablelog.db"]


def test_a_file_beside_the_live_one_is_refused_even_with_force(tmp_path: Path) -> None:
    """Its write-ahead log, its shared-memory file, its journal: a copy there would wreck the
    live database (found by a host's trial)."""
    create(tmp_path, "probe")
    before = _listing(tmp_path)
    for companion in ("tablelog.db-wal", "tablelog.db-shm", "tablelog.db-journal"):
        # $ tablelog backup tablelog.db-wal --force
        sentence = refused(run(tmp_path, "backup", companion, "--force"))
        assert "being backed up" in sentence, companion
        assert _listing(tmp_path) == before
