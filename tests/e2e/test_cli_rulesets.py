"""`tablelog rulesets`: every ruleset found through the entry-point group `tablelog.rulesets`,
tablelog's own five and the duel of tests/duel (a distribution of its own); one that does not
load is listed with why, and never breaks the others."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.transcript import ok, run

OWN = ["improv", "ace-of-cards", "beer-run", "bid-and-challenge", "night-terrors"]


def test_the_rulesets_found_are_listed_with_their_distribution(tmp_path: Path) -> None:
    found = json.loads(ok(run(tmp_path, "rulesets", "--json")))
    by_name = {f["name"]: f for f in found}
    assert [f["name"] for f in found][: len(OWN)] == OWN  # the primary first
    assert all(by_name[name]["distribution"] == "tablelog" for name in OWN)
    duel = by_name["duel"]
    assert (duel["package"], duel["distribution"], duel["ok"]) == (
        "tablelog_duel",
        "tablelog-duel",
        True,
    )
    assert all(f["ok"] and f["version"] >= 1 for f in found)


def broken_distribution(where: Path) -> None:
    """A distribution declaring three rulesets that cannot be: a missing package, an object
    in place of a package, and a package whose rules do not import."""
    info = where / "tablelog_broken-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tablelog-broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[tablelog.rulesets]\n"
        "missing = tablelog_no_such_package\n"
        "object = tablelog_broken:RULESET\n"
        "halfway = tablelog_broken\n"
    )
    package = where / "tablelog_broken"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "events.py").write_text("")
    (package / "rules.py").write_text("raise RuntimeError('the rules are not written yet')\n")


def tablelog(cwd: Path, path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-m", "tablelog", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_ruleset_that_does_not_load_is_named_and_breaks_nothing(tmp_path: Path) -> None:
    broken_distribution(tmp_path / "site")
    listed = tablelog(tmp_path, tmp_path / "site", "rulesets", "--json")
    assert listed.returncode == 0, listed.stderr
    found = {f["name"]: f for f in json.loads(listed.stdout)}
    assert not found["missing"]["ok"]
    assert "tablelog_no_such_package" in found["missing"]["problem"]
    assert "must be a package" in found["object"]["problem"]
    assert "the rules are not written yet" in found["halfway"]["problem"]
    assert all(found[name]["ok"] for name in OWN)
    text = tablelog(tmp_path, tmp_path / "site", "rulesets")
    assert "broken: " in text.stdout
    assert "Traceback" not in text.stderr
    # Every other ruleset plays on, through every generic command and the service's tables.
    for args in (
        ("--db", "t.db", "demo"),
        ("--db", "t.db", "state", "--json"),
        ("--db", "t.db", "audit"),
        ("--db", "t.db", "verify"),
        ("--help",),
    ):
        done = tablelog(tmp_path, tmp_path / "site", *args)
        assert done.returncode == 0, (args, done.stderr)
        assert "Traceback" not in done.stderr
    # The broken one itself, asked for by name: one sentence, exit 1.
    done = tablelog(tmp_path, tmp_path / "site", "halfway", "--help")
    assert done.returncode == 1
    assert done.stderr.startswith("broken-ruleset: ruleset halfway does not load"), done.stderr
