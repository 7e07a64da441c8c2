"""End-to-end: the real `tablelog` command line, run as a subprocess on SQLite files.

Every test starts in an empty directory (pytest's `tmp_path`) with no TABLELOG_* variables set,
so `./tablelog.db` is the default database. The tests read as transcripts: the command, then
what the contract (cli.md) says must come back.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tablelog.rules.improv import ImprovOptions

TIMEOUT_S = 60
HEX64 = re.compile(r"[0-9a-f]{64}")
# secrets.token_urlsafe(32): 43 URL-safe base64 characters.
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,}")
IMPROV_DEFAULTS: dict[str, Any] = msgspec.to_builtins(ImprovOptions())


def run(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`tablelog ARGS...` in `tmp_path`, isolated from the caller's TABLELOG_* settings."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT_S,
        check=False,
    )


# --- small assertions shared by the transcripts -------------------------------------------


def no_crash(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout


def one_line(stderr: str) -> str:
    """The stderr of a refusal: exactly one non-empty line."""
    lines = stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {stderr!r}"
    assert lines[0].strip(), f"expected a sentence on stderr, got {stderr!r}"
    return lines[0]


def refused(result: subprocess.CompletedProcess[str]) -> str:
    """Exit 1 with one sentence on stderr and no traceback; returns the sentence."""
    no_crash(result)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    return one_line(result.stderr)


def ok(result: subprocess.CompletedProcess[str]) -> str:
    no_crash(result)
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr)
    return result.stdout


def broken(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """`verify` found a broken log: exit 3, no traceback."""
    no_crash(result)
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    return result


def create(tmp_path: Path, name: str, *extra: str) -> str:
    return ok(run(tmp_path, "campaign", "create", name, "--ruleset", "improv", *extra))


def log_json(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """`tablelog log --json ARGS...`, one parsed object per line."""
    out = ok(run(tmp_path, "log", "--json", *args, env=env))
    return [json.loads(line) for line in out.splitlines()]


def campaigns_json(tmp_path: Path, *root: str) -> list[dict[str, Any]]:
    value = json.loads(ok(run(tmp_path, *root, "campaign", "list", "--json")))
    assert isinstance(value, list)
    return value


def db_bytes(path: Path) -> bytearray:
    """The SQLite file's bytes; the CLI must not leave the log in a WAL beside it."""
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, f"{wal} holds unflushed pages"
    return bytearray(path.read_bytes())


def page_size(data: bytes) -> int:
    size = int.from_bytes(data[16:18], "big")
    return 65536 if size == 1 else size


# --- 1. create, then log --json ---------------------------------------------------------


def test_create_prints_the_gm_token_and_the_log_holds_one_creation_event(tmp_path: Path) -> None:
    # $ tablelog campaign create probe --ruleset improv
    out = create(tmp_path, "probe")
    assert "probe" in out
    assert TOKEN.search(out), f"no access token in {out!r}"
    assert (tmp_path / "tablelog.db").is_file()

    # $ tablelog log --json
    out = ok(run(tmp_path, "log", "--json"))
    lines = out.splitlines()
    assert len(lines) == 1, out
    event = json.loads(lines[0])
    assert event["seq"] == 1
    assert event["type"] == "campaign.created"
    assert event["actor"] == "gm"
    assert isinstance(event["recorded_at"], int)
    assert not isinstance(event["recorded_at"], bool)
    assert HEX64.fullmatch(event["hash"]), event["hash"]
    payload = event["payload"]
    assert isinstance(payload, dict)
    assert payload["campaign"] == "probe"
    assert payload["ruleset"] == "improv"
    options = payload["options"]
    assert set(IMPROV_DEFAULTS) <= set(options), set(IMPROV_DEFAULTS) - set(options)
    for key, default in IMPROV_DEFAULTS.items():
        assert options[key] == default, (key, options[key], default)
    assert options["deck_mode"] == "recorded"


