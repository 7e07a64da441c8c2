"""Help text flows: a docstring's paragraphs become lines the terminal wraps itself."""

from __future__ import annotations

import pytest

from tablelog.cli.helptext import flow_tree, flowing

DOC = """Show the web sessions.

    Locally the operator sees every session not signed out, revoked or
    ended (the service also ends a session left unused).

    Example: `tablelog sessions --json`, or as a player:
    `tablelog --server http://HOST:8000 --access-token TOKEN
    sessions`
    """


def test_the_lines_of_a_paragraph_are_joined_and_paragraphs_kept() -> None:
    assert flowing(DOC) == (
        "Show the web sessions.\n\n"
        "Locally the operator sees every session not signed out, revoked or ended (the "
        "service also ends a session left unused).\n\n"
        "Example: `tablelog sessions --json`, or as a player:\n"
        "`tablelog --server http://HOST:8000 --access-token TOKEN sessions`"
    )


@pytest.mark.parametrize(
    ("text", "flowed"),
    [
        ("One line.", "One line."),
        ("", ""),
        ("a\n  b\n\n\n   \nc", "a b\n\nc"),
        # A command starts a line of its own only in an example paragraph.
        ("Names\n`tablelog x` ends one.", "Names `tablelog x` ends one."),
        ("Example: `tablelog a`, or\n`tablelog b`", "Example: `tablelog a`, or\n`tablelog b`"),
        # A hard-wrapped command goes on with its options, `-k` included.
        ("Example: `tablelog deck a\n-k Brawn:1d6`", "Example: `tablelog deck a -k Brawn:1d6`"),
        # What follows a form feed is not shown by click, and is kept as it is.
        ("Shown\nhere.\f\nhidden\nlines", "Shown here.\f\nhidden\nlines"),
    ],
)
def test_flowing(text: str, flowed: str) -> None:
    assert flowing(text) == flowed
    assert flowing(flowed) == flowed  # applied twice, as the root may


class _Command:
    def __init__(self, help: str | None, commands: dict[str, _Command] | None = None) -> None:
        self.help = help
        if commands is not None:
            self.commands = commands


def test_flow_tree_reaches_every_command_below_a_group() -> None:
    leaf = _Command("a\nb")
    bare = _Command(None)
    group = _Command("g\nh", {"inner": _Command("x\ny", {"leaf": leaf}), "bare": bare})
    flow_tree(group)
    assert (group.help, group.commands["inner"].help, leaf.help) == ("g h", "x y", "a b")
    assert bare.help is None
