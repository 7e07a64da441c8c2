"""Issue 26 through the real CLI on a real SQLite file: a set matching no effect is named
before anything is spent (refused, exit 1, unless `--anyway`), and a Magic Pair's free attack
is a Check of its own kind (`check --free-attack`), Double or Nothing included once taken."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.e2e.transcript import log_json, ok, refused, run

TYPES = ("-s", "clubs=fire", "-s", "diamonds=earth", "-s", "hearts=ice", "-s", "spades=air")
ATTACK = ("--dice", "d8,d10", "--dl", "9", "--damage", "5", "--target", "Ogre")


def test_no_effect_is_said_first_and_the_pair_attacks_as_a_check(tmp_path: Path) -> None:
    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        return run(tmp_path, "--db", "fight.db", *args)

    def ac(*args: str) -> subprocess.CompletedProcess[str]:
        return tl("ace-of-cards", *args)

    def no_append(result: subprocess.CompletedProcess[str], sentence: str) -> None:
        before = len(log_json(tmp_path, env={"TABLELOG_DB": "fight.db"}))
        assert refused(result) == sentence
        assert len(log_json(tmp_path, env={"TABLELOG_DB": "fight.db"})) == before

    ok(tl("campaign", "create", "fight", "-r", "ace-of-cards", "--deck-mode", "recorded",
          "--dice", "recorded"))  # fmt: skip
    ok(ac("character", "ann", "Kit", "--hp", "40", "--mp", "35"))
    ok(ac("deck", "Kit", "--benefit", "mp", *TYPES))
    ok(ac("skill", "Kit", "magic-cards", "2"))
    ok(tl("session", "start"))
    ok(ac("open", "--party", "Kit", "--enemy", "Ogre", "--hand", "Kit=3C,3D,5H,6S,JK1"))

    # A set matching no effect: refused first, then played on purpose.
    no_append(
        ac("magic", "c1", "Kit", "10", "5H", "6S", "--drawn", "1C,2C"),
        "no-effect: this set matches no effect: 5H 6S would spend 10 MP and 2 cards for "
        "nothing; play it anyway (`--anyway`) or choose other cards",
    )
    played = ok(ac("magic", "c1", "Kit", "10", "5H", "6S", "--drawn", "1C,2C", "--anyway"))
    assert "5H 6S -> this set matches no effect (MP and cards spent)" in played

    # A Magic Pair, then its free attack: an Accuracy Check, doubled once the Skill is taken.
    ok(ac("magic", "c1", "Kit", "10", "3C", "3D", "--type", "fire", "--drawn", "4C,5C"))
    no_append(
        ac("check", "c1", "Kit", "--free-attack", *ATTACK, "--double"),
        "no-skill: Double or Nothing is a Skill of the class that Kit has not taken "
        "(class_skills=taken): SL 0, 1 needed; take it with `skill Kit double-or-nothing 1`",
    )
    no_append(
        ac("check", "c1", "Kit", "--free-attack", "--kind", "magic", *ATTACK),
        "free-attack-kind: a Magic Pair's free attack is an Accuracy Check (a weapon "
        "equipped); magic given",
    )
    ok(ac("skill", "Kit", "double-or-nothing", "1"))
    called = ok(ac("check", "c1", "Kit", "--free-attack", *ATTACK, "--double"))
    assert "kit's accuracy Check (its Magic Pair's free attack)" in called
    rolled = ok(ac("roll", "c1", "k1", "--values", "7,7"))
    assert "x 2 = 24; the Magic Pair makes it fire" in rolled
    no_append(
        ac("check", "c1", "Kit", "--free-attack", *ATTACK),
        "no-free-attack: a free attack follows at once a Magic Pair; Kit has none pending",
    )

    shown = json.loads(ok(ac("show", "c1", "--json")))
    assert [s["attack"] for s in shown["sets"]] == [None, "k1"]
    assert (shown["checks"]["k1"]["dealt"], shown["checks"]["k1"]["damage_type"]) == (24, "fire")
    assert "every recorded decision of campaign fight follows" in ok(tl("audit"))