def test_create_json_gives_the_token_which_is_stored_only_as_a_digest(tmp_path: Path) -> None:
    # $ tablelog campaign create probe --ruleset improv --gm Mara --json
    out = ok(
        run(
            tmp_path, "campaign", "create", "probe", "--ruleset", "improv", "--gm", "Mara", "--json"
        )
    )
    created = json.loads(out)
    assert created["campaign"] == "probe"
    token = created["token"]
    assert TOKEN.fullmatch(token), token

    # The GM is stored in lower case and is the first event's actor.
    (event,) = log_json(tmp_path)
    assert event["actor"] == "mara"
    assert event["payload"]["gm"] == "mara"

    # Tokens are shown once and stored only as hashes: the file never holds the token itself.
    data = db_bytes(tmp_path / "tablelog.db")
    assert token.encode() not in data
    assert hashlib.sha256(token.encode()).hexdigest().encode() in data


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
    with sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True) as conn:
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


# --- 4. refusals ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def probe_db(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a database holding one campaign, `probe` (created once per module)."""
    where = tmp_path_factory.mktemp("probe")
    create(where, "probe")
    return bytes(db_bytes(where / "tablelog.db"))


def given_probe(tmp_path: Path, probe_db: bytes) -> list[dict[str, Any]]:
    """`./tablelog.db` holds campaign probe; returns its log."""
    (tmp_path / "tablelog.db").write_bytes(probe_db)
    before = log_json(tmp_path)
    assert [e["type"] for e in before] == ["campaign.created"]
    return before


def test_unknown_ruleset_is_refused_and_creates_no_campaign(tmp_path: Path) -> None:
    # $ tablelog campaign create probe --ruleset nope
    line = refused(run(tmp_path, "campaign", "create", "probe", "--ruleset", "nope"))
    assert "nope" in line
    assert "improv" in line
    assert "Traceback" not in line

    # $ tablelog campaign list --json
    if (tmp_path / "tablelog.db").exists():
        assert campaigns_json(tmp_path) == []


