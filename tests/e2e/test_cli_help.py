"""Every command and group of the real CLI has help with an example."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tablelog.cli.app import app


def _paths(command: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path below `command`, asking each group as the CLI does (the root loads
    its commands' modules on demand)."""
    paths = [prefix]
    if hasattr(command, "list_commands"):
        ctx = typer.Context(command)
        for name in command.list_commands(ctx):
            paths.extend(_paths(command.get_command(ctx, name), (*prefix, name)))
    return paths


COMMANDS = _paths(typer.main.get_command(app))


def test_the_walk_finds_the_whole_tree() -> None:
    assert ("improv", "play") in COMMANDS
    assert ("campaign", "create") in COMMANDS
    assert len(COMMANDS) > 25


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "tablelog")
def test_help_has_an_example(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output
