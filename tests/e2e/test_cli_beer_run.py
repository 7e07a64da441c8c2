"""Beer Run end to end through the real CLI (rules/beer-run.md).

One whole conflict with recorded dice, on SQLite and on PostgreSQL: Alice and Cara against Bob
(the GM's NPC), two rounds. Round 1: Cara helps Alice against the GM's difficulty pool (BR-4's
faces), Alice rolls the d8 situation die she earned, and the pools of BR-3 give Bob the upper
hand and Alice her 1st and 3rd of four successes. Round 2: Cara rolls the d8 penalty die she
suffered (it counts for Bob), Alice zeroes Bob's Resolve (her goal), Cara and Bob tie on every
pair (BR-6), and Bob cedes: the conflict ends on its own. Every number below is worked out by
hand from the rules, not read back from tablelog.

Then a managed-dice conflict (the default), checked only for invariants, and the CLI's
refusals: exit 1, one sentence on stderr, nothing appended.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.e2e.transcript import log_json, no_crash, ok, refused, run


def abilities(*specs: str) -> tuple[str, ...]:
    """`-a SPEC` for each NAME:CATEGORY:dN."""
    return tuple(arg for spec in specs for arg in ("-a", spec))


ALICE = abilities("Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Brawl:Body:d10", "Health:Body:d6")
CARA = abilities("Body:Body:d6", "Mind:Mind:d6", "Kit:Kit:d4", "Health:Body:d6")
BOB = abilities(
    "Body:Body:d8",
    "Mind:Mind:d8",
    "Kit:Kit:d6",
    "Brawn:Body:d10",
    "Resolve:Mind:d4",
    "Health:Body:d8",
)

# Every roll's faces, in its dice's order: round 1 (Cara, the difficulty, Alice, Bob), round 2.
FACES = ["6 5 2", "8 3 1 2", "6 5 2 4 6", "3 3 1 10", "8 6 4", "5 5 3 1", "5 5 3"]


def sizes(character: dict[str, Any]) -> dict[str, int]:
    return {key: a["size"] for key, a in character["abilities"].items()}


def comparisons(report: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The audit's comparison notes of the first conflict, by seq."""
    return {
        note["seq"]: note
        for section in report["conflicts"][0]["sections"]
        for note in section["notes"]
        if note["kind"] == "comparison"
    }


