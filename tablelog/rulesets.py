"""The rulesets tablelog knows: the one place that names them, and where each one's parts live.

Every layer finds a ruleset's part here, by the module named in its `Place`, never by deriving
one name from another: a misspelt module is caught by the registry's test, not at a user's
command. Adding a ruleset is its own modules plus one `Place` line below (DEVELOPERS.md,
"Adding a ruleset"). This module imports nothing of tablelog, so any layer may read it.

What each module exposes:
- `events`: the ruleset's event Structs (imported before a stored type is decoded);
- `rules`: `RULESET`, a `tablelog.rules.contract.Ruleset`;
- `views`: `VIEWS`, a `tablelog.projections.contract.RulesetViews`;
- `commands`: `ENDPOINTS`, the HTTP address of each of its commands (shared by the service
  and the CLI's client);
- `cli`: `app`, a Typer holding only the ruleset's own commands (`show` is added for it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


@dataclass(frozen=True)
class Place:
    """Where one ruleset's parts live, as importable module names."""

    name: str
    events: str
    rules: str
    views: str
    commands: str
    cli: str

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"a ruleset's name is lower-case words joined by '-'; {self.name!r}")


_PLACES: dict[str, Place] = {}


def register(place: Place) -> Place:
    """Make a ruleset known to every layer of this process (the list below, and a test's own)."""
    existing = _PLACES.get(place.name)
    if existing is not None and existing != place:
        raise ValueError(f"a ruleset named {place.name!r} is already registered")
    _PLACES[place.name] = place
    return place


# The first is the primary ruleset: `tablelog demo` without --ruleset plays its demo.
register(
    Place(
        "improv",
        events="tablelog.events.improv",
        rules="tablelog.rules.improv",
        views="tablelog.projections.improv",
        commands="tablelog.commands.improv",
        cli="tablelog.cli.improv",
    )
)
register(
    Place(
        "beer-run",
        events="tablelog.events.beer_run",
        rules="tablelog.rules.beer_run",
        views="tablelog.projections.beer_run",
        commands="tablelog.commands.beer_run",
        cli="tablelog.cli.beer_run",
    )
)
register(
    Place(
        "night-terrors",
        events="tablelog.events.night_terrors",
        rules="tablelog.rules.night_terrors",
        views="tablelog.projections.night_terrors",
        commands="tablelog.commands.night_terrors",
        cli="tablelog.cli.night_terrors",
    )
)
register(
    Place(
        "bid-and-challenge",
        events="tablelog.events.bid_and_challenge",
        rules="tablelog.rules.bid_and_challenge",
        views="tablelog.projections.bid_and_challenge",
        commands="tablelog.commands.bid_and_challenge",
        cli="tablelog.cli.bid_and_challenge",
    )
)
register(
    Place(
        "ace-of-cards",
        events="tablelog.events.ace_of_cards",
        rules="tablelog.rules.ace_of_cards",
        views="tablelog.projections.ace_of_cards",
        commands="tablelog.commands.ace_of_cards",
        cli="tablelog.cli.ace_of_cards",
    )
)


def names() -> list[str]:
    """Every ruleset's name, the primary one first."""
    return list(_PLACES)


def place(name: str) -> Place | None:
    """The ruleset called `name` (any case, spaces around ignored), or None."""
    return _PLACES.get(name.strip().lower())


def places() -> list[Place]:
    return list(_PLACES.values())
