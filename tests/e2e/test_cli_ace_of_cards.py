"""Ace of Cards end to end through the real CLI (rules/ace-of-cards.md).

One whole conflict with a recorded deck and recorded dice, on SQLite and on PostgreSQL: Kit
(an Ace: Magic Cards 1, Mulligan 1, Trap Card 2) and Bram, the GM's wounded NPC ally, against
a goblin and an ogre. The goblin acts and Kit's Trap Card turns up 3H (a hit: a free 10-MP
spell); Kit resolves 5D 5S and a joker as 5H (AC-2's Triple Support, 45 HP and MP, capped);
a Double or Nothing attack fumbles and High or Low draws 1 and discards 1; Kit's Mulligan
swaps a card; a second attack rolls 7 and 7 (AC-6 a: 24 damage); the conflict ends. Every
number is worked out by hand from the rules. Refusals along the way: exit 1, one sentence,
nothing appended.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.e2e.transcript import log_json, no_crash, ok, refused, run

TYPES = ("-s", "clubs=fire", "-s", "diamonds=earth", "-s", "hearts=ice", "-s", "spades=air")


def test_a_whole_conflict_through_the_cli_on_both_backends(tmp_path: Path, target: str) -> None:
    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        # On SQLite every command is its own `python -m tablelog` (cli_runner.py's contract).
        return run(tmp_path, "--db", target, *args, subprocess="://" not in target)

    def ac(*args: str) -> subprocess.CompletedProcess[str]:
        return tl("ace-of-cards", *args)

    def seq() -> int:
        return len(log_json(tmp_path, env={"TABLELOG_DB": target}))

    def no_append(result: subprocess.CompletedProcess[str], sentence: str) -> None:
        before = seq()
        assert refused(result) == sentence
        assert seq() == before

    if "://" in target:
        ok(tl("db", "upgrade"))
    ok(
        tl(
            "campaign",
            "create",
            "fight",
            "-r",
            "ace-of-cards",
            "--deck-mode",
            "recorded",
            "--dice",
            "recorded",
        )
    )
    ok(ac("character", "ann", "Kit", "--hp", "40", "--mp", "35"))
    ok(ac("character", "gm", "Bram", "--hp", "50", "--mp", "30"))
    ok(ac("deck", "Kit", "--benefit", "mp", *TYPES))  # 35 + 5 = 40 MP
    ok(ac("skill", "Kit", "magic-cards", "1"))
    ok(ac("skill", "Kit", "mulligan", "1"))
    ok(ac("skill", "Kit", "trap-card", "2"))
    ok(ac("skill", "Kit", "high-or-low", "1"))  # a Skill of the class (class_skills=taken)
    ok(ac("hp", "Bram", "-20", "--reason", "an earlier ambush"))  # 30/50
    no_append(
        ac("mulligan", "c1", "Kit", "7C"),
        "not-in-conflict: deck, hand and discard exist only during a conflict; Kit is in none",
    )
    opened = ac(
        "open",
        "--party",
        "Kit",
        "--party",
        "Bram",
        "--enemy",
        "Goblin",
        "--enemy",
        "Ogre",
        "--hand",
        "Kit=5D,5S,JK1,2H,7C",
        "--json",
    )
    assert json.loads(ok(opened)) == {"conflict": "c1"}

    # --- Trap Card after the goblin's action: 3H under hearts is a hit ----------------------
    no_append(
        ac("trap", "c1", "Kit", "hearts", "--card", "3H"),
        "no-trigger: Trap Card needs a resolved action by an enemy you can see; conflict c1 "
        "has no action yet",
    )
    ok(ac("act", "c1", "Goblin", "claws at Kit"))
    ok(ac("trap", "c1", "Kit", "hearts", "--card", "3H"))
    no_append(
        ac("spell", "c1", "Kit", "Ice bolt", "15"),
        "spell-cost: free spell costs 15 MP; limit is SL x 5 = 10",
    )
    ok(ac("spell", "c1", "Kit", "Ice bolt", "10"))  # MP 40 -> 30

    # --- AC-2: Triple Support with a joker as 5H --------------------------------------------
    no_append(
        ac("magic", "c1", "Kit", "20", "5D", "5S", "JK", "2H", "--joker", "JK=5H"),
        "mp-range: Magic Cards at SL 1 takes 10-15 MP in steps of 5; got 20",
    )
    no_append(
        ac("magic", "c1", "Kit", "15", "5D", "5S", "7D", "--drawn", "1C,2C,4C"),
        "card-not-there: card 7D is not in hand",
    )
    ok(ac("magic", "c1", "Kit", "15", "5D", "5S", "JK", "--joker", "JK=5H", "--drawn", "1C,2C,4C"))
    # Kit: MP 30 - 15 = 15, +45 capped at 40 (+25); Bram: HP 30 +45 capped at 50 (+20).

    # --- a Double or Nothing attack fumbles: High or Low ------------------------------------
    attack = ("check", "c1", "Kit", "--kind", "accuracy", "--dice", "d8,d10", "--dl", "9",
              "--damage", "5", "--target", "Ogre", "--double")  # fmt: skip
    no_append(
        ac(*attack),
        "no-skill: Double or Nothing is a Skill of the class that Kit has not taken "
        "(class_skills=taken): SL 0, 1 needed; take it with `skill Kit double-or-nothing 1`",
    )
    ok(ac("skill", "Kit", "double-or-nothing", "1"))
    ok(ac(*attack))
    ok(ac("roll", "c1", "k1", "--values", "1,1"))
    no_append(
        ac("double", "c1", "k1"),
        "don-too-late: double or nothing must be declared before the Check is rolled; k1 was "
        "rolled",
    )
    ok(ac("high-or-low", "c1", "Kit", "--card", "6D"))
    no_append(
        ac("mulligan", "c1", "Kit", "7C", "--drawn", "3D"),
        "discard-owed: High or Low: Kit drew a card and must discard 1 card first",
    )
    ok(ac("discard", "c1", "Kit", "2H"))

    # --- Mulligan at the end of the turn: 1 card at SL 1 ------------------------------------
    no_append(
        ac("mulligan", "c1", "Kit", "7C", "1C", "--drawn", "3D,4D"),
        "mulligan-limit: Mulligan allows at most SL (1) cards; 2 given",
    )
    ok(ac("mulligan", "c1", "Kit", "7C", "--drawn", "3D"))

    # --- AC-6 (a): 7 and 7 doubled --------------------------------------------------------
    ok(ac("act", "c1", "Ogre", "swings its club"))
    ok(
        ac(
            "check",
            "c1",
            "Kit",
            "--kind",
            "accuracy",
            "--dice",
            "d8,d10",
            "--dl",
            "9",
            "--damage",
            "5",
            "--target",
            "Ogre",
        )
    )
    ok(ac("double", "c1", "k2"))
    ok(ac("roll", "c1", "k2", "--values", "7,7"))

    shown = json.loads(ok(ac("show", "c1", "--json")))
    assert shown["aces"]["kit"]["hand"] == ["1C", "2C", "4C", "6D", "3D"]
    assert shown["aces"]["kit"]["discard"] == ["3H", "5D", "5S", "JK1", "2H", "7C"]
    assert shown["aces"]["kit"]["deck"] == 30 - 5 - 6
    assert shown["checks"]["k2"]["dealt"] == 24
    ok(ac("end", "c1"))

    # --- the table ------------------------------------------------------------------------
    state = json.loads(ok(tl("state", "--json")))
    assert {"campaign", "ruleset", "seq", "session", "conflicts", "characters"} <= set(state)
    kit, bram = state["characters"]["kit"], state["characters"]["bram"]
    assert (kit["hp"], kit["mp"], kit["max_mp"]) == (40, 40, 40)
    assert (bram["hp"], bram["mp"]) == (50, 30)
    assert kit["cards"] is None  # put away
    c1 = state["conflicts"]["c1"]
    assert c1["status"] == "ended"
    assert c1["beats"] == [["kit", "ogre"]]
    sets = c1["sets"]
    assert [(s["set"], s["amount"]) for s in sets] == [("triple-support", 45)]
    assert c1["checks"]["k1"]["success"] is False
    events = log_json(tmp_path, env={"TABLELOG_DB": target})
    assert state["seq"] == len(events)
    recovered = next(e for e in events if e["type"] == "ac.set_effect_applied")["payload"]
    assert recovered["recovered"] == [
        {"character_id": "kit", "hp": 0, "mp": 25},
        {"character_id": "bram", "hp": 20, "mp": 0},
    ]

    # --- the account and the posts ----------------------------------------------------------
    audited = tl("audit", "--json")
    no_crash(audited)
    assert audited.returncode == 0, audited.stdout
    report = json.loads(audited.stdout)
    notes = [n["text"] for s in report["conflicts"][0]["sections"] for n in s["notes"]]
    assert any("(5 + 5 + 5) x 3 = 45" in n for n in notes)
    assert any("x 2 = 24" in n for n in notes)
    assert any("bottom card is 3H" in n for n in notes)
    for fmt in ("markdown", "bbcode", "discord"):
        post = ok(tl("export", "--format", fmt))
        assert "Triple Support" in post, fmt
        assert "= 24" in post, fmt
    ok(tl("verify"))