def test_a_two_round_conflict_with_help_on_both_backends(tmp_path: Path, target: str) -> None:
    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        # On SQLite every command is its own `python -m tablelog` (cli_runner.py's contract).
        return run(tmp_path, "--db", target, *args, subprocess="://" not in target)

    if "://" in target:  # a server is migrated explicitly
        ok(tl("db", "upgrade"))
    ok(tl("campaign", "create", "pub", "-r", "beer-run", "-o", "dice=recorded"))
    ok(tl("beer-run", "character", "ann", "Alice", *ALICE))
    ok(tl("beer-run", "character", "cat", "Cara", *CARA))
    ok(tl("beer-run", "character", "gm", "Bob", *BOB))
    ok(tl("beer-run", "open", "--side", "heroes=alice,cara", "--side", "thugs=bob"))

    # --- round 1: goals; Cara helps Alice to a d8 -------------------------------------------
    ok(tl("beer-run", "goal", "c1", "alice", "Bob backs down", "--ability", "Resolve"))
    ok(tl("beer-run", "goal", "c1", "cara", "Distract Bob", "--ally", "alice", "--die", "d8"))
    ok(tl("beer-run", "goal", "c1", "bob", "Alice is beaten", "--against", "alice"))
    # The GM swaps 3 of the default d2 x4 for the target d8: d8 d8 d8 d2.
    ok(tl("beer-run", "difficulty", "c1", "cara", "--replace", "3"))
    line = refused(tl("beer-run", "pool", "c1", "cara", "Body", "Health", "Kit"))
    assert line == (
        "base-category-twice: base pool holds one die per category; Body appears twice "
        "(Body and Health)"
    )
    ok(tl("beer-run", "pool", "c1", "cara", "Body", "Mind", "Kit"))
    # BR-4: Cara [6,5,2] + pad 1 against [8,3,2,1]: 6<8 (upper hand difficulty), 5>3 Cara,
    # then ties. Each side keeps 1: Alice gains a d8 x1, Cara a d8 penalty x1.
    ok(tl("beer-run", "roll", "c1", "cara", "6", "5", "2", "--difficulty", "8,3,1,2"))

    # --- round 1: pools. Alice: Body d8, Mind d6, Kit d4, +Brawl d10, situation d8 (free):
    # 1 + 1 = 2 Intensity. Bob: Body d8, Mind d8, Kit d6, +Brawn d10: 2 Intensity.
    ok(tl("beer-run", "pool", "c1", "alice", "Body", "Mind", "Kit", "--extra", "Brawl"))
    ok(tl("beer-run", "pool", "c1", "bob", "Body", "Mind", "Kit", "--extra", "Brawn"))
    line = refused(tl("beer-run", "roll", "c1", "alice", "6", "5", "2", "4", "9"))
    assert line == "bad-value: value 9 is impossible on a d8"  # the situation d8
    # BR-3: Alice [6,6,5,4,2] against Bob [10,3,3,1] padded with a 1: 6<10 gives Bob the
    # upper hand and 1 success; Alice wins the other four and keeps her 1st and 3rd: 2.
    ok(tl("beer-run", "roll", "c1", "alice", "6", "5", "2", "4", "6"))
    ok(tl("beer-run", "roll", "c1", "bob", "3", "3", "1", "10"))

    # --- round 1: effects, the upper hand first ---------------------------------------------
    line = refused(tl("beer-run", "allocate", "c1", "alice", "bob", "Resolve=2"))
    assert line == "upper-hand-first: Bob (upper hand) allocates first"
    events = log_json(tmp_path, env={"TABLELOG_DB": target})
    # 1 created, 2-6 players and characters, 7-8 open, 9-11 goals, 12 difficulty, 13 Cara's
    # pool, 14-18 her roll, the difficulty's, the comparison, the situation and penalty dice,
    # 19-20 Alice's pool and her situation die used, 21 Bob's pool, 22-24 rolls, comparison.
    assert len(events) == 24, [e["type"] for e in events]
    assert events[-1]["type"] == "br.rolls_compared"
    ok(tl("beer-run", "allocate", "c1", "bob", "alice", "Health=1"))  # d6 -> d5
    ok(tl("beer-run", "allocate", "c1", "alice", "bob", "Resolve=1", "Health=1"))  # d3, d7

    # --- round 2: a new goal starts it; Cara's penalty d8 joins her pool ----------------------
    ok(tl("beer-run", "goal", "c1", "alice", "Bob backs down", "--ability", "Resolve"))
    ok(tl("beer-run", "goal", "c1", "cara", "Cara pins Bob"))
    ok(tl("beer-run", "goal", "c1", "bob", "Alice is beaten", "--against", "alice"))
    for who in ("alice", "cara", "bob"):
        ok(tl("beer-run", "pool", "c1", who, "Body", "Mind", "Kit"))  # 1 Intensity each
    # Alice [8,6,4] against Bob [5,5,3]: all hers, the upper hand, 3 kept.
    ok(tl("beer-run", "roll", "c1", "alice", "8", "6", "4"))
    # Cara [5,5,3] + pad 1 against Bob [5,5,3] + her penalty 1: every pair ties (BR-6).
    ok(tl("beer-run", "roll", "c1", "cara", "5", "5", "3", "1"))
    ok(tl("beer-run", "roll", "c1", "bob", "5", "5", "3"))
    # Three pips zero Resolve d3: Alice's goal "Bob backs down" is achieved, and so is Cara's,
    # aimed at Bob too (a goal is won by its side, whoever placed the last pip).
    ok(tl("beer-run", "allocate", "c1", "alice", "bob", "Resolve=3"))
    # Bob cedes: nothing more to give, and with one side left the conflict ends by itself.
    ok(tl("beer-run", "cede", "c1", "bob"))

    # --- the table ----------------------------------------------------------------------------
    state = json.loads(ok(tl("state", "--json")))
    assert {"campaign", "ruleset", "seq", "session", "conflicts", "characters"} <= set(state)
    # 24 above; 25-29 the two allocations; 30-33 round 2 and goals; 34-37 pools and the
    # penalty die used; 38-42 rolls and two comparisons; 43-46 pips, Resolve 0, Alice's and
    # Cara's goals; 47-48 the cede and the end. No refusal appended anything.
    assert (state["campaign"], state["ruleset"], state["seq"]) == ("pub", "beer-run", 48)
    won = [e for e in log_json(tmp_path, env={"TABLELOG_DB": target}) if "goal_ach" in e["type"]]
    assert [(e["seq"], e["payload"]["actor"], e["payload"]["how"]) for e in won] == [
        (45, "alice", "zeroed"),
        (46, "cara", "zeroed"),
    ]
    assert state["session"] == 0
    people = state["characters"]
    assert sizes(people["alice"]) == {"body": 8, "mind": 6, "kit": 4, "brawl": 10, "health": 5}
    assert sizes(people["cara"]) == {"body": 6, "mind": 6, "kit": 4, "health": 6}
    assert sizes(people["bob"]) == {
        "body": 8,
        "mind": 8,
        "kit": 6,
        "brawn": 10,
        "resolve": 0,
        "health": 7,
    }
    # Intensity 10 each: Alice pays 2 + 1, Cara 1 + 1, Bob 2 + 1.
    intensity = {key: c["intensity"] for key, c in people.items()}
    assert intensity == {"alice": 7, "cara": 8, "bob": 7}
    assert [c["special_dice"] for c in people.values()] == [[], [], []]  # each die used once
    assert not any(c["dead"] for c in people.values())
    c1 = state["conflicts"]["c1"]
    assert (c1["status"], c1["round"], c1["ceded"]) == ("ended", 2, ["bob"])
    assert c1["achieved"] == [
        {"actor": "alice", "target": "bob", "goal": "Bob backs down"},
        {"actor": "cara", "target": "bob", "goal": "Cara pins Bob"},
    ]
    assert c1["beats"] == [["alice", "bob"], ["cara", "bob"]]
    assert c1["result"] == "side heroes is the only one still in"
    assert c1["sides"]["thugs"] == {"members": ["bob"], "in": []}

    # --- the account: every comparison with its numbers -------------------------------------
    # (exit 3 when a decision does not follow: checked last, see the known bug below)
    audited = tl("audit", "--json")
    no_crash(audited)
    report = json.loads(audited.stdout)
    compared = comparisons(report)
    assert sorted(compared) == [16, 24, 41, 42]
    helped = {"cara": 1, "difficulty": 1}
    expected = {
        16: ("cara", "difficulty", "difficulty", helped, helped),
        24: ("alice", "bob", "bob", {"alice": 4, "bob": 1}, {"alice": 2, "bob": 1}),
        41: ("alice", "bob", "alice", {"alice": 3, "bob": 0}, {"alice": 3, "bob": 0}),
        42: ("cara", "bob", None, {"cara": 0, "bob": 0}, {"cara": 0, "bob": 0}),
    }
    for seq, (a, b, upper, raw, kept) in expected.items():
        data = compared[seq]["data"]
        assert (data["a"], data["b"], data["upper_hand"]) == (a, b, upper), seq
        assert (data["raw"], data["kept"]) == (raw, kept), seq
    assert "[6, 6, 5, 4, 2] vs Bob [10, 3, 3, 1, 1]" in compared[24]["text"]
    assert "Alice keeps 2 of 4" in compared[24]["text"]
    assert "no decisive pair" in compared[42]["text"]

    # --- export, verify, import into a fresh SQLite file -------------------------------------
    ok(tl("export", "--format", "jsonl", "--output", "pub.jsonl"))
    lines = (tmp_path / "pub.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 48
    head = f"48:{json.loads(lines[-1])['hash']}"
    posts = {fmt: ok(tl("export", "--format", fmt)) for fmt in ("markdown", "bbcode", "discord")}
    for fmt, post in posts.items():
        for faces in FACES:  # a cell of a table, or a line's last field
            cell = f"| {faces} |" if fmt == "markdown" else f"; faces {faces}\n"
            assert cell in post, (fmt, faces)
        assert "Verified log: campaign pub, events 1\u201348, head " + head in post, fmt
        assert f"tablelog verify -c pub --head {head}" in post, fmt
    ok(tl("verify", "--head", head))
    ok(run(tmp_path, "--db", "fresh.db", "import", "pub.jsonl"))
    assert json.loads(ok(run(tmp_path, "--db", "fresh.db", "state", "--json"))) == state

    # The audit finds every recorded decision sound, so no post carries a warning.
    assert audited.returncode == 0, audited.stdout
    assert report["ok"], report["discrepancies"]
    assert report["discrepancies"] == []
    assert not [fmt for fmt, post in posts.items() if "Warning" in post]


def test_overkill_and_goals_won_by_the_side(tmp_path: Path) -> None:
    """Issue 14, items 8 and 9: three kept successes on a Health d2 (the excess is lost), and
    every goal of the side aimed at Bob won by Alice's pips, whichever die it named."""

    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        return run(tmp_path, *args)

    ok(tl("campaign", "create", "pub", "-r", "beer-run", "-o", "dice=recorded"))
    hero = abilities("Body:Body:d8", "Mind:Mind:d8", "Kit:Kit:d8")
    ok(tl("beer-run", "character", "ann", "Alice", *hero))
    ok(tl("beer-run", "character", "cat", "Cara", *hero))
    bob = abilities("Body:Body:d6", "Nerve:Mind:d4", "Kit:Kit:d6", "Health:Body:d2")
    ok(tl("beer-run", "character", "gm", "Bob", *bob))
    ok(tl("beer-run", "open", "--side", "heroes=alice,cara", "--side", "thugs=bob"))
    ok(tl("beer-run", "goal", "c1", "alice", "Bob backs down", "--ability", "Nerve"))
    ok(tl("beer-run", "goal", "c1", "cara", "Bob drops the bat", "--ability", "Kit"))
    ok(tl("beer-run", "goal", "c1", "bob", "Alice is beaten", "--against", "alice"))
    for who in ("alice", "cara"):
        ok(tl("beer-run", "pool", "c1", who, "Body", "Mind", "Kit"))
    ok(tl("beer-run", "pool", "c1", "bob", "Body", "Nerve", "Kit"))
    # Alice [8,7,6] and Cara [8,7,6] each against Bob [1,1,1]: the upper hand, 3 kept each.
    ok(tl("beer-run", "roll", "c1", "alice", "8", "7", "6"))
    ok(tl("beer-run", "roll", "c1", "cara", "8", "7", "6"))
    ok(tl("beer-run", "roll", "c1", "bob", "1", "1", "1"))
    seq = json.loads(ok(tl("state", "--json")))["seq"]

    line = refused(tl("beer-run", "allocate", "c1", "alice", "bob", "Health=2"))
    assert line == "pips-total: allocation totals 2 pips but Alice kept 3 successes"
    ok(tl("beer-run", "allocate", "c1", "alice", "bob", "Health=3"))  # d2 -> 0, one pip lost
    ok(tl("beer-run", "allocate", "c1", "cara", "bob", "Nerve=3"))  # d4 -> d1
    events = log_json(tmp_path)
    assert [e["type"].removeprefix("br.") for e in events[seq:]] == [
        "damage_allocated",
        "ability_changed",  # Health 2 -> 0
        "goal_achieved",  # Alice's goal names Nerve: won all the same
        "goal_achieved",  # Cara's, won by Alice's pips
        "character_died",
        "damage_allocated",
        "ability_changed",  # Nerve 4 -> 1: nothing more to win
        "conflict_ended",
    ]
    state = json.loads(ok(tl("state", "--json")))
    people = state["characters"]
    assert sizes(people["bob"]) == {"body": 6, "nerve": 1, "kit": 6, "health": 0}
    assert people["bob"]["dead"]
    c1 = state["conflicts"]["c1"]
    assert c1["achieved"] == [
        {"actor": "alice", "target": "bob", "goal": "Bob backs down"},
        {"actor": "cara", "target": "bob", "goal": "Bob drops the bat"},
    ]
    assert c1["status"] == "ended"
    report = json.loads(ok(tl("audit", "--json")))
    assert report["ok"]
    assert report["discrepancies"] == []
    notes = [
        n["text"]
        for section in report["conflicts"][0]["sections"]
        for n in section["notes"]
        if n["kind"] in ("allocation", "goal-achieved")
    ]
    assert notes[:3] == [
        "Alice spends its kept successes as pips off Bob's dice (one face per pip): "
        "3 on Health d2 -> 0",
        'Alice achieves its goal "Bob backs down": a die of Bob is at 0',
        'Cara achieves its goal "Bob drops the bat": a die of Bob is at 0 by Alice\'s pips '
        "(a goal is won by its side)",
    ]


def test_negative_intensity_long_goals_and_repeated_categories(tmp_path: Path) -> None:
    """Issue 14, item 10: the help's own `intensity alice -2`; the text limit of stakes applies
    to goals; a category given twice is refused."""
    line = refused(
        run(tmp_path, "campaign", "create", "x", "-r", "beer-run", "-o", "categories=A,A")
    )
    assert line == (
        "invalid-option: option categories names A twice (A and A); give each category once"
    )
    ok(run(tmp_path, "campaign", "create", "pub", "-r", "beer-run"))
    ok(run(tmp_path, "beer-run", "character", "ann", "Alice", *ALICE))
    ok(run(tmp_path, "beer-run", "character", "gm", "Bob", *BOB))
    ok(run(tmp_path, "beer-run", "intensity", "alice", "-2"))
    ok(run(tmp_path, "beer-run", "intensity", "alice", "-1", "--reason", "a bad night"))
    adjusted = [e["payload"] for e in log_json(tmp_path) if e["type"] == "br.intensity_adjusted"]
    assert [(p["delta"], p["reason"]) for p in adjusted] == [(-2, ""), (-1, "a bad night")]
    ok(run(tmp_path, "beer-run", "open", "--side", "heroes=alice", "--side", "thugs=bob"))
    before = log_json(tmp_path)
    line = refused(run(tmp_path, "beer-run", "goal", "c1", "alice", "x" * 100_000))
    assert line == "text-too-long: a goal may be at most 4000 characters; got 100000"
    assert log_json(tmp_path) == before
    ok(run(tmp_path, "beer-run", "goal", "c1", "alice", "x" * 4000))
    # A superscript two is a digit to str.isdigit, not to int(): it was an internal error.
    line = refused(run(tmp_path, "beer-run", "allocate", "c1", "alice", "bob", "Health=\u00b2"))
    assert line == "bad-pips: 'Health=\u00b2' is not ABILITY=PIPS (e.g. Health=2)"


def test_managed_dice_roll_every_ready_pool_and_refusals(tmp_path: Path) -> None:
    # Default options: dice=managed (tablelog rolls).
    ok(run(tmp_path, "campaign", "create", "night", "-r", "beer-run"))
    line = refused(run(tmp_path, "beer-run", "character", "ann", "Alice", "-a", "Body:Body"))
    assert line == (
        "bad-ability: --ability 'Body:Body' is not NAME:CATEGORY:dN (e.g. Health:Body:d6)"
    )
    ok(run(tmp_path, "beer-run", "character", "ann", "Alice", *ALICE))
    ok(run(tmp_path, "beer-run", "character", "gm", "Bob", *BOB))
    line = refused(run(tmp_path, "beer-run", "open", "--side", "heroes=alice", "--side", "thugs"))
    assert line.startswith("bad-side: --side 'thugs' is not NAME=CHARACTER[,CHARACTER...]")
    ok(run(tmp_path, "beer-run", "open", "--side", "heroes=alice", "--side", "thugs=bob"))
    ok(run(tmp_path, "beer-run", "goal", "c1", "alice", "Bob backs down"))
    ok(run(tmp_path, "beer-run", "goal", "c1", "bob", "Alice is beaten"))
    ok(run(tmp_path, "beer-run", "pool", "c1", "alice", "Body", "Mind", "Kit", "-x", "Brawl"))
    ok(run(tmp_path, "beer-run", "pool", "c1", "bob", "Body", "Mind", "Kit"))
    # $ tablelog beer-run roll c1   (every pool ready, rolled by tablelog)
    ok(run(tmp_path, "beer-run", "roll", "c1"))

    show = json.loads(ok(run(tmp_path, "beer-run", "show", "c1", "--json")))
    (rnd,) = show["rounds"]
    assert set(rnd["rolls"]) == {"alice", "bob"}
    for actor, faces in rnd["rolls"].items():
        dice = [d["size"] for d in rnd["pools"][actor]["dice"]]
        assert dice == ([8, 6, 4, 10] if actor == "alice" else [8, 8, 6])
        assert len(faces) == len(dice)
        assert all(1 <= face <= size for face, size in zip(faces, dice, strict=True)), faces
    (compared,) = rnd["comparisons"]
    assert (compared["a"], compared["b"]) == ("alice", "bob")  # in the goals' order
    a_values, b_values = compared["a_values"], compared["b_values"]
    assert len(a_values) == len(b_values) == 4  # Bob's three dice padded with a d1
    assert a_values == sorted(rnd["rolls"][compared["a"]], reverse=True)
    assert b_values[:3] == sorted(rnd["rolls"][compared["b"]], reverse=True)
    assert b_values[3] == 1
    winners = [p["winner"] for p in compared["pairs"]]
    decisive = [w for w in winners if w != "tie"]
    side = {"a": compared["a"], "b": compared["b"]}
    assert compared["upper_hand"] == (side[decisive[0]] if decisive else None)
    for letter, who in side.items():
        raw, kept = compared["raw"][who], compared["kept"][who]
        assert raw == winners.count(letter)
        assert kept <= raw
        assert kept == (raw if who == compared["upper_hand"] else (raw + 1) // 2)
    # Effects wait for the kept successes (or the round is done when nobody kept any).
    assert show["phase"] == ("effects" if any(compared["kept"].values()) else "done")
