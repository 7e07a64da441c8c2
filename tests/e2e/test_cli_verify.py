"""End-to-end: `verify` finds every tampering and never crashes on a damaged file."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from contextlib import closing
from pathlib import Path

from tests.e2e.transcript import (
    broken,
    create,
    db_bytes,
    log_json,
    no_crash,
    ok,
    one_line,
    page_size,
    refused,
    run,
)

# --- 2. the headline: one flipped payload byte is found ----------------------------------


def test_verify_finds_one_changed_byte_in_a_payload(tmp_path: Path) -> None:
    create(tmp_path, "probe")

    # $ tablelog verify
    out = ok(run(tmp_path, "verify"))
    assert "ok" in out
    # $ tablelog verify --json
    report = json.loads(ok(run(tmp_path, "verify", "--json")))
    assert report == {"ok": True, "campaigns": 1, "events": 1, "first_bad": None}

    # Change one byte inside the stored payload, behind tablelog's back.
    db = tmp_path / "tablelog.db"
    data = db_bytes(db)
    marker = b'"campaign":"probe"'
    assert data.count(marker) == 1
    at = data.index(marker) + len(b'"campaign":"')
    assert data[at : at + 1] == b"p"
    data[at] = ord("P")
    db.write_bytes(bytes(data))

    # $ tablelog verify
    result = broken(run(tmp_path, "verify"))
    line = one_line(result.stderr)
    assert "probe" in line
    assert re.search(r"\bseq 1\b", line), line

    # $ tablelog verify --json
    result = broken(run(tmp_path, "verify", "--json"))
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["campaigns"] == 1
    bad = report["first_bad"]
    assert bad["campaign"] == "probe"
    assert bad["seq"] == 1
    assert isinstance(bad["reason"], str)
    assert bad["reason"]


def test_verify_names_the_broken_campaign_among_several(tmp_path: Path) -> None:
    create(tmp_path, "alpha")
    create(tmp_path, "beta")
    db = tmp_path / "tablelog.db"
    data = db_bytes(db)
    at = data.index(b'"campaign":"beta"') + len(b'"campaign":"')
    data[at] = ord("B")
    db.write_bytes(bytes(data))

    # $ tablelog verify --json
    report = json.loads(broken(run(tmp_path, "verify", "--json")).stdout)
    assert report["first_bad"]["campaign"] == "beta"
    assert report["first_bad"]["seq"] == 1

    # $ tablelog verify -c alpha   (the intact campaign on its own)
    report = json.loads(ok(run(tmp_path, "verify", "-c", "alpha", "--json")))
    assert report == {"ok": True, "campaigns": 1, "events": 1, "first_bad": None}


# --- 3. corruption beyond payloads never crashes -------------------------------------------


def test_garbage_from_page_2_onwards_is_a_broken_log_not_a_crash(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    db = tmp_path / "tablelog.db"
    data = db_bytes(db)
    size = page_size(data)
    assert len(data) > 2 * size
    data[size:] = random.Random(2).randbytes(len(data) - size)
    db.write_bytes(bytes(data))

    # $ tablelog verify
    result = broken(run(tmp_path, "verify"))
    one_line(result.stderr)

    # $ tablelog verify --json
    result = broken(run(tmp_path, "verify", "--json"))
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["first_bad"] is not None

    # Reading commands refuse the damaged file with one sentence.
    for args in (("log",), ("campaign", "list"), ("log", "--json")):
        refused(run(tmp_path, *args))


def test_garbage_in_any_single_page_is_never_a_crash(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    db = tmp_path / "tablelog.db"
    pristine = bytes(db_bytes(db))
    size = page_size(pristine)
    with closing(sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)) as conn, conn:
        roots = dict(conn.execute("SELECT name, rootpage FROM sqlite_master").fetchall())
    conn.close()
    # Pages `verify` must read: the schema (page 1), the campaigns and events tables.
    log_pages = {1, roots["campaigns"], roots["events"]}

    for page in range(1, len(pristine) // size + 1):
        data = bytearray(pristine)
        data[(page - 1) * size : page * size] = random.Random(page).randbytes(size)
        db.write_bytes(bytes(data))
        for leftover in (tmp_path / "tablelog.db-wal", tmp_path / "tablelog.db-shm"):
            leftover.unlink(missing_ok=True)

        # $ tablelog verify --json
        result = run(tmp_path, "verify", "--json")
        no_crash(result)
        assert result.returncode in (0, 3), (page, result.returncode, result.stderr)
        report = json.loads(result.stdout)
        assert report["ok"] is (result.returncode == 0), (page, report)
        if page in log_pages:
            assert result.returncode == 3, (page, report)

        # $ tablelog log
        result = run(tmp_path, "log")
        no_crash(result)
        assert result.returncode in (0, 1), (page, result.returncode, result.stderr)
        if result.returncode == 1:
            one_line(result.stderr)


def test_a_file_that_is_not_a_database_is_a_broken_log(tmp_path: Path) -> None:
    (tmp_path / "x.db").write_text("these are my notes, not a database\n" * 200)

    # $ tablelog --db x.db verify
    result = broken(run(tmp_path, "--db", "x.db", "verify"))
    one_line(result.stderr)

    # $ tablelog --db x.db verify --json
    report = json.loads(broken(run(tmp_path, "--db", "x.db", "verify", "--json")).stdout)
    assert report["ok"] is False
    assert report["first_bad"]["reason"]

    # Other commands refuse it; none of them writes to it.
    refused(run(tmp_path, "--db", "x.db", "log"))
    refused(run(tmp_path, "--db", "x.db", "campaign", "create", "probe", "--ruleset", "improv"))
    assert (tmp_path / "x.db").read_text() == "these are my notes, not a database\n" * 200


def test_a_schema_entry_with_a_non_utf8_name_is_a_broken_log(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    db = tmp_path / "tablelog.db"
    data = db_bytes(db)
    # The schema row of table `events`: its name becomes invalid UTF-8, its SQL unparsable, so
    # SQLite reports "malformed database schema (<name>)" with the raw bytes in the message.
    row = data.index(b"tableeventsevents")
    data[row + 5 : row + 11] = b"\xa9vent\xff"
    sql = data.index(b"CREATE TABLE events")
    data[sql : sql + 6] = b"CRXATE"
    db.write_bytes(bytes(data))

    # $ tablelog verify
    result = broken(run(tmp_path, "verify"))
    one_line(result.stderr)
    # $ tablelog log
    refused(run(tmp_path, "log"))


# --- 10. verify --head ----------------------------------------------------------------------


def test_verify_head(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    (event,) = log_json(tmp_path)
    head = f"{event['seq']}:{event['hash']}"

    # $ tablelog verify --head 1:<hash from log --json>
    ok(run(tmp_path, "verify", "--head", head))
    report = json.loads(ok(run(tmp_path, "verify", "--head", head, "--json")))
    assert report["ok"] is True

    # $ tablelog verify --head 1:<another 64-hex hash>
    wrong = "0" * 63 + ("1" if event["hash"][-1] != "1" else "2")
    result = broken(run(tmp_path, "verify", "--head", f"1:{wrong}"))
    assert "1" in one_line(result.stderr)
    report = json.loads(broken(run(tmp_path, "verify", "--head", f"1:{wrong}", "--json")).stdout)
    assert report["ok"] is False
    assert report["first_bad"]["seq"] == 1

    # $ tablelog verify --head 2:<the hash of seq 1>
    broken(run(tmp_path, "verify", "--head", f"2:{event['hash']}"))

    # Malformed heads are refused, not a broken log.
    for bad in ("nonsense", "1:abc", f"1:{event['hash'][:-1]}", f"x:{event['hash']}", "1:"):
        # $ tablelog verify --head BAD
        line = refused(run(tmp_path, "verify", "--head", bad))
        assert "--head" in line


def test_verify_an_unknown_campaign_is_refused(tmp_path: Path) -> None:
    create(tmp_path, "probe")
    # $ tablelog verify -c prbe
    line = refused(run(tmp_path, "verify", "-c", "prbe"))
    assert "prbe" in line


def test_verify_in_worker_processes_reports_what_one_process_does(tmp_path: Path) -> None:
    for name in ("alpha", "beta", "gamma"):
        create(tmp_path, name)
    db = tmp_path / "tablelog.db"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE events SET actor = 'mallory' WHERE campaign_id = 'beta'")
    conn.close()

    # $ tablelog verify --workers 2 --json   (and the same walked in one process)
    reports = [
        json.loads(broken(run(tmp_path, "verify", "--workers", workers, "--json")).stdout)
        for workers in ("2", "1")
    ]
    assert reports[0] == reports[1]
    assert reports[0]["first_bad"]["campaign"] == "beta"
    assert reports[0]["first_bad"]["seq"] == 1
