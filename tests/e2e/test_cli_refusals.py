"""End-to-end: bad input is refused in one sentence and nothing is written."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.transcript import (
    campaigns_json,
    create,
    db_bytes,
    log_json,
    no_crash,
    refused,
    run,
)

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
    assert not (tmp_path / "tablelog.db").exists(), "a refused create must not leave a file"


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


@pytest.mark.parametrize(
    ("args", "mentions"),
    [
        pytest.param(["log", "-c", ""], ["''"], id="empty-campaign"),
        pytest.param(["log", "--since", "99999999999999999999999"], ["--since"], id="huge-since"),
        pytest.param(["log", "--since", "-1"], ["--since"], id="negative-since"),
        pytest.param(
            ["verify", "--head", f"9223372036854775808:{'a' * 64}"], ["--head"], id="huge-head"
        ),
        pytest.param(["--db", "sqlite://", "log"], ["in-memory"], id="in-memory-db"),
        pytest.param(["--db", "mysql://u@h/db", "log"], ["mysql"], id="unsupported-url"),
        pytest.param(["--db", "postgresql://u@[::1/db", "log"], ["URL"], id="malformed-url"),
    ],
)
def test_bad_targets_and_numbers_are_refused(
    tmp_path: Path, probe_db: bytes, args: list[str], mentions: list[str]
) -> None:
    before = given_probe(tmp_path, probe_db)
    line = refused(run(tmp_path, *args))
    for word in mentions:
        assert word in line
    assert log_json(tmp_path) == before


def test_someone_elses_sqlite_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.db"
    with closing(sqlite3.connect(foreign)) as conn, conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    before = foreign.read_bytes()
    # $ tablelog --db notes.db campaign create probe --ruleset improv
    line = refused(run(tmp_path, "--db", "notes.db", "campaign", "create", "probe", "-r", "improv"))
    assert "not a tablelog database" in line
    # $ tablelog --db notes.db log
    refused(run(tmp_path, "--db", "notes.db", "log"))
    assert foreign.read_bytes() == before


def test_reading_a_tampered_row_is_a_refusal_pointing_at_verify(
    tmp_path: Path, probe_db: bytes
) -> None:
    given_probe(tmp_path, probe_db)
    with closing(sqlite3.connect(tmp_path / "tablelog.db")) as conn, conn:
        conn.execute("UPDATE events SET payload = 'text, not bytes' WHERE seq = 1")
    conn.close()
    # $ tablelog log
    line = refused(run(tmp_path, "log"))
    assert "tablelog verify" in line
    # $ tablelog verify
    result = run(tmp_path, "verify")
    no_crash(result)
    assert result.returncode == 3
