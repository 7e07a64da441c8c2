"""End-to-end: `export --format jsonl` and `import` through the real CLI."""

from __future__ import annotations

from pathlib import Path

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
