"""End-to-end: who beats whom, and a managed-deck campaign that cannot get stuck (issue 14,
items 1 and 3), typed as a GM would through the real CLI on a SQLite file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.e2e.transcript import log_json, ok, refused, run
from tests.support.server import running_service


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


def reveal(tmp_path: Path, conflict: str) -> None:
    """Reveal a round of shuffled cards. Two decks may show the same card (an exact tie, about
    one round in 54): its Hand-of-Fate loser stays in, and play goes on as the test means."""
    ok(run(tmp_path, "improv", "reveal", conflict))
    shown = json.loads(ok(run(tmp_path, "improv", "show", conflict, "--json")))
    for side in shown["rounds"][-1]["choices_due"]:
        ok(run(tmp_path, "improv", "fate", conflict, side, "--stay"))


def hand(tmp_path: Path, *root: str, who: str = "bob") -> list[str]:
    cards: list[str] = json.loads(ok(run(tmp_path, *root, "improv", "hand", who, "--json")))[
        "cards"
    ]
    return cards


def test_a_managed_campaign_never_gets_stuck(tmp_path: Path) -> None:
    # Two open 4-round conflicts take two cards each from bob's hand of 4.
    ok(
        run(
            tmp_path, "campaign", "create", "night", "--ruleset", "improv", "--deck-mode", "managed"
        )
    )
    ok(run(tmp_path, "improv", "character", "bob", "Kit", "--talent", "Fast talker"))
    ok(run(tmp_path, "session", "start"))
    for conflict in ("a", "b"):
        ok(run(tmp_path, "improv", "open", "--id", conflict, "--extended", "--rounds", "4"))
        ok(run(tmp_path, "improv", "stake", conflict, "riso", "Riso gets away", "--gm"))
        ok(run(tmp_path, "improv", "stake", conflict, "kit", "Kit wins", "--opposes", "riso"))
    for conflict in ("a", "b", "a", "b"):
        ok(run(tmp_path, "improv", "play", conflict, "kit", hand(tmp_path)[0]))
        ok(run(tmp_path, "improv", "play", conflict, "riso", "--from-deck"))
        reveal(tmp_path, conflict)
    assert hand(tmp_path) == []
    before = log_json(tmp_path)

    # The hand is empty: a named card is refused, saying so; no card plays blind.
    line = refused(run(tmp_path, "improv", "play", "a", "kit", "5C"))
    assert line.startswith("hand-empty: bob's hand is empty, so Kit plays blind: the top card")
    assert refused(run(tmp_path, "session", "end")).startswith("conflict-open:")
    assert log_json(tmp_path) == before
    out = ok(run(tmp_path, "improv", "play", "a", "kit"))
    assert "blind from the deck (an empty hand: unseen by anyone)" in out
    shown = json.loads(ok(run(tmp_path, "improv", "show", "a", "--as", "bob", "--json")))
    assert shown["rounds"][2]["plays"]["kit"]["card"] is None  # not even bob sees it

    # The GM abandons b: nobody wins, its cards are discarded, bob's hand is refilled.
    out = ok(run(tmp_path, "improv", "abandon", "b", "--reason", "the goons never show up"))
    assert "conflict b is abandoned by the GM: the goons never show up; nobody wins" in out
    assert len(hand(tmp_path)) == 4
    state = json.loads(ok(run(tmp_path, "state", "--json")))
    b = state["conflicts"]["b"]
    assert (b["status"], b["abandoned"], b["beats"]) == ("closed", "the goons never show up", [])
    show = ok(run(tmp_path, "improv", "show", "b"))
    assert show.splitlines()[:2] == [
        "conflict b (extended, abandoned, 4 round(s))",
        "  abandoned by the GM: the goons never show up; nobody wins",
    ]
    replay = ok(run(tmp_path, "replay", "--conflict", "b"))
    assert "is abandoned by the GM: the goons never show up" in replay
    post = ok(run(tmp_path, "export", "--format", "markdown", "--conflict", "b"))
    assert "abandoned by the GM: the goons never show up" in post

    # Conflict a plays on and closes; then the session ends.
    ok(run(tmp_path, "improv", "play", "a", "riso", "--from-deck"))
    reveal(tmp_path, "a")
    ok(run(tmp_path, "improv", "play", "a", "kit", hand(tmp_path)[0]))
    ok(run(tmp_path, "improv", "play", "a", "riso", "--from-deck"))
    reveal(tmp_path, "a")
    ok(run(tmp_path, "improv", "close", "a"))
    ok(run(tmp_path, "session", "end"))
    audit = json.loads(ok(run(tmp_path, "audit", "--json")))
    assert audit["discrepancies"] == []
    ok(run(tmp_path, "verify"))


def test_the_gm_abandons_through_the_service(tmp_path: Path) -> None:
    db = str(tmp_path / "tablelog.db")
    ok(run(tmp_path, "--db", db, "campaign", "create", "night", "--ruleset", "improv"))
    gm = json.loads(ok(run(tmp_path, "--db", db, "invite", "gm", "--role", "gm", "--json")))
    bob = json.loads(ok(run(tmp_path, "--db", db, "invite", "bob", "--json")))
    with running_service(db, tmp_path) as url:

        def client(token: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
            return run(tmp_path, "--server", url, "--access-token", token["token"], *args)

        ok(client(bob, "improv", "character", "bob", "Kit"))
        ok(client(gm, "session", "start"))
        ok(client(gm, "improv", "open", "--id", "c1"))
        ok(client(gm, "improv", "stake", "c1", "guard", "The guard wins", "--gm"))
        ok(client(bob, "improv", "stake", "c1", "kit", "Kit slips past", "--opposes", "guard"))
        ok(client(bob, "improv", "play", "c1", "kit", "9H"))
        line = refused(client(bob, "improv", "abandon", "c1", "--reason", "I give up"))
        assert line.startswith("gm-only:")

        out = ok(client(gm, "improv", "abandon", "c1", "--reason", "the alarm was a dud"))

        assert "conflict c1 is abandoned by the GM: the alarm was a dud" in out
        shown = json.loads(ok(client(bob, "improv", "show", "c1", "--json")))
        assert shown["abandoned"] == "the alarm was a dud"
        assert shown["rounds"][0]["plays"]["kit"]["card"] == "9H"
        ok(client(gm, "session", "end"))
