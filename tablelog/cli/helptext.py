"""Help text that flows: each docstring paragraph becomes one line, which the terminal wraps.

A command's docstring is its help, hard-wrapped at 100 columns to fit the source. Typer's
"rich" markup mode joins the lines of the first paragraph only and prints the others line
by line, so the terminal wrapped those lines a second time: at 80 columns a sentence broke
mid-line ("...not signed out,\\n revoked or\\n ended"). `flowing` joins the lines of every
paragraph (a blank line still separates paragraphs) and keeps only the breaks an example
means: in a paragraph that starts with `Example`, a line starting with a command
(`` `tablelog ``) stays on a line of its own. `flow_tree` applies it to a command and
everything below it; the root group applies it to each command it loads (`cli/app.py`), so
docstrings stay as they are written.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

_COMMAND_LINE = re.compile(r"`?tablelog\b")


def _flow_paragraph(paragraph: str) -> str:
    lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
    if not lines:
        return ""
    example = lines[0].startswith("Example")
    out = [lines[0]]
    for line in lines[1:]:
        if example and _COMMAND_LINE.match(line):
            out.append(line)
        else:
            out[-1] += " " + line
    return "\n".join(out)


def flowing(text: str) -> str:
    """`text` (a docstring) with the lines of each paragraph joined by a space.

    Paragraphs are separated by blank lines and stay separated; whatever follows a form
    feed (click's marker for text not to show) is kept as it is.
    """
    shown, feed, rest = text.partition("\f")
    paragraphs = re.split(r"\n[ \t]*\n", inspect.cleandoc(shown))
    flowed = "\n\n".join(p for p in (_flow_paragraph(p) for p in paragraphs) if p)
    return flowed + feed + rest


def flow_tree(command: Any) -> None:
    """Make `command`'s help, and that of every command below it (a group's `commands`),
    flow. Typed `Any`: Typer builds its commands on a click of its own (`typer._click`)."""
    _folding_tables_once()
    if isinstance(getattr(command, "help", None), str):
        command.help = flowing(command.help)
    for sub in (getattr(command, "commands", None) or {}).values():
        flow_tree(sub)


_FOLDING: list[bool] = []


def _folding_tables_once() -> None:
    if not _FOLDING:
        _FOLDING.append(True)
        _folding_tables()


def _folding_tables() -> None:
    """Typer's option tables cut a long option name or type with an ellipsis when the
    terminal is narrow (`--feeds-per-addr…`): every cell that would be cut is folded onto the
    next line instead, so nothing of an option is lost at any width. Typer builds its tables
    with rich's `Table` looked up in its own module, the one place this can be said."""
    from rich.table import Table
    from rich.text import Text
    from typer import rich_utils

    class FoldingTable(Table):
        def add_row(self, *renderables: Any, **options: Any) -> None:
            for cell in renderables:
                # An option's help is a `Columns` of texts (its words, env var, default).
                for text in [cell, *getattr(cell, "renderables", ())]:
                    if isinstance(text, Text) and text.overflow in (None, "ellipsis"):
                        text.overflow = "fold"
            super().add_row(*renderables, **options)

    setattr(rich_utils, "Table", FoldingTable)  # noqa: B010 - typer's own module global
