"""End-to-end: an Improv campaign through the real CLI on a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.transcript import log_json, ok, refused, run


def test_demo_writes_the_bar_fight_and_state_shows_its_outcome(tmp_path: Path) -> None:
    # $ tablelog demo
    out = ok(run(tmp_path, "demo"))
    assert "round 3 revealed" in out
    assert "kit beats riso" in out
    # $ tablelog state --json
    state = json.loads(ok(run(tmp_path, "state", "--json")))
    assert state["campaign"] == "bar-fight"
    assert state["tokens"] | {"players": None} == {
        "gm": 8,
        "pool": 1,
        "bank": 0,
        "out_of_play": 1,
        "table": 0,
        "players": None,
    }
    # The seed's cast: Bob plays Kit, Susan plays Diana (Richard plays Jason, unnamed there).
    assert state["tokens"]["players"] == {"bob": 1, "richard": 1, "susan": 0}
    assert {c: t["player"] for c, t in state["talents"].items()} == {
        "diana": "susan",
        "jason": "richard",
        "kit": "bob",
    }
    assert state["talents"]["jason"]["used"] == 2
    assert state["talents"]["kit"]["by_talent"] == {"brawler": 1}
    fight = state["conflicts"]["fight"]
    assert (fight["kind"], fight["status"], fight["round"], fight["rounds"]) == (
        "extended",
        "closed",
        3,
        3,
    )
    assert fight["beats"] == [["kit", "riso"], ["riso", "jason"], ["diana", "goons"]]
    assert fight["sides"]["kit"]["victory"] == ["JK", "AH", "10S", "JH"]
    assert fight["sides"]["kit"]["opposes"] == "riso"
    assert fight["sides"]["riso"]["gm"] is True
    # $ tablelog improv show fight --json
    show = json.loads(ok(run(tmp_path, "improv", "show", "fight", "--json")))
    assert [r["round"] for r in show["rounds"]] == [1, 2, 3]
    kit_round_2 = show["rounds"][1]["plays"]["kit"]
    assert kit_round_2 | {"bonuses": None} == {
        "card": "AH",
        "tokens": 1,
        "talent": None,
        "total": 17,
        "from_deck": False,
        "unseen": False,
        "bonuses": None,
    }
    assert kit_round_2["bonuses"] == [
        {"by": "kit", "kind": "token", "count": 1, "talent": None, "assist": None}
    ]
    assert show["rounds"][0]["winners"] == ["kit", "riso", "goons"]
    # $ tablelog verify
    ok(run(tmp_path, "verify"))
    # $ tablelog log --conflict fight --json
    fight_events = log_json(tmp_path, "--conflict", "fight")
    assert fight_events[0]["type"] == "improv.conflict_opened"
    assert all(e["payload"]["conflict"] == "fight" for e in fight_events)


def test_a_simple_conflict_played_command_by_command(tmp_path: Path) -> None:
    ok(run(tmp_path, "campaign", "create", "amanda", "--ruleset", "improv"))
    ok(run(tmp_path, "improv", "character", "bob", "Kit", "--talent", "Brawler"))
    ok(run(tmp_path, "session", "start"))
    opened = json.loads(ok(run(tmp_path, "improv", "open", "--json")))
    assert opened == {"conflict": "c1"}
    ok(run(tmp_path, "improv", "stake", "c1", "amanda", "Amanda keeps the files", "--gm"))
    ok(run(tmp_path, "improv", "stake", "c1", "Kit", "Kit gets the files", "--opposes", "amanda"))
    before = log_json(tmp_path)
    # A player may not play blind from the deck: refused in one sentence, nothing written.
    line = refused(run(tmp_path, "improv", "play", "c1", "kit", "--from-deck"))
    assert line.startswith("player-blind: only the GM may play blind")
    assert refused(run(tmp_path, "improv", "play", "c1", "kit", "11H")).startswith("bad-card:")
    assert log_json(tmp_path) == before
    usage = run(tmp_path, "improv", "play", "c1", "amanda", "QC", "--bogus")
    assert usage.returncode == 2
    ok(run(tmp_path, "improv", "play", "c1", "kit", "10h"))
    assert refused(run(tmp_path, "improv", "play", "c1", "kit", "2c")).startswith("second-card:")
    ok(run(tmp_path, "improv", "play", "c1", "amanda", "Q♣", "--from-deck"))
    # Bonuses before the reveal; the GM may spend 1 + 1 player = 2 tokens here.
    line = refused(
        run(tmp_path, "improv", "bonus", "c1", "--on", "amanda", "--token", "--count", "3")
    )
    assert line == (
        "gm-token-limit: the GM may spend 2 token(s) in conflict c1 (its limit is 2); 3 requested"
    )
    out = ok(run(tmp_path, "improv", "reveal", "c1"))
    assert "amanda beats kit" in out
    state = json.loads(ok(run(tmp_path, "state", "--json")))
    assert state["conflicts"]["c1"]["beats"] == [["amanda", "kit"]]
    ok(run(tmp_path, "improv", "close", "c1"))
    assert json.loads(ok(run(tmp_path, "state", "--json")))["conflicts"]["c1"]["status"] == "closed"


def test_a_managed_deck_is_playable_from_the_cli(tmp_path: Path) -> None:
    ok(run(tmp_path, "campaign", "create", "night", "-r", "improv", "--deck-mode", "managed"))
    ok(run(tmp_path, "improv", "character", "bob", "Kit"))
    ok(run(tmp_path, "session", "start"))
    hand = json.loads(ok(run(tmp_path, "improv", "hand", "bob", "--json")))
    assert len(hand["cards"]) == 4
    assert hand["deck"] == 54 - 4
    gm_hand = json.loads(ok(run(tmp_path, "improv", "hand", "gm", "--json")))
    assert len(gm_hand["cards"]) == 3 + 1
    ok(run(tmp_path, "improv", "open"))
    ok(run(tmp_path, "improv", "stake", "c1", "guard", "The guard raises the alarm", "--gm"))
    ok(run(tmp_path, "improv", "stake", "c1", "kit", "Kit slips past", "--opposes", "guard"))
    not_held = next(card for card in ("2C", "3C", "4C", "5C", "6C") if card not in hand["cards"])
    line = refused(run(tmp_path, "improv", "play", "c1", "kit", not_held))
    assert line.startswith(f"not-in-hand: {not_held} is not in bob's hand")
    ok(run(tmp_path, "improv", "play", "c1", "kit", hand["cards"][0]))
    ok(run(tmp_path, "improv", "play", "c1", "guard", "--from-deck"))
    ok(run(tmp_path, "improv", "reveal", "c1"))
    ok(run(tmp_path, "improv", "close", "c1"))
    refilled = json.loads(ok(run(tmp_path, "improv", "hand", "bob", "--json")))
    assert len(refilled["cards"]) == 4
    assert refilled["cards"][:3] == hand["cards"][1:]  # kept, then one drawn to refill
    ok(run(tmp_path, "verify"))
