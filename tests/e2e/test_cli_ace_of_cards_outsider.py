"""Ace of Cards as a newcomer plays it from the README (issue 18's held-out play), through the
real CLI: `demo`, then what-if the GM had chosen AC-1's other flush; `show` telling the demo's
conflict in order; a party member without the class asking for its hand."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.transcript import ok, refused, run

# The demo: seq 12 is the goblin's action, seq 13 Kit's Magic Cards (AC-1: Magic Flush).
OTHER_FLUSH = "ace-of-cards magic c1 Kit 20 3C 4C 5C 6C --set blinding-flush --drawn 1C,2C,7C,1D\n"


def test_whatif_the_other_flush_says_how_the_outcome_differs(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo", "--ruleset", "ace-of-cards"))
    (tmp_path / "flush.txt").write_text(OTHER_FLUSH, encoding="utf-8")
    out = ok(run(tmp_path, "whatif", "--at", "12", "flush.txt"))
    assert "conflict c1 differs:" in out
    assert (
        "real only:    kit Magic Cards 20 MP: 3C 4C 5C 6C -> Magic Flush 43 fire to goblin, ogre"
    ) in out
    assert (
        "what-if only: kit Magic Cards 20 MP: 3C 4C 5C 6C -> Blinding Flush 33 light to goblin, "
        "ogre"
    ) in out
    result = json.loads(ok(run(tmp_path, "whatif", "--at", "12", "flush.txt", "--json")))
    (difference,) = result["differences"]
    assert difference["whatif_outcome"] == [
        "kit Magic Cards 20 MP: 3C 4C 5C 6C -> Blinding Flush 33 light to goblin, ogre"
    ]
    assert difference["real_outcome"][0].endswith("Magic Flush 43 fire to goblin, ogre")


def test_show_tells_the_demo_in_order_and_a_plain_ally_has_no_hand(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo", "--ruleset", "ace-of-cards"))
    shown = ok(run(tmp_path, "ace-of-cards", "show", "c1")).splitlines()
    assert shown[1:4] == [
        "  a1: goblin: rushes Kit with a rusty blade",
        "  kit Magic Cards 20 MP: 3C 4C 5C 6C -> Magic Flush 43 fire to goblin, ogre",
        "  a2: ogre: roars and swings its club",
    ]
    ok(run(tmp_path, "ace-of-cards", "character", "gm", "Bram", "--hp", "50", "--mp", "30"))
    ok(run(tmp_path, "ace-of-cards", "open", "--party", "Kit", "--party", "Bram", "--enemy",
           "Wolf", "--hand", "Kit=1C,2C,3C,4C,5C"))  # fmt: skip
    assert refused(run(tmp_path, "ace-of-cards", "hand", "Bram")) == (
        "no-deck: Bram has no deck: Ace of Cards skills need the class (`deck`)"
    )
