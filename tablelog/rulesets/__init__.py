"""The rulesets tablelog finds: each one a package, declared by an entry point.

A ruleset is one package and an entry point in the group `tablelog.rulesets`, nothing more:
`name = "package"` (pyproject.toml's `[project.entry-points."tablelog.rulesets"]`), exactly
as tablelog declares its own five and as a third party declares one in its own distribution
(docs/writing-a-ruleset.md). The package holds the same rooms in every ruleset:

- `events`: the ruleset's event Structs (imported before a stored type is decoded);
- `rules`: `RULESET`, a `tablelog.rules.contract.Ruleset`;
- `views`: `VIEWS`, a `tablelog.projections.contract.RulesetViews` (its page too);
- `endpoints`: `ENDPOINTS`, the HTTP address of each of its commands (shared by the service
  and the CLI's client);
- `cli`: `app`, a Typer holding only the ruleset's own commands (`show` is added for it).

Every layer finds a ruleset's part here, by the module its `Place` names. Finding them reads
the installed distributions' metadata once per process (`importlib.metadata`); a ruleset
whose entry point is malformed is left out and reported by `tablelog rulesets`, never
breaking the others. This module imports nothing of tablelog, so any layer may read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
GROUP = "tablelog.rulesets"
HOME = "tablelog"  # the distribution whose rulesets come first (its first is the primary one)


@dataclass(frozen=True)
class Place:
    """Where one ruleset's parts live, as importable module names, and where it came from."""

    name: str
    events: str
    rules: str
    views: str
    commands: str
    cli: str
    package: str = ""
    distribution: str = ""
    version: str = ""

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"a ruleset's name is lower-case words joined by '-'; {self.name!r}")

    @classmethod
    def of(cls, name: str, package: str, distribution: str = "", version: str = "") -> Place:
        """The place of a ruleset package: its rooms by the names every ruleset uses."""
        return cls(
            name,
            events=f"{package}.events",
            rules=f"{package}.rules",
            views=f"{package}.views",
            commands=f"{package}.endpoints",
            cli=f"{package}.cli",
            package=package,
            distribution=distribution,
            version=version,
        )


@dataclass(frozen=True)
class Unfound:
    """An entry point of the group that does not name a ruleset package: why, for the list."""

    name: str
    value: str
    distribution: str
    reason: str


_PLACES: dict[str, Place] = {}
_UNFOUND: list[Unfound] = []
_FOUND = False


def register(place: Place) -> Place:
    """Make a ruleset known to this process (the entry points found, or a test's own)."""
    _discover()
    existing = _PLACES.get(place.name)
    if existing is not None and existing != place:
        raise ValueError(f"a ruleset named {place.name!r} is already registered")
    _PLACES[place.name] = place
    return place


def _discover() -> None:
    """Read the entry points of every installed distribution, once."""
    global _FOUND
    if _FOUND:
        return
    _FOUND = True
    from importlib.metadata import entry_points  # only here: its import costs a CLI start

    found: list[tuple[bool, str, Place]] = []
    for point in entry_points(group=GROUP):
        dist = point.dist
        dist_name = dist.metadata["Name"] if dist is not None else ""
        dist_version = dist.version if dist is not None else ""
        if point.attr or not re.fullmatch(r"[A-Za-z_][\w.]*", point.value):
            reason = "its value must be a package (`package.name`), not an object in one"
            _UNFOUND.append(Unfound(point.name, point.value, dist_name, reason))
            continue
        try:
            place = Place.of(point.name, point.value, dist_name, dist_version)
        except ValueError as exc:
            _UNFOUND.append(Unfound(point.name, point.value, dist_name, str(exc)))
            continue
        found.append((dist_name != HOME, dist_name, place))

    # tablelog's own first, its primary one (its package says `PRIMARY = True`) leading; then
    # the others, by distribution and name.
    def order(item: tuple[bool, str, Place]) -> tuple[bool, bool, str, str]:
        other, dist_name, place = item
        return (other, other or not _primary(place.package), dist_name, place.name)

    for _, _, place in sorted(found, key=order):
        if place.name in _PLACES:
            theirs = _PLACES[place.name].distribution
            reason = f"the name {place.name!r} is already the ruleset of {theirs}"
            _UNFOUND.append(Unfound(place.name, place.package, place.distribution, reason))
            continue
        _PLACES[place.name] = place


def _primary(package: str) -> bool:
    import importlib

    try:
        return getattr(importlib.import_module(package), "PRIMARY", False) is True
    except Exception:  # a broken package is reported when its parts are loaded
        return False


def names() -> list[str]:
    """Every ruleset's name, the primary one first."""
    _discover()
    return list(_PLACES)


def place(name: str) -> Place | None:
    """The ruleset called `name` (any case, spaces around ignored), or None."""
    _discover()
    return _PLACES.get(name.strip().lower())


def places() -> list[Place]:
    _discover()
    return list(_PLACES.values())


def unfound() -> list[Unfound]:
    """The entry points of the group that name no ruleset package (`tablelog rulesets`)."""
    _discover()
    return list(_UNFOUND)
