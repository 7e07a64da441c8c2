"""An Ace of Cards log written before issue 26, through the real CLI on a real SQLite file.

`tests/fixtures/ace-of-cards-b6d6602.jsonl` was exported by the tablelog of b6d6602 itself
(tests/fixtures/README.md): Kit, who never took Double or Nothing or High or Low (they were
then open to every Ace), plays a Magic Pair (3C 3D, fire) and then, as a Check of its own, a
doubled attack that rolls 7, 7 (24 damage), draws with High or Low, and a second doubled
attack whose success (4, 9) becomes a failure. Conflict c1 is left open.

The campaign's creation event has no `class_skills`: it plays on as `all`, as it was written;
a Magic Pair played now has its free attack tied to it, the old one stays as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.transcript import ok, run

SOUND = (
    "every recorded decision of campaign fight follows from the events before it under its "
    "rules and options (up to seq {seq})"
)
OLD = Path(__file__).resolve().parents[1] / "fixtures" / "ace-of-cards-b6d6602.jsonl"


def test_a_log_written_before_issue_26_imports_verifies_audits_and_plays_on(
    tmp_path: Path,
) -> None:
    def tl(*args: str) -> str:
        return ok(run(tmp_path, "--db", "old.db", *args))

    def ac(*args: str) -> str:
        return tl("ace-of-cards", *args)

    assert "24 events" in tl("import", str(OLD))
    assert tl("verify") == "ok: 1 campaign(s), 24 event(s), every chain intact\n"
    assert SOUND.format(seq=24) in tl("audit", "-c", "fight")

    # Plays on as it did: Kit, who took neither Double or Nothing nor High or Low, declares
    # the one and uses the other.
    ac("check", "c1", "Kit", "--kind", "accuracy", "--dice", "d8,d10", "--dl", "9")
    ac("double", "c1", "k3")
    assert "6 + 6 = 12 against 9: critical success" in ac("roll", "c1", "k3", "--values", "6,6")
    assert "draws 1 card(s) (high or low)" in ac("high-or-low", "c1", "Kit", "--card", "7S")
    assert "uses High or Low" in ac("discard", "c1", "Kit", "7S")
    assert SOUND.format(seq=31) in tl("audit", "-c", "fight")
    state = json.loads(tl("state", "-c", "fight", "--json"))
    assert state["options"]["class_skills"] == "all"  # none recorded: as it was written
    # The old Magic Pair (seq 10-11) and the attack after it (k1) stay apart: k1 is a Check of
    # its own. A new pair in this campaign has its attack tied to it.
    assert state["conflicts"]["c1"]["sets"][0]["attack"] is None
    assert state["conflicts"]["c1"]["checks"]["k1"]["magic_pair"] is None
    ac("magic", "c1", "Kit", "10", "JK1", "2C", "--joker", "JK1=2H", "--type", "ice",
       "--drawn", "1S,2S")  # fmt: skip
    ac("check", "c1", "Kit", "--free-attack", "--dice", "d8,d10", "--dl", "9", "--damage", "5",
       "--target", "Goblin", "--double")  # fmt: skip
    rolled = ac("roll", "c1", "k4", "--values", "7,7")
    assert "x 2 = 24; the Magic Pair makes it ice" in rolled
    assert SOUND.format(seq=39) in tl("audit", "-c", "fight")
