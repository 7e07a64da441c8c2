"""Hostile and malformed input to every `tablelog bid-and-challenge` command, on a Bid &
Challenge campaign in play (test_bad_input.py fuzzes every command on an Improv campaign, where
these are refused before their rules run). Whatever comes in: exit 0, 1 or 2, never a traceback
or an internal error, and a refusal leaves the log exactly as it was."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from tablelog.cli.app import app
from tablelog.commands import database
from tablelog.commands.demo import write_demo
from tablelog.commands.table import execute
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.storage import open_store
from tests.reliability.test_bad_input import COMMANDS, EXAMPLES, heads, invocation

OURS = [p for p in COMMANDS if p[:1] == ("bid-and-challenge",)]


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's scene (ended), then scene s2 with a bid waiting for its challenge."""
    db = tmp_path_factory.mktemp("fuzz-bc") / "tablelog.db"
    database.upgrade(str(db))
    store = open_store(str(db))
    try:
        write_demo(store, ruleset="bid-and-challenge")
        for command in (
            c.OpenScene(seating=["anna", "ben", "cara"], requested_by="ben"),
            c.Bid(
                conflict="s2",
                active="ben",
                description="I run",
                cards=["Dodge"],
                power=c.PowerSpec(type="detail", detail="road", text="A road"),
            ),
        ):
            execute(store, "gate", command)
    finally:
        store.close()
    return db


@pytest.mark.parametrize("path", OURS, ids=lambda p: " ".join(p))
def test_any_arguments_are_answered_not_crashed(
    log: Path, tmp_path: Path, path: tuple[str, ...]
) -> None:
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(args=invocation(path))
    def one(args: list[str]) -> None:
        before = heads(log)
        env = {"TABLELOG_DB": str(log), "TABLELOG_CAMPAIGN": "gate", "COLUMNS": "100"}
        result = CliRunner().invoke(app, [*path, *args], env=env, catch_exceptions=True)
        gc.unfreeze()
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"tablelog {args!r} raised {result.exception!r}")
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
        assert "Traceback" not in result.output, (args, result.output)
        assert "internal-error" not in result.output, (args, result.output)
        if result.exit_code != 0:
            assert heads(log) == before, (args, result.output)

    one()
