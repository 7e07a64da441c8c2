"""End-to-end: creating campaigns, reading the log, choosing the database and campaign."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.e2e.transcript import (
    HEX64,
    IMPROV_DEFAULTS,
    TOKEN,
    campaigns_json,
    create,
    db_bytes,
    log_json,
    ok,
    refused,
    run,
)

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


# --- 11. version ----------------------------------------------------------------------------


def test_version(tmp_path: Path) -> None:
    from tablelog import __version__

    # $ python -m tablelog --version
    out = ok(run(tmp_path, "--version"))
    assert __version__ in out
    assert "tablelog" in out
