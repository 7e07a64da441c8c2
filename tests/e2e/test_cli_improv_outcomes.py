"""End-to-end: who beats whom, and a managed-deck campaign that cannot get stuck (issue 14,
items 1 and 3), typed as a GM would through the real CLI on a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.transcript import log_json, ok, refused, run


def test_an_unopposed_stake_cannot_give_a_card_and_flip_the_result(tmp_path: Path) -> None:
    ok(run(tmp_path, "campaign", "create", "bar", "--ruleset", "improv"))
    ok(run(tmp_path, "improv", "character", "bob", "Kit"))
    ok(run(tmp_path, "improv", "character", "susan", "Diana"))
    ok(run(tmp_path, "session", "start"))
    ok(run(tmp_path, "improv", "open", "--id", "x", "--extended", "--rounds", "2"))
    ok(run(tmp_path, "improv", "stake", "x", "riso", "Riso gets away", "--gm"))
    ok(run(tmp_path, "improv", "stake", "x", "goons", "The goons wreck the bar", "--gm"))
    ok(run(tmp_path, "improv", "stake", "x", "kit", "Kit captures Riso", "--opposes", "riso"))
    ok(run(tmp_path, "improv", "stake", "x", "diana", "Diana too", "--opposes", "riso"))
    for rnd in (("9H", "8S", "2C"), ("10H", "7S", "3D")):
        for side, card in zip(("kit", "riso", "diana"), rnd, strict=True):
            ok(run(tmp_path, "improv", "play", "x", side, card))
        if rnd[0] == "10H":
            ok(run(tmp_path, "improv", "play", "x", "goons", "3S"))
        ok(run(tmp_path, "improv", "reveal", "x"))
    shown = json.loads(ok(run(tmp_path, "improv", "show", "x", "--json")))
    assert shown["rounds"][1]["winners"] == ["kit", "riso"]
    assert shown["sides"]["goons"]["victory"] == []
    before = log_json(tmp_path)

    line = refused(run(tmp_path, "improv", "give", "x", "goons", "riso", "3S"))

    assert line.startswith("no-victory-card: goons holds no victory card")
    assert log_json(tmp_path) == before
    out = ok(run(tmp_path, "improv", "close", "x"))
    assert "kit beats riso, riso beats diana" in out
    state = json.loads(ok(run(tmp_path, "state", "--json")))
    assert state["conflicts"]["x"]["beats"] == [["kit", "riso"], ["riso", "diana"]]
    audit = json.loads(ok(run(tmp_path, "audit", "--json")))
    assert audit["discrepancies"] == []
    ok(run(tmp_path, "verify"))
