"""End-to-end: `tablelog audit` explains the seed's bar fight and flags edited decisions.

The audit recomputes every recorded decision (a reveal, a close, a session's start, ...) from
the events before it. To test that it notices a decision that does not follow, the demo's log
is exported, one payload is changed, and the file is re-chained with tablelog's own hash
functions, so that `import` and `verify` accept it: only the audit can tell it is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

import tablelog.rulesets.improv.events  # noqa: F401  (registers the Improv event types for decoding)
from tablelog.events.chain import GENESIS, envelope_hash
from tablelog.events.codec import decode, encode
from tablelog.events.envelope import Envelope, envelope_from_line
from tests.e2e.transcript import broken, create, ok, refused, run

Edit = Callable[[dict[str, Any]], None]

VERDICT_OK = (
    "verdict: every recorded decision of campaign bar-fight follows from the events before it "
    "under its rules and options (up to seq 58)"
)


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the demo's `tablelog.db` and its export `fight.jsonl` (read only)."""
    where = tmp_path_factory.mktemp("demo")
    ok(run(where, "demo"))
    ok(run(where, "export", "--format", "jsonl", "--output", "fight.jsonl"))
    return where


# --- re-chaining an edited export, as tablelog computes the chain -----------------------


def rechained(
    export: Path, edits: dict[int, Edit], *, campaign: str | None = None
) -> list[Envelope]:
    """The export's events with `edits` applied to the payloads at those seqs, every hash
    recomputed from the first line on (and the campaign renamed when `campaign` is given)."""
    chain: list[Envelope] = []
    for line in export.read_bytes().splitlines():
        envelope = envelope_from_line(line)
        payload = json.loads(envelope.payload)
        if envelope.seq in edits:
            edits[envelope.seq](payload)
        if campaign is not None and envelope.seq == 1:
            payload["campaign"] = campaign
        # Through the event class and the canonical encoder: the bytes tablelog would store.
        event = decode(envelope.type, envelope.schema_version, json.dumps(payload).encode())
        canonical = encode(event)
        assert json.loads(canonical) == payload, f"seq {envelope.seq}: the edit names no field"
        envelope = msgspec.structs.replace(
            envelope,
            campaign=campaign or envelope.campaign,
            payload=canonical,
            prev_hash=chain[-1].hash if chain else GENESIS,
        )
        chain.append(msgspec.structs.replace(envelope, hash=envelope_hash(envelope)))
    return chain