@pytest.mark.parametrize(
    ("args", "mentions"),
    [
        pytest.param(["--option", "nope=1"], ["nope", "joker_value"], id="unknown-option"),
        pytest.param(["--option", "joker_value=abc"], ["joker_value", "abc"], id="not-a-number"),
        pytest.param(["--option", "joker_value=1"], ["joker_value", "1"], id="out-of-range"),
        pytest.param(["--option", "lethal_fate=maybe"], ["lethal_fate", "maybe"], id="not-bool"),
        pytest.param(["--option", "suit_order=XX"], ["suit_order", "XX"], id="bad-suit-order"),
        pytest.param(["--option", "noequals"], ["noequals"], id="no-equals-sign"),
        pytest.param(["--deck-mode", "bogus"], ["bogus"], id="bad-deck-mode"),
        pytest.param(["--gm", "bad gm!"], ["bad gm!"], id="bad-gm-name"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_written(
    tmp_path: Path, args: list[str], mentions: list[str], probe_db: bytes
) -> None:
    before = given_probe(tmp_path, probe_db)

    # $ tablelog campaign create other --ruleset improv ARGS
    line = refused(run(tmp_path, "campaign", "create", "other", "--ruleset", "improv", *args))
    for word in mentions:
        assert word in line, (word, line)

    assert log_json(tmp_path) == before
    assert [c["campaign"] for c in campaigns_json(tmp_path)] == ["probe"]


@pytest.mark.parametrize(
    ("name", "mentions"),
    [
        pytest.param("probe", "probe", id="duplicate"),
        pytest.param("PROBE", "probe", id="duplicate-other-case"),
        pytest.param("bad name!", "bad name!", id="bad-name"),
        pytest.param("-leading-dash", "-leading-dash", id="leading-dash"),
        pytest.param("x" * 65, "x" * 65, id="too-long"),
    ],
)
def test_bad_or_taken_campaign_names_are_refused(
    tmp_path: Path, name: str, mentions: str, probe_db: bytes
) -> None:
    before = given_probe(tmp_path, probe_db)

    # $ tablelog campaign create NAME --ruleset improv
    line = refused(run(tmp_path, "campaign", "create", "--ruleset", "improv", "--", name))
    assert mentions in line, line

    assert log_json(tmp_path) == before
    assert [c["campaign"] for c in campaigns_json(tmp_path)] == ["probe"]


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    # $ tablelog campaign create probe          (no --ruleset)
    result = run(tmp_path, "campaign", "create", "probe")
    no_crash(result)
    assert result.returncode == 2, result.stderr
    assert "--ruleset" in result.stderr
    assert not (tmp_path / "tablelog.db").exists()

    # $ tablelog no-such-command
    result = run(tmp_path, "no-such-command")
    no_crash(result)
    assert result.returncode == 2

    # $ tablelog log --since soon
    create(tmp_path, "probe")
    result = run(tmp_path, "log", "--since", "soon")
    no_crash(result)
    assert result.returncode == 2


# --- 5. choosing the campaign and the database ---------------------------------------------


def test_two_campaigns_need_a_name(tmp_path: Path) -> None:
    create(tmp_path, "a")
    create(tmp_path, "b")

    # $ tablelog log
    line = refused(run(tmp_path, "log"))
    assert "--campaign" in line

    # $ tablelog log -c b --json
    (event,) = log_json(tmp_path, "-c", "b")
    assert event["payload"]["campaign"] == "b"
    # $ tablelog log --campaign B --json     (names are matched case-insensitively)
    (event,) = log_json(tmp_path, "--campaign", "B")
    assert event["payload"]["campaign"] == "b"

    # $ TABLELOG_CAMPAIGN=a tablelog log --json
    (event,) = log_json(tmp_path, env={"TABLELOG_CAMPAIGN": "a"})
    assert event["payload"]["campaign"] == "a"
    # $ TABLELOG_CAMPAIGN=a tablelog log -c b --json     (the option wins)
    (event,) = log_json(tmp_path, "-c", "b", env={"TABLELOG_CAMPAIGN": "a"})
    assert event["payload"]["campaign"] == "b"

    # $ tablelog log -c zzz
    line = refused(run(tmp_path, "log", "-c", "zzz"))
    assert "zzz" in line


def test_one_campaign_is_chosen_without_a_name(tmp_path: Path) -> None:
    create(tmp_path, "solo")
    (event,) = log_json(tmp_path)
    assert event["payload"]["campaign"] == "solo"


def test_db_option_and_tablelog_db_choose_the_file(tmp_path: Path) -> None:
    # $ tablelog --db other.db campaign create o --ruleset improv
    ok(run(tmp_path, "--db", "other.db", "campaign", "create", "o", "--ruleset", "improv"))
    assert (tmp_path / "other.db").is_file()
    assert not (tmp_path / "tablelog.db").exists()

    # $ tablelog --db other.db campaign list --json
    assert [c["campaign"] for c in campaigns_json(tmp_path, "--db", "other.db")] == ["o"]

    # $ TABLELOG_DB=other.db tablelog log --json
    (event,) = log_json(tmp_path, env={"TABLELOG_DB": "other.db"})
    assert event["payload"]["campaign"] == "o"

    # $ TABLELOG_DB=other.db tablelog campaign create d --ruleset improv
    ok(
        run(
            tmp_path,
            "campaign",
            "create",
            "d",
            "--ruleset",
            "improv",
            env={"TABLELOG_DB": "other.db"},
        )
    )
    assert not (tmp_path / "tablelog.db").exists()

    # $ TABLELOG_DB=other.db tablelog --db third.db campaign create t --ruleset improv
    ok(
        run(
            tmp_path,
            "--db",
            "third.db",
            "campaign",
            "create",
            "t",
            "--ruleset",
            "improv",
            env={"TABLELOG_DB": "other.db"},
        )
    )
    assert [c["campaign"] for c in campaigns_json(tmp_path, "--db", "third.db")] == ["t"]
    assert sorted(c["campaign"] for c in campaigns_json(tmp_path, "--db", "other.db")) == [
        "d",
        "o",
    ]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["log"], id="log"),
        pytest.param(["log", "--json"], id="log-json"),
        pytest.param(["campaign", "list"], id="campaign-list"),
        pytest.param(["campaign", "list", "--json"], id="campaign-list-json"),
        pytest.param(["verify"], id="verify"),
        pytest.param(["db", "current"], id="db-current"),
        pytest.param(["--db", "elsewhere.db", "log"], id="log-db-option"),
    ],
)
def test_reading_a_missing_file_is_refused_and_creates_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    # $ tablelog ARGS        (in an empty directory)
    line = refused(run(tmp_path, *args))
    assert ".db" in line
    assert list(tmp_path.iterdir()) == []


# --- 6. options are recorded ----------------------------------------------------------------


