"""`state --as NAME` and `show --as NAME` on a local database, for every ruleset: NAME is the
GM, a player or an observer of the campaign; any other name is refused (exit 1, one
sentence naming it and who may be named), where it used to show an outsider's view under a
name nobody holds (issue 26, item 8a)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablelog import rulesets
from tests.e2e.transcript import ok, refused, run


@pytest.mark.parametrize("ruleset", rulesets.names())
def test_as_names_a_seat_of_the_campaign_or_is_refused(tmp_path: Path, ruleset: str) -> None:
    ok(run(tmp_path, "demo", "--ruleset", ruleset))
    ok(run(tmp_path, "invite", "Yan"))  # a player (joins the campaign)
    ok(run(tmp_path, "invite", "olga", "--role", "observer"))
    now = json.loads(ok(run(tmp_path, "state", "--json")))
    campaign, conflict = now["campaign"], next(iter(now["conflicts"]))

    line = refused(run(tmp_path, "state", "--as", "Zed"))
    assert line.startswith(f"unknown-viewer: Zed is no player or observer of campaign {campaign}")
    assert "yan" in line
    assert "an observer (olga)" in line
    assert line.endswith("or the GM (gm)")
    shown = refused(run(tmp_path, ruleset, "show", conflict, "--as", "zed"))
    assert shown.startswith("unknown-viewer: zed is no player or observer")
    # An empty name is no seat either (it once gave the operator's whole view).
    for blank in ("", "  "):
        assert refused(run(tmp_path, "state", "--as", blank)).startswith("bad-name: ")
        assert refused(run(tmp_path, ruleset, "show", conflict, "--as", blank)).startswith(
            "bad-name: "
        )

    for seat in ("gm", "YAN", "olga"):
        seen = json.loads(ok(run(tmp_path, "state", "--as", seat, "--json")))
        assert seen["seq"] == now["seq"]
        ok(run(tmp_path, ruleset, "show", conflict, "--as", seat))
