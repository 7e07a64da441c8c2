"""End-to-end: `export --format jsonl` and `import` through the real CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.test_cli_audit import rechained
from tests.e2e.transcript import ok, refused, run


def test_export_import_verify_state_round_trip(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo"))
    # $ tablelog export --format jsonl --output fight.jsonl
    ok(run(tmp_path, "export", "--format", "jsonl", "--output", "fight.jsonl"))
    stdout_copy = ok(run(tmp_path, "export", "--format", "jsonl"))
    assert stdout_copy.encode() == (tmp_path / "fight.jsonl").read_bytes()
    # $ tablelog --db copy.db import fight.jsonl
    out = ok(run(tmp_path, "--db", "copy.db", "import", "fight.jsonl"))
    assert "imported campaign bar-fight (improv, 58 events" in out
    ok(run(tmp_path, "--db", "copy.db", "verify"))
    original = ok(run(tmp_path, "state", "--json"))
    assert ok(run(tmp_path, "--db", "copy.db", "state", "--json")) == original


def test_a_tampered_export_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo"))
    ok(run(tmp_path, "export", "--output", "fight.jsonl"))
    lines = (tmp_path / "fight.jsonl").read_bytes().splitlines()
    lines[20] = lines[20].replace(b'"actor":"', b'"actor":"x', 1)  # not who acted
    (tmp_path / "fight.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    line = refused(run(tmp_path, "--db", "copy.db", "import", "fight.jsonl"))
    assert line.startswith("bad-import: line 21:")
    assert not (tmp_path / "copy.db").exists()


def _rewritten(tmp_path: Path, name: str, **kwargs: Any) -> Path:
    """The demo's export with edits, re-chained as tablelog computes the chain (so only the
    look-alike check can refuse it)."""
    path = tmp_path / name
    lines = [e.to_json_line() for e in rechained(tmp_path / "fight.jsonl", **kwargs)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_an_import_with_two_look_alike_players_is_refused_naming_the_line(
    tmp_path: Path,
) -> None:
    ok(run(tmp_path, "demo"))
    ok(run(tmp_path, "export", "--output", "fight.jsonl"))
    # Seq 4 is richard joining; make him bob with a full-width b, who looks like bob (seq 2).
    full_width = "\uff42ob"

    def look_alike(payload: dict[str, Any]) -> None:
        payload.update(player=full_width, display=full_width)

    edited = _rewritten(tmp_path, "edited.jsonl", edits={4: look_alike})
    line = refused(run(tmp_path, "--db", "copy.db", "import", edited.name))
    assert line == (
        f"bad-import: line 4: seq 4: player name '{full_width}' looks like the name of player "
        "'bob' (the same after Unicode compatibility normalization and case folding), and no "
        "two players of a campaign may look alike; nothing was imported"
    )
    assert not (tmp_path / "copy.db").exists()
    # The same file unedited goes in.
    ok(run(tmp_path, "--db", "copy.db", "import", "fight.jsonl"))


def test_an_import_of_a_campaign_named_like_an_existing_one_is_refused(tmp_path: Path) -> None:
    ok(run(tmp_path, "demo"))
    ok(run(tmp_path, "export", "--output", "fight.jsonl"))
    renamed = _rewritten(tmp_path, "renamed.jsonl", edits={}, campaign="bar_fight")
    before = ok(run(tmp_path, "campaign", "list", "--json"))
    line = refused(run(tmp_path, "import", renamed.name))
    assert line == (
        "similar-name: line 1: campaign name 'bar_fight' is too like the existing campaign "
        "'bar-fight' (names that differ only in case or punctuation are one name); nothing was "
        "imported"
    )
    assert ok(run(tmp_path, "campaign", "list", "--json")) == before
    # Into a database without a look-alike, the same file goes in.
    ok(run(tmp_path, "--db", "other.db", "import", renamed.name))