def test_deck_mode_and_options_are_recorded_in_the_first_event(tmp_path: Path) -> None:
    # $ tablelog campaign create probe --ruleset improv --deck-mode managed
    #       --option joker_value=20 --option lethal-fate=true
    create(
        tmp_path,
        "probe",
        "--deck-mode",
        "managed",
        "--option",
        "joker_value=20",
        "--option",
        "lethal-fate=true",
    )
    (event,) = log_json(tmp_path)
    options = event["payload"]["options"]
    assert options["deck_mode"] == "managed"
    assert options["joker_value"] == 20
    assert options["lethal_fate"] is True
    for key, default in IMPROV_DEFAULTS.items():
        if key not in ("deck_mode", "joker_value", "lethal_fate"):
            assert options[key] == default, key


def test_bad_deck_mode_is_refused(tmp_path: Path) -> None:
    # $ tablelog campaign create probe --ruleset improv --deck-mode bogus
    line = refused(
        run(tmp_path, "campaign", "create", "probe", "--ruleset", "improv", "--deck-mode", "bogus")
    )
    assert "bogus" in line
    # The sentence names the values allowed (cli.md: exit 1).
    assert "recorded" in line
    assert "managed" in line
    if (tmp_path / "tablelog.db").exists():
        assert campaigns_json(tmp_path) == []


# --- 7. campaign list --json ----------------------------------------------------------------


def test_campaign_list_json(tmp_path: Path) -> None:
    create(tmp_path, "beta")
    create(tmp_path, "alpha")

    # $ tablelog campaign list --json
    listed = campaigns_json(tmp_path)
    assert len(listed) == 2
    by_name = {c["campaign"]: c for c in listed}
    assert set(by_name) == {"alpha", "beta"}
    for entry in listed:
        assert entry["ruleset"] == "improv"
        assert entry["seq"] == 1

    # $ tablelog campaign list
    out = ok(run(tmp_path, "campaign", "list"))
    assert "alpha" in out
    assert "beta" in out


def test_campaign_list_on_an_empty_database(tmp_path: Path) -> None:
    # $ tablelog db upgrade ; tablelog campaign list --json
    ok(run(tmp_path, "db", "upgrade"))
    assert campaigns_json(tmp_path) == []


# --- 8. schema revision ---------------------------------------------------------------------


def test_db_current_and_upgrade(tmp_path: Path) -> None:
    from tablelog.migrations import HEAD

    create(tmp_path, "probe")

    # $ tablelog db current
    out = ok(run(tmp_path, "db", "current"))
    assert HEAD in out
    # $ tablelog db current --json
    current = json.loads(ok(run(tmp_path, "db", "current", "--json")))
    assert current["revision"] == HEAD
    assert current["head"] == HEAD

    # $ tablelog db upgrade ; tablelog db upgrade
    ok(run(tmp_path, "db", "upgrade"))
    ok(run(tmp_path, "db", "upgrade"))
    assert json.loads(ok(run(tmp_path, "db", "current", "--json")))["revision"] == HEAD
    (event,) = log_json(tmp_path)
    assert event["payload"]["campaign"] == "probe"
    ok(run(tmp_path, "verify"))


def test_db_upgrade_creates_and_migrates_a_new_file(tmp_path: Path) -> None:
    from tablelog.migrations import HEAD

    # $ tablelog --db fresh.db db upgrade ; tablelog --db fresh.db db upgrade
    ok(run(tmp_path, "--db", "fresh.db", "db", "upgrade"))
    ok(run(tmp_path, "--db", "fresh.db", "db", "upgrade"))
    current = json.loads(ok(run(tmp_path, "--db", "fresh.db", "db", "current", "--json")))
    assert current["revision"] == HEAD


# --- 9. help --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        pytest.param([], id="root"),
        pytest.param(["campaign", "create"], id="campaign-create"),
        pytest.param(["campaign", "list"], id="campaign-list"),
        pytest.param(["log"], id="log"),
        pytest.param(["verify"], id="verify"),
        pytest.param(["db", "upgrade"], id="db-upgrade"),
        pytest.param(["db", "current"], id="db-current"),
    ],
)
def test_every_command_has_help_with_an_example(tmp_path: Path, command: list[str]) -> None:
    # $ tablelog COMMAND --help
    out = ok(run(tmp_path, *command, "--help"))
    assert "Example" in out
    assert list(tmp_path.iterdir()) == []


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


# --- 11. version ----------------------------------------------------------------------------


def test_version(tmp_path: Path) -> None:
    from tablelog import __version__

    # $ python -m tablelog --version
    out = ok(run(tmp_path, "--version"))
    assert __version__ in out
    assert "tablelog" in out
