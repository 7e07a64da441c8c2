"""Bid & Challenge end to end through the real CLI (rules/bid-and-challenge.md).

One whole scene with recorded dice, on SQLite and on PostgreSQL: the vectors BC-1 (Ben's
challenge beats Anna's push: QuickWits to her Discard; Ben narrates), BC-2 (Ben's strike wins
the tie: Sword to Anna's Discard) and BC-3 (Cara's Deck is empty, so the turn passes over her:
Anna and Ben pass in a row and the scene ends), with BC-4's refusals tried on the way: exit 1,
one sentence on stderr, nothing appended. Then every generic read on it: state, show, log,
replay, audit, the exports, what-if, verify. And a log written before issue 26 still imports,
verifies, audits and plays on under the rule it was written with.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.e2e.transcript import ok, refused, run

BC = "bid-and-challenge"


def cards(*specs: str) -> tuple[str, ...]:
    return tuple(arg for spec in specs for arg in ("-k", spec))


def test_one_whole_scene_with_the_vectors_and_their_refusals(tmp_path: Path, target: str) -> None:
    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        # On SQLite every command is its own `python -m tablelog` (cli_runner.py's contract).
        return run(tmp_path, "--db", target, *args, subprocess="://" not in target)

    def head() -> int:
        value: int = json.loads(ok(tl("state", "--json")))["seq"]
        return value

    def refuse(*args: str) -> str:
        before = head()
        line = refused(tl(*args))
        assert head() == before, "a refusal appended"
        return line

    if "://" in target:
        ok(tl("db", "upgrade"))
    ok(tl("campaign", "create", "keep", "-r", BC, "-o", "dice=recorded"))
    anna = cards("Brawn:1d6+2", "Sword:1d6+1", "QuickWits:1d6", "Persuade:1d6+1", "Body:1d6")
    assert "Flow 3: Brawn 1d6+2" in ok(tl(BC, "deck", "anna", "Anna", "--flow", "3", *anna))
    ok(tl(BC, "deck", "ben", "Ben", "--flow", "2", *cards("Dodge:1d6+1", "Sneak:1d6", "Mind:1d6")))
    ok(tl(BC, "deck", "cara", "Cara", "--flow", "2"))
    ok(tl(BC, "universe", "Storm:1d6"))
    ok(tl(BC, "universe", "Crowd:1d6+1"))
    assert refuse(BC, "universe", "Fog") == (
        "bad-card-spec: 'Fog' is not NAME:VALUE (e.g. Brawn:1d6+2)"
    )
    ok(tl("session", "start"))
    opened = json.loads(
        ok(
            tl(
                BC,
                "open",
                "anna",
                "ben",
                "cara",
                "--asked-by",
                "anna",
                "--json",
                "--premise",
                "The gate",
            )
        )
    )
    assert opened == {"conflict": "s1"}

    # --- BC-1 -------------------------------------------------------------------------------
    gate = ("--detail", "gate-open", "--text", "The gate stands open")
    assert refuse(BC, "bid", "s1", "anna", "I force the gate", "-k", "Brawn") == (
        "one-power: a bid names exactly one power: --restore, --strike, --detail with --text, "
        "or --new-card; got none"
    )
    assert refuse(BC, "bid", "s1", "anna", "x", "-k", "Brawn", *gate, "--strike", "ben:Dodge") == (
        "one-power: a bid names exactly one power; got 2 (--strike, --detail)"
    )
    out = ok(tl(BC, "bid", "s1", "anna", "I force the gate", "-k", "Brawn", "-k", "Sword", *gate))
    assert 'anna bids "I force the gate" with brawn, sword' in out
    assert refuse(BC, "challenge", "s1", "ben", "No", "-k", "Dodge") == (
        "not-your-turn: it is cara's turn to accept or pass the challenge; not ben's"
    )
    assert "cara passes the challenge" in ok(tl(BC, "pass", "s1", "cara"))
    assert refuse(
        BC, "challenge", "s1", "ben", "No", "-k", "Dodge", "-k", "Sneak", "-u", "Storm"
    ) == ("challenge-limit: challenger may commit at most 2 cards (the bid's count); got 3")
    ok(tl(BC, "challenge", "s1", "ben", "The storm slams the gate", "-k", "Dodge", "-u", "Storm"))
    assert refuse(BC, "push", "s1", "ben", "mine", "-k", "Mind") == (
        "only-active: only the active player may push; ben is not anna"
    )
    ok(tl(BC, "push", "s1", "anna", "I wedge it with my wits", "-k", "QuickWits"))
    assert refuse(BC, "roll", "s1", "--active", "4,2", "--challenger", "5,6") == (
        "faces-count: recorded dice: the active side rolls 3 dice (Brawn 1d6+2, Sword 1d6+1, "
        "QuickWits 1d6); 2 faces given"
    )
    out = ok(tl(BC, "roll", "s1", "--active", "4,2,1", "--challenger", "5,6"))
    assert "anna (active) rolls 4+2+1+3 = 10" in out
    assert "ben (challenger) rolls 5+6+1 = 12" in out
    assert "round 1: ben wins (ben 12 beats anna 10)" in out
    assert "quickwits goes from anna's Play to Discard (push lost)" in out
    # The winner narrates (once; nobody else).
    assert refuse(BC, "narrate", "s1", "anna", "I hold") == (
        "not-winner: only a round's winner narrates it: round 1 of scene s1 was won by ben, "
        "not anna"
    )
    out = ok(tl(BC, "narrate", "s1", "ben", "The gate slams on Anna's fingers"))
    assert "ben narrates round 1 of scene s1: The gate slams on Anna's fingers" in out
    assert refuse(BC, "narrate", "s1", "ben", "Again") == (
        "narrated-twice: ben has narrated round 1 of scene s1 already; a round is narrated once"
    )
    state = json.loads(ok(tl("state", "--json")))
    assert (state["campaign"], state["ruleset"], state["session"]) == ("keep", BC, 1)
    assert state["characters"]["anna"]["deck"] == ["brawn", "sword", "persuade", "body"]
    assert state["characters"]["anna"]["discard"] == ["quickwits"]
    assert state["details"] == {}
    assert state["conflicts"]["s1"]["active"] == "ben"

    # --- BC-2 -------------------------------------------------------------------------------
    assert refuse(
        BC, "bid", "s1", "ben", "x", "-k", "Dodge", "-k", "Sneak", "-k", "Mind", *gate
    ) == ("flow-limit: bid commits 3 cards but ben's Flow is 2")
    ok(tl(BC, "bid", "s1", "ben", "Into the moat", "-k", "Sneak", "--strike", "anna:Sword"))
    ok(tl(BC, "challenge", "s1", "anna", "I talk him down", "-k", "Persuade"))
    out = ok(tl(BC, "roll", "s1", "--active", "6", "--challenger", "5"))
    assert "round 2: ben wins (ben 6 ties anna 6: ties go to the active player)" in out
    assert "sword goes from anna's Deck to Discard (bid power)" in out

    # Cara's Deck is empty: the turn passes over her to Anna.
    assert "scene s1 round 3: anna is active" in out

    # --- BC-3 (and BC-4's empty deck) ---------------------------------------------------------
    assert refuse(BC, "bid", "s1", "cara", "x", "-k", "Storm", *gate) == (
        "empty-deck: cara's deck is empty: cara cannot be the active player (cara may still "
        "challenge); it is anna's turn"
    )
    assert refuse(BC, "bid", "s1", "anna", "x", "-k", "QuickWits", *gate) == (
        "card-not-in-deck: card QuickWits is not in anna's Deck (it is in Discard)"
    )
    ok(tl(BC, "pass", "s1", "anna"))
    assert "scene s1 ends: every player with a Deck passed in a row" in ok(
        tl(BC, "pass", "s1", "ben")
    )
    assert refuse(BC, "pass", "s1", "ben") == "scene-ended: scene s1 has ended"

    # --- the generic reads ----------------------------------------------------------------
    shown: dict[str, Any] = json.loads(ok(tl(BC, "show", "s1", "--json")))
    assert (shown["conflict"], shown["status"]) == ("s1", "ended")
    assert shown["beats"] == [["ben", "anna"], ["ben", "anna"]]
    assert [r["winner"] for r in shown["rounds"]] == ["ben", "ben", None, None]
    assert shown["rounds"][0]["rolls"]["active"]["total"] == 10
    assert shown["rounds"][0]["narration"] == {
        "player": "ben",
        "text": "The gate slams on Anna's fingers",
    }
    assert "  ben narrates: The gate slams on Anna's fingers" in ok(tl(BC, "show", "s1"))
    state = json.loads(ok(tl("state", "--json")))
    assert state["characters"]["anna"]["deck"] == ["brawn", "persuade", "body"]
    log = log_json_of(tl)
    assert [e["type"] for e in log[-2:]] == ["bc.passed", "bc.scene_ended"]
    report = json.loads(ok(tl("audit", "--json")))
    assert report["ok"] is True
    notes = [n for s in report["conflicts"][0]["sections"] for n in s["notes"]]
    outcomes = [n["text"] for n in notes if n["kind"] == "outcome"]
    assert outcomes == [
        "ben wins: ben 12 beats anna 10; the cards in Play return to their origin "
        "decks, but anna's pushed cards go to Discard (the bid lost)",
        "ben wins: ben 6 ties anna 6: ties go to the active player; the cards in "
        "Play return to their origin decks",
    ]
    for kind in ("markdown", "bbcode", "discord"):
        post = ok(tl("export", "--format", kind, "--conflict", "s1"))
        assert "ben 12 beats anna 10" in post, kind
        assert "ben narrates" in post, kind
        assert "The gate slams on Anna" in post, kind
        assert "tablelog verify -c keep --head" in post, kind
    assert "round 2: ben wins" in ok(tl("replay", "--conflict", "s1"))
    # What if Anna had rolled three sixes? Her push holds and the gate opens.
    seq = next(e["seq"] for e in log if e["type"] == "bc.pushed")
    (tmp_path / "moves.txt").write_text(f"{BC} roll s1 --active 6,6,6 --challenger 5,6\n")
    whatif = json.loads(ok(tl("whatif", "--at", str(seq + 1), "moves.txt", "--json")))
    [difference] = whatif["differences"]
    assert (difference["real"], difference["whatif"]) == (
        [["ben", "anna"], ["ben", "anna"]],
        [["anna", "ben"]],
    )
    assert whatif["state"]["details"]["gate-open"]["by"] == "anna"
    assert json.loads(ok(tl("verify", "--json")))["ok"] is True


def log_json_of(tl: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in ok(tl("log", "--json")).splitlines()]


def test_the_demo_writes_the_vectors_as_one_scene(tmp_path: Path) -> None:
    out = ok(run(tmp_path, "demo", "--ruleset", BC))
    assert "wrote campaign gate" in out
    assert "round 2: ben wins (ben 6 ties anna 6: ties go to the active player)" in out
    assert "scene s1 ends: every player with a Deck passed in a row" in out
    assert "ben narrates round 2 of scene s1: Anna's sword sinks into the moat" in out
    shown = json.loads(ok(run(tmp_path, BC, "show", "s1", "--json")))
    assert shown["beats"] == [["ben", "anna"], ["ben", "anna"]]
    assert json.loads(ok(run(tmp_path, "audit", "--json")))["ok"] is True


def test_every_command_has_help_with_an_example(tmp_path: Path) -> None:
    for command in (
        "deck",
        "universe",
        "die",
        "open",
        "bid",
        "pass",
        "challenge",
        "push",
        "roll",
        "end",
        "narrate",
        "show",
    ):
        assert "Example:" in ok(run(tmp_path, BC, command, "--help")), command


def test_a_newcomer_reads_scene_ids_and_a_challenge_power_as_they_are(tmp_path: Path) -> None:
    """Scene arguments say `s1` (the ids `open` prints), and with challenger_power=true a
    challenge's power is refused in a challenge's words and shown in its log line."""
    for command in ("bid", "pass", "challenge", "push", "roll", "end", "narrate", "show"):
        shown = ok(run(tmp_path, BC, command, "--help"))
        assert "(e.g. s1)" in shown, command
        assert "c1" not in shown, command

    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        return run(tmp_path, *args)

    ok(tl("campaign", "create", "keep", "-r", BC, "-o", "challenger_power=true"))
    ok(tl(BC, "deck", "anna", "Anna", "--flow", "2", *cards("Brawn:1d6+2", "Sword:1d6")))
    ok(tl(BC, "deck", "ben", "Ben", "--flow", "2", *cards("Dodge:1d6+1")))
    ok(tl(BC, "open", "anna", "ben", "--asked-by", "anna"))
    ok(tl(BC, "bid", "s1", "anna", "I climb", "-k", "Brawn", "--detail", "wall", "--text", "up"))
    two = ("--strike", "anna:Sword", "--detail", "rope", "--text", "cut")
    assert refused(tl(BC, "challenge", "s1", "ben", "No", "-k", "Dodge", *two)) == (
        "one-power: a challenge names at most one power; got 2 (--strike, --detail)"
    )
    out = ok(tl(BC, "challenge", "s1", "ben", "No", "-k", "Dodge", "--strike", "anna:Sword"))
    assert 'ben challenges "No" with dodge (strike sword from anna\'s Deck to Discard)' in out


# Exported by the tablelog of b6d6602 itself (tests/fixtures/README.md): campaign `keep`, where
# Cara's empty Deck was active and her passes counted.
BEFORE_26 = Path(__file__).resolve().parents[1] / "fixtures" / "bid-and-challenge-b6d6602.jsonl"


def test_a_log_written_before_issue_26_imports_audits_verifies_and_plays_on(
    tmp_path: Path,
) -> None:
    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        return run(tmp_path, *args, env={"TABLELOG_CAMPAIGN": "keep"})

    ok(tl("import", str(BEFORE_26)))
    assert json.loads(ok(tl("verify", "--json")))["ok"] is True
    assert json.loads(ok(tl("audit", "--json")))["ok"] is True
    state = json.loads(ok(tl("state", "--json")))
    # Its creation event names no empty_deck: it keeps the rule it was written with.
    assert state["options"]["empty_deck"] == "active-may-pass"
    s2 = state["conflicts"]["s2"]
    assert (s2["active"], s2["passes"]) == ("anna", 2)  # Ben, then Cara (an empty Deck), passed
    # Plays on as it did: Cara's pass counted, so Anna's is the third and ends s2.
    assert "scene s2 ends: every player passed in a row" in ok(tl(BC, "pass", "s2", "anna"))
    # The new narration: Anna won s2's round 2 (her bid, unchallenged).
    assert "anna narrates round 2 of scene s2: Anna swims" in ok(
        tl(BC, "narrate", "s2", "anna", "Anna swims the moat by night")
    )
    assert refused(tl(BC, "narrate", "s1", "ben", "Late")) == (
        "scene-closed: scene s1 has ended and another scene has started since; its rounds can "
        "no longer be narrated"
    )
    # A scene opened now in this campaign: Cara still starts it, with an empty Deck.
    assert "scene s3 round 1: cara is active" in ok(
        tl(BC, "open", "cara", "anna", "ben", "--asked-by", "cara")
    )
    assert json.loads(ok(tl("audit", "--json")))["ok"] is True
    assert json.loads(ok(tl("verify", "--json")))["ok"] is True
