"""Night Terrors end to end through the real CLI (rules/night-terrors.md).

One whole conflict with a recorded deck, on SQLite and on PostgreSQL: Alice (King of Spades)
against Bob (Queen of Hearts), a melee (Clubs). Two clean sees; a four-card see taking its
middle card as fallout and the raise's trump value as trump fallout, paid by Bob's own split of
Sweat and Blood; Bob, out of cards, escalates to guns; everyone draws, and his see without a
Club pays the trump fallout in Blood, the trump in force when paid; then he gives and Alice
decides the stakes. Every number below is worked out by hand from the rules.

Then the refusals on the way: exit 1, one sentence on stderr, nothing appended.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.e2e.transcript import ok, refused, run


def test_a_whole_conflict_on_both_backends(tmp_path: Path, target: str) -> None:
    def tl(*args: str) -> subprocess.CompletedProcess[str]:
        return run(tmp_path, "--db", target, *args)

    def nt(*args: str) -> subprocess.CompletedProcess[str]:
        return tl("night-terrors", *args)

    def state() -> dict[str, Any]:
        found: dict[str, Any] = json.loads(ok(tl("state", "--json")))
        return found

    def refuse(*args: str) -> str:
        seq = state()["seq"]
        line = refused(nt(*args))
        assert state()["seq"] == seq, "a refused command appended something"
        return line

    if "://" in target:
        ok(tl("db", "upgrade"))
    ok(tl("campaign", "create", "night", "-r", "night-terrors", "-o", "deck=recorded"))
    ok(nt("character", "ann", "Alice", "KS"))
    ok(nt("character", "ben", "Bob", "QH"))
    assert refuse("character", "cy", "Cy", "ks") == (
        "nt-card-taken: the King of Spades is already Alice; each face card is one character"
    )
    ok(tl("session", "start"))
    ok(nt("draw", "Alice", "6D", "KS", "2C", "3C"))
    ok(nt("draw", "Bob", "7C", "5H", "2D", "3D"))
    opened = json.loads(
        ok(nt("open", "Alice", "Bob", "--type", "melee", "--stakes", "the ledger", "--json"))
    )
    assert opened == {"conflict": "c1"}
    ok(nt("draw", "Alice", "4C", "5C", "6C", "8C"))  # Clubs is neither one's suit: 4 each
    ok(nt("draw", "Bob", "2H", "3H", "4H", "6H"))

    # Exchange 1: 6D + KS = 12, no Club in it. Bob's 7C + 5H = 12: a clean see.
    assert "alice raises 6D + KS = 12 (no trump)" in ok(nt("raise", "c1", "Alice", "6D", "KS"))
    assert refuse("see", "c1", "Bob", "7C", "9C") == "nt-not-in-hand: card 9C is not in bob's hand"
    assert "clean see" in ok(nt("see", "c1", "Bob", "7C", "5H"))
    # Exchange 2: Bob 2H + 3H = 5; Alice 2C + 3C = 5.
    assert refuse("raise", "c1", "Alice", "2C", "3C") == "nt-not-your-raise: it is bob's raise"
    ok(nt("raise", "c1", "Bob", "2H", "3H"))
    ok(nt("see", "c1", "Alice", "2C", "3C"))
    # Exchange 3: 8C + 6C = 14, trump value 8. Bob needs all four: 2 + 3 + 4 + 6 = 15, and
    # no Club: fallout 4 (sorted 2,3,4,6: drop 2 and 6, the highest left) and trump fallout 8.
    assert "trump value 8" in ok(nt("raise", "c1", "Alice", "8C", "6C"))
    assert refuse("see", "c1", "Bob", "4H", "6H") == (
        "nt-does-not-meet: 10 does not meet the raise of 14; "
        "your hand can meet it: play more cards, or give"
    )
    saw = ok(nt("see", "c1", "Bob", "2D", "3D", "4H", "6H"))
    assert "fallout 4, the highest middle card" in saw
    assert "trump fallout 8" in saw
    bob = state()["characters"]["bob"]
    assert bob["costs"] == [
        {"conflict": "c1", "cause": "fallout", "amount": 4},
        {"conflict": "c1", "cause": "trump_fallout", "amount": 8},
    ]
    # Clubs: Sweat or Blood, split as Bob likes; a Queen's trade is for Tears, not here.
    assert refuse("pay", "Bob", "--tears", "4") == (
        "nt-payment-pool: Clubs costs are paid in Sweat or Blood only; Tears 4 given"
    )
    assert refuse("raise", "c1", "Alice", "4C", "5C") == (
        "nt-pay-first: bob owes 4 (fallout); pay it first"
    )
    assert refuse("pay", "Bob", "--sweat", "3") == (
        "nt-payment-total: payment 3 does not equal amount due 4"
    )
    ok(nt("pay", "Bob", "--sweat", "4"))
    ok(nt("pay", "Bob", "--sweat", "4", "--blood", "4"))
    bob = state()["characters"]["bob"]
    assert (bob["blood"], bob["sweat"], bob["tears"], bob["hand_size"]) == (16, 12, 20, 0)

    # Exchange 4: Bob holds no cards (skipped as raiser); Alice raises 4C + 5C = 9, trump 5.
    ok(nt("raise", "c1", "Alice", "4C", "5C"))
    assert refuse("escalate", "c1", "Bob", "--to", "talk") == (
        "nt-escalate-down: escalation only goes up (Clubs to Diamonds refused)"
    )
    assert "trump Clubs -> Spades" in ok(nt("escalate", "c1", "Bob", "--to", "guns"))
    ok(nt("draw", "Alice", "7D", "8D", "9D", "10D", "AS"))  # Spades is her suit: 5
    ok(nt("draw", "Bob", "9S", "10S", "JS", "QS"))
    # JS + 10S = 20 meets 9, but holds no Club, the raise's trump when made: trump fallout 5,
    # paid under Spades (the trump now) in Blood, which a Queen cannot trade: made at once.
    saw = ok(nt("see", "c1", "Bob", "JS", "10S"))
    assert "bob pays 5 (trump fallout) under Spades: blood 5" in saw
    assert state()["characters"]["bob"]["blood"] == 11
    assert refuse("escalate", "c1", "Bob") == "nt-answered: bob already answered this raise"
    assert "conflict c1 ends: alice" in ok(nt("give", "c1", "Bob"))
    assert refuse("narrate", "c1", "Bob", "mine") == (
        "nt-not-winner: only alice decides the stakes of c1; bob is out"
    )
    ok(nt("narrate", "c1", "Alice", "Alice keeps the ledger."))
    assert refuse("raise", "c1", "Alice", "7D", "8D") == "nt-conflict-ended: conflict c1 has ended"

    # --- the reads -----------------------------------------------------------------------
    now = state()
    assert {"campaign", "ruleset", "seq", "session", "conflicts"} <= set(now)
    conflict = now["conflicts"]["c1"]
    assert (conflict["status"], conflict["trump"], conflict["winners"]) == ("ended", "S", ["alice"])
    assert conflict["beats"] == [["alice", "bob"]]
    assert (
        now["deck"] + now["set_aside"] + sum(c["hand_size"] for c in now["characters"].values())
        == 52
    )
    shown = json.loads(ok(nt("show", "c1", "--json")))
    assert [x["raise"]["value"] for x in shown["exchanges"]] == [12, 5, 14, 9]
    assert [a["outcome"] for x in shown["exchanges"] for a in x["answers"]] == [
        "see",
        "see",
        "heavy_see",
        "see",
    ]
    # Bob's view: his own hand, Alice's as a count.
    as_bob = json.loads(ok(tl("state", "--as", "ben", "--json")))["characters"]
    assert as_bob["alice"]["hand"] is None
    assert as_bob["bob"]["hand"] == ["9S", "QS"]
    report = json.loads(ok(tl("audit", "--json")))
    assert report["ok"] is True
    notes = [n["text"] for s in report["conflicts"][0]["sections"] for n in s["notes"]]
    assert any("fallout 4, the highest middle card" in n for n in notes)
    post = ok(tl("export", "--format", "markdown", "--conflict", "c1"))
    assert "alice raises 8C + 6C = 14" in post  # as typed: + and = form no markup
    assert "tablelog verify -c night --head" in post
    assert json.loads(ok(tl("verify", "--json")))["ok"] is True


def test_the_demo_writes_nt5_and_a_managed_deck_deals_itself(tmp_path: Path) -> None:
    written = ok(run(tmp_path, "demo", "--ruleset", "night-terrors"))
    assert "alice raises 9H + 2D + 8D = 19" in written
    assert "conflict c1 ends: alice" in written
    # A managed deck (the default): tablelog shuffles and deals, nobody records a draw.
    db = ("--db", "managed.db")
    ok(run(tmp_path, *db, "campaign", "create", "m", "-r", "night-terrors"))
    ok(run(tmp_path, *db, "night-terrors", "character", "ann", "Alice", "KS"))
    ok(run(tmp_path, *db, "night-terrors", "character", "ben", "Bob", "QH"))
    ok(run(tmp_path, *db, "session", "start"))
    line = refused(run(tmp_path, *db, "night-terrors", "draw", "Alice", "2C"))
    assert line.startswith("nt-managed-deck: tablelog deals the cards")
    ok(run(tmp_path, *db, "night-terrors", "open", "Alice", "Bob", "--type", "guns"))
    hands = json.loads(ok(run(tmp_path, *db, "state", "--json")))["characters"]
    assert (hands["alice"]["hand_size"], hands["bob"]["hand_size"]) == (9, 8)
