"""Every command and group of the real CLI has help with an example."""

from __future__ import annotations

import itertools
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


WIDTHS = (60, 80, 120)


def _unforced_breaks(output: str, width: int) -> list[str]:
    """Each line break of the help's prose (between the usage and the first panel)
    that the terminal's width did not force: the next line's first word would have fitted
    on the line before it. An example paragraph may start a command on a line of its own."""
    lines = output.splitlines()
    usage = next(i for i, line in enumerate(lines) if "Usage:" in line)
    start = next(i for i in range(usage, len(lines)) if not lines[i].strip())  # may wrap
    end = next((i for i, line in enumerate(lines) if line.lstrip().startswith("╭")), len(lines))
    found, paragraph_start = [], ""
    prose = [line.rstrip() for line in lines[start:end]]
    for before, line in itertools.pairwise(prose):
        if not before.strip():
            paragraph_start = line.strip()
            continue
        if not line.strip():
            continue
        if paragraph_start.startswith("Example") and line.strip().startswith("`tablelog"):
            continue
        word = line.split()[0]
        # Rich keeps one column of padding on either side of the text.
        if len(before) + 1 + len(word) <= width - 1:
            found.append(f"{before!r} / {line!r}")
    return found


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "tablelog")
def test_help_paragraphs_flow_at_any_width(path: tuple[str, ...]) -> None:
    # $ COLUMNS=60 tablelog PATH --help   (and 80, 120)
    for width in WIDTHS:
        result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(width)})
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= width, (width, result.output)
        assert _unforced_breaks(result.output, width) == [], (width, result.output)
        assert "Example" in result.output, width
        # No option name, type or default cut short with an ellipsis: folded instead.
        assert "…" not in result.output, (width, result.output)


def test_a_core_group_has_no_rulesets_show() -> None:
    """`tablelog db` is a core group: it was given the rulesets' `show` (found by a host's
    trial: `tablelog db show c1` said the campaign does not play db)."""
    result = CliRunner().invoke(app, ["db", "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert "upgrade" in result.output
    assert " show " not in result.output
