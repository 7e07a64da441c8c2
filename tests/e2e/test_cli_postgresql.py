"""The real CLI against PostgreSQL: a server is migrated explicitly, then used like a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.transcript import ok, refused, run

pytestmark = pytest.mark.postgresql


def test_a_server_campaign_from_upgrade_to_verify(tmp_path: Path, pg_target: str) -> None:
    # $ tablelog --db URL campaign create probe --ruleset improv   (before any migration)
    line = refused(run(tmp_path, "--db", pg_target, "campaign", "create", "probe", "-r", "improv"))
    assert "tablelog db upgrade" in line
    # $ tablelog --db URL db upgrade; tablelog --db URL db current --json
    ok(run(tmp_path, "--db", pg_target, "db", "upgrade"))
    current = json.loads(ok(run(tmp_path, "--db", pg_target, "db", "current", "--json")))
    assert current["current"] is True
    # $ tablelog campaign create probe --ruleset improv; tablelog log --json   (TABLELOG_DB)
    env = {"TABLELOG_DB": pg_target}
    created = json.loads(
        ok(run(tmp_path, "campaign", "create", "probe", "-r", "improv", "--json", env=env))
    )
    lines = ok(run(tmp_path, "log", "--json", env=env)).splitlines()
    assert len(lines) == 1
    event = json.loads(lines[0])
    assert (event["seq"], event["type"], event["hash"]) == (1, "campaign.created", created["hash"])
    # $ tablelog verify --json --head 1:HASH
    report = json.loads(
        ok(run(tmp_path, "verify", "--json", "--head", f"1:{created['hash']}", env=env))
    )
    assert report == {"ok": True, "campaigns": 1, "events": 1, "first_bad": None}
    assert not list(Path(tmp_path).iterdir()), "a server target must not create local files"
