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
        # On SQLite every command is its own `python -m tablelog` (cli_runner.py's contract).
        return run(tmp_path, "--db", target, *args, subprocess="://" not in target)

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
    assert "Alice raises 6D + KS = 12 (no trump)" in ok(nt("raise", "c1", "Alice", "6D", "KS"))
    assert refuse("see", "c1", "Bob", "7C", "9C") == "nt-not-in-hand: card 9C is not in Bob's hand"
    assert "clean see" in ok(nt("see", "c1", "Bob", "7C", "5H"))
    # Exchange 2: Bob 2H + 3H = 5; Alice 2C + 3C = 5.
    assert refuse("raise", "c1", "Alice", "2C", "3C") == "nt-not-your-raise: it is Bob's raise"
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
        "nt-pay-first: Bob owes 4 (fallout); pay it first"
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
    assert "Bob pays 5 (trump fallout) under Spades: blood 5" in saw
    assert state()["characters"]["bob"]["blood"] == 11
    assert refuse("escalate", "c1", "Bob") == "nt-answered: Bob already answered this raise"
    assert "conflict c1 ends: Alice" in ok(nt("give", "c1", "Bob"))
    assert refuse("narrate", "c1", "Bob", "mine") == (
        "nt-not-winner: only Alice decides the stakes of c1; Bob is out"
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
    assert "Alice raises 8C + 6C = 14" in post  # as typed: + and = form no markup
    assert "tablelog verify -c night --head" in post
    assert json.loads(ok(tl("verify", "--json")))["ok"] is True


def test_the_demo_writes_nt5_and_a_managed_deck_deals_itself(tmp_path: Path) -> None:
    written = ok(run(tmp_path, "demo", "--ruleset", "night-terrors"))
    assert "Alice raises 9H + 2D + 8D = 19" in written
    assert "conflict c1 ends: Alice" in written
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


def test_names_in_any_case_are_printed_as_created(tmp_path: Path) -> None:
    """A character is named in any letter case by every command, and printed as it was
    created (Alice, Bob) wherever words name it; JSON keys and values stay lower case.
    After `open` with a recorded deck, the answer says who draws how many cards."""

    def tl(*args: str) -> str:
        return ok(run(tmp_path, *args))

    def nt(*args: str) -> str:
        return tl("night-terrors", *args)

    def refuse(*args: str) -> str:
        return refused(run(tmp_path, "night-terrors", *args))

    tl("campaign", "create", "night", "-r", "night-terrors", "-o", "deck=recorded")
    nt("character", "ann", "Alice", "KS")
    nt("character", "ben", "Bob", "QH")
    tl("session", "start")
    assert "Alice draws 4 cards (session)" in nt("draw", "ALICE", "6D", "KS", "2H", "3H")
    assert "Bob draws 4 cards (session)" in nt("draw", "bOB", "7C", "5H", "2D", "3D")
    opened = nt("open", "aLiCe", "BOB", "--type", "melee")
    assert "conflict c1 opens: Alice, Bob; melee, trump Clubs; Alice raises first" in opened
    # Clubs is neither one's suit: 4 each, for the table to deal and `draw` to record.
    assert "to draw (record them with draw): Alice 4 cards, Bob 4 cards" in opened
    assert "trump Spades" not in opened
    nt("draw", "alice", "4H", "7H", "6H", "8H")
    nt("draw", "BOB", "9C", "10C", "JC", "4D")
    assert "Alice raises 8H + 6H = 14 (no trump)" in nt("raise", "c1", "ALICE", "8H", "6H")
    assert "Bob answers 9C + 5H = 14 against 14: clean see" in nt("see", "c1", "bob", "9C", "5H")
    assert "Bob raises JC + 10C = 20 (trump value 10)" in nt("raise", "c1", "BoB", "JC", "10C")
    assert refuse("push", "c1", "ALICE", "2H").startswith("nt-can-see: Alice can meet the raise")
    assert refuse("escalate", "c1", "aLICE").startswith("nt-can-see: Alice can meet the raise")
    saw = nt("see", "c1", "alice", "KS", "6D", "4H")
    assert "Alice answers KS + 6D + 4H = 20 against 20" in saw
    assert refuse("pay", "ALICE", "--tears", "6") == (
        "nt-trade-limit: a King may move at most 3 of the 6 Sweat"
    )
    assert "Alice pays 6 (fallout) under Clubs: sweat 6" in nt("pay", "ALICE", "--sweat", "6")
    assert "Alice pays 10 (trump fallout)" in nt("pay", "aLiCe", "--blood", "10")
    assert "Alice's raise" not in tl("state")  # the exchange is over: Alice raises next
    assert "in: Alice, Bob; Alice raises next" in tl("state")
    gave = nt("give", "c1", "BOB")
    assert "c1: Bob is out (gave)" in gave
    assert "conflict c1 ends: Alice decides the stakes" in gave
    assert "c1: Alice narrates: Mine." in nt("narrate", "c1", "ALICE", "Mine.")

    # A new scene resets the hands: Alice (3 cards) draws 1; Bob (4) may refresh.
    tl("scene", "start")
    assert refuse("discard", "BOB", "7C").startswith("nt-no-discard-owed: Bob holds 4 cards")
    assert "Bob discards 1 card (refresh)" in nt("refresh", "bOb", "7C")
    nt("draw", "BOB", "9D")
    assert "Alice draws 1 card (scene_reset)" in nt("draw", "ALICE", "9H")
    assert nt("hand", "aLiCe") == "Alice: 2H 3H 7H 9H (deck 43)\n"
    hand = json.loads(nt("hand", "ALICE", "--json"))
    assert (hand["character"], hand["name"]) == ("alice", "Alice")

    # Pretty output keeps the spelling given; JSON keys and values are lower case (cli.md).
    assert "Alice (KS): Blood 10, Sweat 14, Tears 20" in tl("state")
    now = json.loads(tl("state", "--json"))
    assert set(now["characters"]) == {"alice", "bob"}
    assert now["characters"]["alice"]["name"] == "Alice"
    assert now["conflicts"]["c1"]["winners"] == ["alice"]
    log = tl("log")
    assert "c1: Alice raises 8H + 6H = 14" in log
    assert "alice raises" not in log
    assert "bob answers" not in log
    shown = nt("show", "c1")
    assert "exchange 2: Bob raises JC + 10C = 20 (trump value 10)" in shown
    assert "ended: Alice" in shown
    assert "Alice: Mine." in shown
    assert json.loads(nt("show", "c1", "--json"))["winners"] == ["alice"]
    assert "Alice raises 8H + 6H = 14" in tl("replay", "--conflict", "c1")
