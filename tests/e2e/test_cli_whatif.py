"""End-to-end: `tablelog whatif` plays a file of commands on a scratch copy cut after a seq.

The seed's alternate ending of the bar fight is the known answer: from the main ending's log
cut after round 3's reveal (seq 47, before the gifts), Diana and Kit give their cards to Jason,
and then Jason beats Riso, Riso beats Kit, and the Goons beat Diana (rules/improv.md §9).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.transcript import ok, refused, run

REVEAL_3 = "47"  # the seq of round 3's reveal in the demo's log

ALTERNATE = """\
# The seed's alternate ending, from the main ending's log cut before the gifts
improv narrate fight jason "A wood chip blinds Jason; Riso takes aim."
improv give fight diana jason JH

improv give fight kit jason JK
improv award richard bob --conflict fight
improv close fight
"""


def _demo(tmp_path: Path, root: tuple[str, ...] = ()) -> None:
    ok(run(tmp_path, *root, "demo"))
    (tmp_path / "alternate.txt").write_text(ALTERNATE, encoding="utf-8")


def test_the_alternate_ending_is_reproduced_from_the_main_endings_log(tmp_path: Path) -> None:
    _demo(tmp_path)
    before = ok(run(tmp_path, "log", "--json"))
    # $ tablelog whatif --at 47 alternate.txt --json
    result = json.loads(ok(run(tmp_path, "whatif", "--at", REVEAL_3, "alternate.txt", "--json")))
    fight = result["state"]["conflicts"]["fight"]
    assert fight["status"] == "closed"
    assert fight["beats"] == [["riso", "kit"], ["jason", "riso"], ["goons", "diana"]]
    assert fight["sides"]["jason"]["victory"] == ["10S", "JH", "JK"]
    assert result["differences"] == [
        {
            "conflict": "fight",
            "real": [["kit", "riso"], ["riso", "jason"], ["diana", "goons"]],
            "whatif": [["riso", "kit"], ["jason", "riso"], ["goons", "diana"]],
            "real_status": "closed",
            "whatif_status": "closed",
        }
    ]
    assert result["state"]["seq"] == 52
    # The real log was only read.
    assert ok(run(tmp_path, "log", "--json")) == before
    ok(run(tmp_path, "verify"))


def test_the_text_output_shows_each_command_the_state_and_the_difference(tmp_path: Path) -> None:
    _demo(tmp_path)
    out = ok(run(tmp_path, "whatif", "--at", REVEAL_3, "alternate.txt"))
    assert "from seq 47 of campaign bar-fight" in out
    assert "> improv give fight diana jason JH" in out
    assert "diana gives J♥ to jason" in out
    assert "campaign bar-fight (improv) at seq 52" in out
    assert "real    (closed): kit beats riso; riso beats jason; diana beats goons" in out
    assert "what-if (closed): riso beats kit; jason beats riso; goons beats diana" in out


def test_an_empty_file_shows_the_state_at_the_cut(tmp_path: Path) -> None:
    _demo(tmp_path)
    (tmp_path / "nothing.txt").write_text("# nothing to do\n\n", encoding="utf-8")
    result = json.loads(ok(run(tmp_path, "whatif", "--at", REVEAL_3, "nothing.txt", "--json")))
    assert result["state"]["seq"] == 47
    # Cut before the close, the fight is still open: not a different outcome, only one not
    # as far along (its status and its beats so far, none yet), reported apart.
    assert result["differences"] == []
    (unfinished,) = result["progress"]
    assert (unfinished["conflict"], unfinished["whatif"]) == ("fight", [])
    assert (unfinished["real_status"], unfinished["whatif_status"]) == ("closed", "open")
    text = ok(run(tmp_path, "whatif", "--at", REVEAL_3, "nothing.txt"))
    assert "no outcome differs from the real one" in text
    assert "conflict fight differs only in how far it went (its status or length)" in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # Jason's player may award only one token for that round (rules/improv.md §9).
        (
            "improv award richard bob --conflict fight\n"
            "improv award richard susan --conflict fight\n",
            "line 2 (improv award richard susan --conflict fight) was refused: award-once:",
        ),
        ("improv bogus\n", "line 1 (improv bogus) was refused:"),
        ("improv give fight diana jason\n", "line 1 (improv give fight diana jason) was refused"),
        ("--db other.db improv close fight\n", "line 1 of moves.txt must start with a command"),
        ("db upgrade\n", "line 1 of moves.txt: `db` cannot run in a what-if"),
        ("improv narrate fight kit 'unclosed\n", "line 1 of moves.txt: No closing quotation"),
    ],
)
def test_a_refused_line_names_it_and_nothing_is_written(
    tmp_path: Path, content: str, message: str
) -> None:
    _demo(tmp_path)
    before = ok(run(tmp_path, "log", "--json"))
    (tmp_path / "moves.txt").write_text(content, encoding="utf-8")
    line = refused(run(tmp_path, "whatif", "--at", REVEAL_3, "moves.txt"))
    assert message in line, line
    assert ok(run(tmp_path, "log", "--json")) == before
    assert not (tmp_path / "other.db").exists()


@pytest.mark.parametrize("at", ["0", "59", "-3"])
def test_a_seq_outside_the_campaign_is_refused(tmp_path: Path, at: str) -> None:
    _demo(tmp_path)
    line = refused(run(tmp_path, "whatif", f"--at={at}", "alternate.txt"))
    assert "--at must be a seq of campaign bar-fight, from 1 to 58" in line


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    _demo(tmp_path)
    line = refused(run(tmp_path, "whatif", "--at", REVEAL_3, "missing.txt"))
    assert line.startswith("bad-file: cannot read missing.txt")


@pytest.mark.postgresql
def test_the_alternate_ending_on_postgresql(tmp_path: Path, pg_target: str) -> None:
    ok(run(tmp_path, "--db", pg_target, "db", "upgrade"))
    _demo(tmp_path, ("--db", pg_target))
    before = ok(run(tmp_path, "--db", pg_target, "log", "--json"))
    result = json.loads(
        ok(run(tmp_path, "--db", pg_target, "whatif", "--at", REVEAL_3, "alternate.txt", "--json"))
    )
    assert result["state"]["conflicts"]["fight"]["beats"] == [
        ["riso", "kit"],
        ["jason", "riso"],
        ["goons", "diana"],
    ]
    assert ok(run(tmp_path, "--db", pg_target, "log", "--json")) == before
