"""The `tablelog ace-of-cards` Typer app and what its commands share: argument types and the
parsing of KEY=VALUE pairs and lists."""

from __future__ import annotations

from typing import Annotated

import typer

from tablelog.errors import InvalidInput

app = typer.Typer(
    no_args_is_help=True,
    help="The Ace of Cards table (Fabula Ultima): a 30-card deck, exact sets, Mind Points.\n\n"
    "Example: `tablelog ace-of-cards character ann Kit --hp 40 --mp 35`, `tablelog "
    "ace-of-cards deck Kit --benefit mp -s clubs=fire -s diamonds=earth -s hearts=ice "
    "-s spades=air`, `tablelog ace-of-cards open --party Kit --enemy Goblin`, then "
    "`tablelog ace-of-cards magic c1 Kit 20 3C 4C 5C 6C --set magic-flush`",
)

ACE = "ace-of-cards"
Character = Annotated[str, typer.Argument(help="A character (an Ace, or an ally).")]
Ace = Annotated[str, typer.Argument(help="An Ace: a character with the class's deck.")]
Drawn = Annotated[
    str | None,
    typer.Option("--drawn", help="deck_mode=recorded: the cards drawn, e.g. 1C,2C,7C,1D."),
]


def pairs(texts: list[str], what: str, example: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InvalidInput(
                f"{what} {text!r} is not KEY=VALUE (e.g. {example})", code="bad-pair"
            )
        if key.strip() in found:
            raise InvalidInput(f"{what} {key.strip()} is given twice", code="pair-twice")
        found[key.strip()] = value.strip()
    return found


def listed(text: str | None) -> list[str] | None:
    return None if text is None else [v for v in text.replace(",", " ").split() if v]


def numbers(text: str | None, what: str, example: str) -> list[int] | None:
    values = listed(text)
    if values is None:
        return None
    try:
        return [int(v.lower().removeprefix("d")) for v in values]
    except ValueError:
        raise InvalidInput(
            f"{what} {text!r} is not a list like {example}", code="bad-values"
        ) from None