def write_edited(
    demo: Path, into: Path, edits: dict[int, Edit], *, campaign: str | None = None
) -> Path:
    path = into / "edited.jsonl"
    lines = [e.to_json_line() for e in rechained(demo / "fight.jsonl", edits, campaign=campaign)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def type_at(demo: Path, seq: int) -> str:
    line = (demo / "fight.jsonl").read_bytes().splitlines()[seq - 1]
    envelope = envelope_from_line(line)
    assert envelope.seq == seq
    return envelope.type


def line_with(text: str, *parts: str) -> str:
    """The one line of `text` that holds every part."""
    found = [line for line in text.splitlines() if all(p in line for p in parts)]
    assert len(found) == 1, f"expected one line with {parts}, got {found}\n{text}"
    return found[0]


def notes(report: dict[str, Any], kind: str, seq: int | None = None) -> list[dict[str, Any]]:
    """The `data` of every note of `kind` (at `seq`) in the first conflict's account."""
    return [
        note["data"]
        for section in report["conflicts"][0]["sections"]
        for note in section["notes"]
        if note["kind"] == kind and (seq is None or note["seq"] == seq)
    ]


def test_rechaining_an_unedited_export_reproduces_it_byte_for_byte(demo_dir: Path) -> None:
    lines = [e.to_json_line() for e in rechained(demo_dir / "fight.jsonl", {})]
    assert b"\n".join(lines) + b"\n" == (demo_dir / "fight.jsonl").read_bytes()


# --- 1. the demo: every outcome explained, nothing flagged ----------------------------


def test_the_demo_bar_fight_is_explained_and_every_decision_follows(demo_dir: Path) -> None:
    # $ tablelog audit
    out = ok(run(demo_dir, "audit"))
    assert out.splitlines()[0] == "audit of campaign bar-fight (improv), seq 1-58"
    assert "conflict fight (extended, 3 rounds), closed (seq 12-58)" in out
    # The round tables: card, who placed each bonus, total.
    round_2 = [
        line.split() for line in out.split("  Round 2")[1].split("  Round 3")[0].splitlines()
    ]
    assert ["Kit", "A♥", "+1", "token(s)", "by", "Kit", "17"] in round_2
    assert ["Riso", "A♣", "+1", "token(s)", "by", "the", "GM", "17"] in round_2
    assert ["Diana", "J♥", "talent", "marksman", "by", "Diana", "14"] in round_2
    # R2: Kit A♥ + token 17 beats Riso A♣ + GM token 17 on suit, suit order CDHS.
    line = line_with(out, "[35] Kit 17 vs Riso 17")
    assert "A♥ beats A♣ on suit (order CDHS" in line
    assert line.endswith("Kit wins")
    # Kit's token: red against black, so out of play; the GM's token goes to the pool.
    line = line_with(out, "[35] 1 token(s) from the table to out of play")
    assert "kit's A♥ does not match riso's A♣ in colour" in line
    line_with(out, "[35] 1 token(s) from the table to the pool", "GM token(s) on riso")
    # R3: Jason 16 beats Riso 15, Riso 15 beats Kit 13; both matching colours go to the bank.
    assert line_with(out, "[47] Jason 16 vs Riso 15").endswith("Jason wins")
    assert line_with(out, "[47] Kit 13 vs Riso 15").endswith("Riso wins")
    line_with(out, "[47] 1 token(s) from the table to the bank", "jason's 10♠ matches riso's 9♣")
    line_with(out, "[47] 1 token(s) from the table to the bank", "diana's J♦ matches goons's 2♦")
    line_with(out, "[47] 2 token(s) from the table to the pool")
    # GM tokens used of the conflict's limit (8), round by round and at each GM bonus.
    line_with(out, "[23] GM tokens used in this conflict: 0 of 8")
    line_with(out, "[35] GM tokens used in this conflict: 1 of 8")
    line_with(out, "[47] GM tokens used in this conflict: 3 of 8", "held 9 at the open")
    line_with(out, "[46] the GM puts 2 story-token(s) on Riso's card", "spent 3 of the 8")
    # Talent uses against the per-session cap of 6.
    line_with(out, "[31]", "talent-marker (protector)", "use 1 of 6 this session")
    line_with(out, "[43]", "talent-marker (protector)", "use 2 of 6 this session")
    line_with(out, "[44]", "talent-marker (brawler)", "use 1 of 6 this session")
    # Gifts, then the final comparison of the victory piles.
    line_with(out, "[48] Jason gives 10♠ to Kit")
    line_with(out, "[50] Goons gives K♠ to Riso")
    line_with(out, "[52] Diana gives J♥ to Kit")
    line = line_with(out, "[58] Kit (Joker A♥ J♥ 10♠) vs Riso (A♣ K♠ Q♦ 9♣)")
    assert "card values compared from the highest, Joker (15) beats A♣ (14)" in line
    assert line.endswith("Kit wins")
    assert line_with(out, "[58] Jason (no cards) vs Riso").endswith("Riso wins")
    assert line_with(out, "[58] Diana (J♦) vs Goons (no cards)").endswith("Diana wins")
    line_with(out, "[58] 2 token(s) from the bank to the GM")
    line_with(out, "[58] Kit beats Riso; Riso beats Jason; Diana beats Goons")
    assert out.splitlines()[-1] == VERDICT_OK


def test_the_demo_audit_as_json(demo_dir: Path) -> None:
    # $ tablelog audit --json
    report = json.loads(ok(run(demo_dir, "audit", "--json")))
    assert (report["ok"], report["discrepancies"]) == (True, [])
    assert (report["campaign"], report["ruleset"], report["seq"]) == ("bar-fight", "improv", 58)
    assert report["sessions"] == [{"session": 1, "first_seq": 8, "last_seq": 58}]
    [fight] = report["conflicts"]
    assert (fight["conflict"], fight["session"], fight["first_seq"], fight["last_seq"]) == (
        "fight",
        1,
        12,
        58,
    )
    assert [s["title"] for s in fight["sections"]] == [
        "Stakes",
        "Round 1",
        "Round 2",
        "Round 3",
        "Gifts",
        "Outcome",
    ]
    kinds = {n["kind"] for s in fight["sections"] for n in s["notes"]}
    assert {"comparison", "tokens", "gm-tokens", "bonus", "gift", "final"} <= kinds
    # R2, Kit against Riso: 17 all, decided on suit.
    kit_riso = notes(report, "comparison", 35)[0]
    assert kit_riso | {"rule": None} == {
        "first": "kit",
        "second": "riso",
        "first_total": 17,
        "second_total": 17,
        "winner": "kit",
        "first_card": "AH",
        "second_card": "AC",
        "rule": None,
    }
    assert "on suit" in kit_riso["rule"]
    assert [(n["count"], n["to"]) for n in notes(report, "tokens", 35)] == [
        (1, "pool"),
        (1, "out_of_play"),
    ]
    assert [(n["count"], n["to"]) for n in notes(report, "tokens", 47)] == [
        (1, "bank"),
        (1, "bank"),
        (2, "pool"),
    ]
    [to_gm] = notes(report, "tokens", 58)
    assert (to_gm["count"], to_gm["source"], to_gm["to"]) == (2, "bank", "gm")
    assert notes(report, "gm-tokens", 47) == [{"spent": 3, "limit": 8, "held_at_open": 9}]
    assert [n["spent"] for n in notes(report, "gm-tokens")] == [0, 1, 3]
    [gm_bonus] = notes(report, "bonus", 46)
    assert (gm_bonus["by"], gm_bonus["on"], gm_bonus["count"]) == ("gm", "riso", 2)
    assert (gm_bonus["gm_spent"], gm_bonus["gm_limit"]) == (3, 8)
    [protector] = notes(report, "bonus", 43)
    assert protector == {"by": "jason", "on": "jason", "talent": "protector", "used": 2, "limit": 6}
    assert [(n["giver"], n["receiver"], n["card"]) for n in notes(report, "gift")] == [
        ("jason", "kit", "10S"),
        ("goons", "riso", "KS"),
        ("diana", "kit", "JH"),
    ]
    finals = notes(report, "final", 58)
    assert [(n["first"], n["second"], n["winner"]) for n in finals] == [
        ("kit", "riso", "kit"),
        ("jason", "riso", "riso"),
        ("diana", "goons", "diana"),
    ]
    assert finals[0]["first_pile"] == ["JK", "AH", "JH", "10S"]
    assert finals[0]["second_pile"] == ["AC", "KS", "QD", "9C"]


def test_one_conflict_and_an_unknown_one(demo_dir: Path) -> None:
    # $ tablelog audit --conflict fight --json
    report = json.loads(ok(run(demo_dir, "audit", "--conflict", "fight", "--json")))
    assert report["ok"] is True
    assert [c["conflict"] for c in report["conflicts"]] == ["fight"]
    # $ tablelog audit --conflict nope
    line = refused(run(demo_dir, "audit", "--conflict", "nope"))
    assert line.startswith("no-conflict:")
    assert "nope" in line
    # $ tablelog audit --conflict nope --json
    assert "nope" in refused(run(demo_dir, "audit", "--conflict", "nope", "--json"))


def test_a_campaign_without_conflicts_audits_ok(tmp_path: Path) -> None:
    create(tmp_path, "quiet")
    ok(run(tmp_path, "improv", "character", "bob", "Kit", "--talent", "Brawler"))
    ok(run(tmp_path, "improv", "character", "susan", "Jason"))
    # $ tablelog audit
    out = ok(run(tmp_path, "audit"))
    assert "no conflicts yet" in out
    assert out.splitlines()[-1].startswith(
        "verdict: every recorded decision of campaign quiet follows"
    )
    # $ tablelog audit --json
    report = json.loads(ok(run(tmp_path, "audit", "--json")))
    assert (report["ok"], report["conflicts"], report["discrepancies"]) == (True, [], [])


# --- 2. a decision edited into the log, the chain made whole again ---------------------


def r3_kit_beats_riso(p: dict[str, Any]) -> None:
    p["pairs"][0]["winner"] = "kit"
    p["beats"][0] = ["kit", "riso"]
    p["winners"] = ["kit", "jason", "diana"]


def r2_riso_wins_the_tie(p: dict[str, Any]) -> None:
    p["beats"][0] = ["riso", "kit"]


def close_riso_beats_kit(p: dict[str, Any]) -> None:
    p["beats"][0] = ["riso", "kit"]


def session_gm_gets_12(p: dict[str, Any]) -> None:
    p["gm_tokens"] = 12


def r3_jasons_token_out_of_play(p: dict[str, Any]) -> None:
    assert p["token_moves"][0]["to"] == "bank"
    p["token_moves"][0]["to"] = "out_of_play"


def r2_kits_token_to_the_bank(p: dict[str, Any]) -> None:
    assert p["token_moves"][1]["to"] == "out_of_play"
    p["token_moves"][1]["to"] = "bank"


BANKED = [{"source": "table", "to": "bank", "count": 1}]
OUT = [{"source": "table", "to": "out_of_play", "count": 1}]
POOL_1 = [{"source": "table", "to": "pool", "count": 1}]
POOL_2 = [{"source": "table", "to": "pool", "count": 2}]

EDITS = [
    pytest.param(
        47,
        "improv.round_revealed",
        r3_kit_beats_riso,
        "beats",
        [["kit", "riso"], ["jason", "riso"], ["diana", "goons"]],
        [["riso", "kit"], ["jason", "riso"], ["diana", "goons"]],
        [47],
        id="reveal-winners-swapped",
    ),
    pytest.param(
        35,
        "improv.round_revealed",
        r2_riso_wins_the_tie,
        "beats",
        [["riso", "kit"], ["riso", "jason"], ["diana", "goons"]],
        [["kit", "riso"], ["riso", "jason"], ["diana", "goons"]],
        [35],
        id="reveal-suit-tie-flipped",
    ),
    pytest.param(
        58,
        "improv.conflict_closed",
        close_riso_beats_kit,
        "beats",
        [["riso", "kit"], ["riso", "jason"], ["diana", "goons"]],
        [["kit", "riso"], ["riso", "jason"], ["diana", "goons"]],
        [58],
        id="close-final-beats",
    ),
    pytest.param(
        8,
        "improv.session_started",
        session_gm_gets_12,
        "gm_tokens",
        12,
        9,
        [8, 12],  # the GM then holds 12 at the fight's open, as that event says it did not
        id="session-gm-tokens",
    ),
    pytest.param(
        47,
        "improv.round_revealed",
        r3_jasons_token_out_of_play,
        "token_moves",
        OUT + BANKED + POOL_2,
        BANKED + BANKED + POOL_2,
        [47, 58],  # one token fewer in the bank: the close's bank-to-GM move is off too
        id="reveal-bank-to-out-of-play",
    ),
    pytest.param(
        35,
        "improv.round_revealed",
        r2_kits_token_to_the_bank,
        "token_moves",
        POOL_1 + BANKED,
        POOL_1 + OUT,
        [35, 58],
        id="reveal-out-of-play-to-bank",
    ),
]


@pytest.mark.parametrize(
    ("seq", "event_type", "edit", "field", "recorded", "expected", "flagged"), EDITS
)
def test_an_edited_decision_is_named_by_its_seq(
    tmp_path: Path,
    demo_dir: Path,
    seq: int,
    event_type: str,
    edit: Edit,
    field: str,
    recorded: Any,
    expected: Any,
    flagged: list[int],
) -> None:
    assert type_at(demo_dir, seq) == event_type
    edited = write_edited(demo_dir, tmp_path, {seq: edit})
    # $ tablelog --db b.db import edited.jsonl; tablelog --db b.db verify   (the chain holds)
    assert "imported campaign bar-fight (improv, 58 events" in ok(
        run(tmp_path, "--db", "b.db", "import", str(edited))
    )
    ok(run(tmp_path, "--db", "b.db", "verify"))
    # $ tablelog --db b.db audit
    out = broken(run(tmp_path, "--db", "b.db", "audit")).stdout
    verdict = out.split("\nverdict: ", 1)[1]
    where = " in conflict fight" if event_type != "improv.session_started" else ""
    assert (
        f"  seq {seq} ({event_type}{where}): {field} is recorded as {json.dumps(recorded)}; "
        f"the rules give {json.dumps(expected)}"
    ) in verdict.splitlines()
    assert VERDICT_OK not in out
    # $ tablelog --db b.db audit --json
    result = broken(run(tmp_path, "--db", "b.db", "audit", "--json"))
    report = json.loads(result.stdout)
    assert report["ok"] is False
    first = report["discrepancies"][0]
    assert (first["seq"], first["type"], first["field"]) == (seq, event_type, field)
    assert (first["recorded"], first["expected"]) == (recorded, expected)
    assert first["conflict"] == (None if event_type == "improv.session_started" else "fight")
    assert sorted({d["seq"] for d in report["discrepancies"]}) == flagged
    # The account still explains what the log records.
    assert report["conflicts"][0]["conflict"] == "fight"


def test_an_edited_card_is_flagged_at_the_reveal_that_used_it(
    tmp_path: Path, demo_dir: Path
) -> None:
    # Jason's round-3 card becomes 2♥: his total is 8, not 16, and Riso beats him after all.
    assert type_at(demo_dir, 39) == "improv.card_played"

    def jason_plays_2h(p: dict[str, Any]) -> None:
        assert (p["side"], p["card"]) == ("jason", "10S")
        p["card"] = "2H"

    edited = write_edited(demo_dir, tmp_path, {39: jason_plays_2h})
    ok(run(tmp_path, "--db", "b.db", "import", str(edited)))
    ok(run(tmp_path, "--db", "b.db", "verify"))
    # $ tablelog --db b.db audit --json
    report = json.loads(broken(run(tmp_path, "--db", "b.db", "audit", "--json")).stdout)
    by_field = {d["field"]: d for d in report["discrepancies"]}
    assert {d["seq"] for d in report["discrepancies"]} == {47}
    assert {"cards", "totals", "beats", "winners"} <= set(by_field)
    assert (by_field["cards"]["recorded"]["jason"], by_field["cards"]["expected"]["jason"]) == (
        "10S",
        "2H",
    )
    assert (by_field["totals"]["recorded"]["jason"], by_field["totals"]["expected"]["jason"]) == (
        16,
        8,
    )
    assert ["riso", "jason"] in by_field["beats"]["expected"]
    # $ tablelog --db b.db audit
    out = broken(run(tmp_path, "--db", "b.db", "audit")).stdout
    line_with(out, "seq 47 (improv.round_revealed in conflict fight): totals is recorded as")
    assert "seq 39" not in out.split("\nverdict: ", 1)[1]


def test_audit_of_one_conflict_keeps_its_discrepancies(tmp_path: Path, demo_dir: Path) -> None:
    edited = write_edited(demo_dir, tmp_path, {58: close_riso_beats_kit})
    ok(run(tmp_path, "--db", "b.db", "import", str(edited)))
    # $ tablelog --db b.db audit --conflict fight --json
    report = json.loads(
        broken(run(tmp_path, "--db", "b.db", "audit", "--conflict", "fight", "--json")).stdout
    )
    assert [(d["seq"], d["field"]) for d in report["discrepancies"]] == [(58, "beats")]


def test_an_event_the_history_cannot_take_is_a_discrepancy(tmp_path: Path, demo_dir: Path) -> None:
    def ghost(p: dict[str, Any]) -> None:
        p["conflict"] = "ghost"

    edited = write_edited(demo_dir, tmp_path, {47: ghost})
    ok(run(tmp_path, "--db", "b.db", "import", str(edited)))
    ok(run(tmp_path, "--db", "b.db", "verify"))  # the chain is intact; the history is not
    # $ tablelog --db b.db audit --json
    result = broken(run(tmp_path, "--db", "b.db", "audit", "--json"))
    report = json.loads(result.stdout)
    first = report["discrepancies"][0]
    assert (first["seq"], first["type"], first["field"]) == (47, "improv.round_revealed", "*")
    # The account stops at the event that cannot be applied.
    assert report["seq"] == 47
    # $ tablelog --db b.db state
    line = refused(run(tmp_path, "--db", "b.db", "state"))
    assert line.startswith("inconsistent-log: event 47 of campaign bar-fight")


def test_a_gm_token_count_edited_at_the_open_is_flagged(tmp_path: Path, demo_dir: Path) -> None:
    assert type_at(demo_dir, 12) == "improv.conflict_opened"

    def gm_held_2(p: dict[str, Any]) -> None:
        p["gm_tokens_at_open"] = 2

    edited = write_edited(demo_dir, tmp_path, {12: gm_held_2})
    ok(run(tmp_path, "--db", "b.db", "import", str(edited)))
    # $ tablelog --db b.db audit --json
    report = json.loads(broken(run(tmp_path, "--db", "b.db", "audit", "--json")).stdout)
    first = report["discrepancies"][0]
    assert (first["seq"], first["field"], first["recorded"], first["expected"]) == (
        12,
        "gm_tokens_at_open",
        2,
        9,
    )
    # With only 2 tokens at the open, the GM's 2 tokens in round 3 (3 in all) break its cap.
    assert any(
        d["seq"] == 46 and "gm-token-limit" in str(d["expected"]) for d in report["discrepancies"]
    )


def test_one_conflicts_audit_keeps_the_campaigns_own_decisions(
    tmp_path: Path, demo_dir: Path
) -> None:
    edited = write_edited(demo_dir, tmp_path, {8: session_gm_gets_12})
    ok(run(tmp_path, "--db", "b.db", "import", str(edited)))
    # $ tablelog --db b.db audit --conflict fight --json
    report = json.loads(
        broken(run(tmp_path, "--db", "b.db", "audit", "--conflict", "fight", "--json")).stdout
    )
    assert (8, "gm_tokens") in [(d["seq"], d["field"]) for d in report["discrepancies"]]


# --- 3. either backend -------------------------------------------------------------------


def test_audit_on_either_backend(tmp_path: Path, demo_dir: Path, target: str) -> None:
    # $ tablelog --db TARGET db upgrade; tablelog --db TARGET demo; tablelog --db TARGET audit
    ok(run(tmp_path, "--db", target, "db", "upgrade"))
    ok(run(tmp_path, "--db", target, "demo"))
    assert ok(run(tmp_path, "--db", target, "audit")).splitlines()[-1] == VERDICT_OK
    # The same fight with its close edited, imported beside it under another name.
    edited = write_edited(
        demo_dir, tmp_path, {58: close_riso_beats_kit}, campaign="bar-fight-edited"
    )
    ok(run(tmp_path, "--db", target, "import", str(edited)))
    ok(run(tmp_path, "--db", target, "verify"))
    # $ tablelog --db TARGET audit -c bar-fight-edited --json
    result = broken(run(tmp_path, "--db", target, "audit", "-c", "bar-fight-edited", "--json"))
    report = json.loads(result.stdout)
    assert report["campaign"] == "bar-fight-edited"
    assert [(d["seq"], d["type"], d["field"]) for d in report["discrepancies"]] == [
        (58, "improv.conflict_closed", "beats")
    ]
    # $ tablelog --db TARGET audit -c bar-fight --json   (the original is untouched)
    report = json.loads(ok(run(tmp_path, "--db", target, "audit", "-c", "bar-fight", "--json")))
    assert (report["ok"], report["discrepancies"]) == (True, [])


def test_a_post_of_a_log_that_fails_its_audit_says_so(tmp_path: Path, demo_dir: Path) -> None:
    edited = write_edited(demo_dir, tmp_path, {58: close_riso_beats_kit})
    ok(run(tmp_path, "--db", "b.db", "import", str(edited)))
    # $ tablelog --db b.db export --format bbcode --conflict fight
    post = ok(run(tmp_path, "--db", "b.db", "export", "--format", "bbcode", "--conflict", "fight"))
    assert "Warning: the audit finds 1 recorded decision(s) that do not follow the rules" in post
    clean = ok(run(demo_dir, "export", "--format", "bbcode", "--conflict", "fight"))
    assert "Warning" not in clean
