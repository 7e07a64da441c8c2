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
    """Read the entry points of every installed distribution, once per process; from this
    interpreter's cache when nothing was installed or removed since (`_cached`)."""
    global _FOUND
    if _FOUND:
        return
    _FOUND = True
    found: list[tuple[bool, str, Place]] = []
    for name, value, dist_name, dist_version, attr in _cached():
        if attr or not re.fullmatch(r"[A-Za-z_][\w.]*", value):
            reason = "its value must be a package (`package.name`), not an object in one"
            _UNFOUND.append(Unfound(name, value, dist_name, reason))
            continue
        try:
            place = Place.of(name, value, dist_name, dist_version)
        except ValueError as exc:
            _UNFOUND.append(Unfound(name, value, dist_name, str(exc)))
            continue
        found.append((dist_name != HOME, dist_name, place))

    # tablelog's own first, its primary one (its package says `PRIMARY = True`) leading; then
    # the others, by distribution and name.
    primary = _primary_of(found)

    def order(item: tuple[bool, str, Place]) -> tuple[bool, bool, str, str]:
        other, dist_name, place = item
        return (other, other or place.name != primary, dist_name, place.name)

    for _, _, place in sorted(found, key=order):
        if place.name in _PLACES:
            theirs = _PLACES[place.name].distribution
            reason = f"the name {place.name!r} is already the ruleset of {theirs}"
            _UNFOUND.append(Unfound(place.name, place.package, place.distribution, reason))
            continue
        _PLACES[place.name] = place


Point = tuple[str, str, str, str, str]  # name, value, distribution, its version, attr


def _signature() -> str:
    """What the installed distributions depend on: each directory of the import path and
    when it last changed (installing or removing a distribution changes its directory)."""
    import os
    import sys

    parts = [sys.prefix]
    here = os.getcwd()
    for entry in sys.path:
        if entry in ("", here):  # the working directory: a script's, not an install's
            continue
        try:
            parts.append(f"{entry}:{os.stat(entry or '.').st_mtime_ns}")
        except OSError:
            parts.append(f"{entry}:-")
    return "\n".join(parts)


def _cache_file() -> str:
    import hashlib
    import os
    import sys

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key = hashlib.sha256(sys.prefix.encode()).hexdigest()[:16]
    return os.path.join(base, "tablelog", f"rulesets-{key}.json")


def _cached() -> list[Point]:
    """The group's entry points, from a small cache file while the import path is unchanged:
    `importlib.metadata` reads every distribution's metadata, a cost each CLI start would pay
    (bench/cli.sh). A cache that cannot be read or written is simply not used."""
    import json
    import os

    signature, path = _signature(), _cache_file()
    try:
        with open(path, encoding="utf-8") as handle:
            kept = json.load(handle)
        if kept.get("signature") == signature:
            return [(str(a), str(b), str(c), str(d), str(e)) for a, b, c, d, e in kept["points"]]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    points = _read_entry_points()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        scratch = f"{path}.{os.getpid()}"
        with open(scratch, "w", encoding="utf-8") as handle:
            json.dump({"signature": signature, "points": points}, handle)
        os.replace(scratch, path)
    except OSError:
        pass
    return points


def _read_entry_points() -> list[Point]:
    from importlib.metadata import entry_points  # only here: its import costs a CLI start

    points: list[Point] = []
    for point in entry_points(group=GROUP):
        dist = point.dist
        dist_name = dist.metadata["Name"] if dist is not None else ""
        dist_version = dist.version if dist is not None else ""
        points.append((point.name, point.value, dist_name, dist_version, point.attr or ""))
    return points


def _primary_of(found: list[tuple[bool, str, Place]]) -> str | None:
    """The primary ruleset: of tablelog's own, the one whose package says `PRIMARY = True`."""
    import importlib

    for other, _, place in found:
        if other:
            continue
        try:
            module = importlib.import_module(place.package)
        except Exception:  # a broken package is reported when its parts are loaded
            module = None
        if getattr(module, "PRIMARY", False) is True:
            return place.name
    return None


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
