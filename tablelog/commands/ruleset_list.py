"""`tablelog rulesets`: every ruleset found by its entry point, loaded part by part, so that
one that fails to load is named with why, and the others still work."""

from __future__ import annotations

import importlib

import msgspec

from tablelog import rulesets


class FoundRuleset(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    version: int | None  # the ruleset's own (Ruleset.version), None when it did not load
    package: str
    distribution: str
    distribution_version: str
    ok: bool
    problem: str | None = None  # why it does not load: one sentence


def found_rulesets() -> list[FoundRuleset]:
    """Each ruleset found, its parts imported and checked against the contract."""
    listed = [_loaded(place) for place in rulesets.places()]
    listed += [
        FoundRuleset(
            name=bad.name,
            version=None,
            package=bad.value,
            distribution=bad.distribution,
            distribution_version="",
            ok=False,
            problem=bad.reason,
        )
        for bad in rulesets.unfound()
    ]
    return listed


def _loaded(place: rulesets.Place) -> FoundRuleset:
    from tablelog.projections.contract import RulesetViews
    from tablelog.rules.contract import Ruleset

    version: int | None = None
    problem: str | None = None
    wanted = (
        (place.events, None, None),
        (place.rules, "RULESET", Ruleset),
        (place.views, "VIEWS", RulesetViews),
        (place.commands, "ENDPOINTS", list),
        (place.cli, "app", None),
    )
    for module_name, attribute, kind in wanted:
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # a third party's package: any failure is reported, not raised
            problem = f"{module_name} does not import ({type(exc).__name__}: {exc})"
            break
        if attribute is None:
            continue
        value = getattr(module, attribute, None)
        if value is None or (kind is not None and not isinstance(value, kind)):
            expected = kind.__name__ if kind is not None else "one"
            problem = f"{module_name} has no {attribute} ({expected})"
            break
        if isinstance(value, Ruleset):
            version = value.version
            if value.name != place.name:
                problem = f"{module_name}.RULESET is named {value.name!r}, not {place.name!r}"
                break
    return FoundRuleset(
        name=place.name,
        version=version,
        package=place.package,
        distribution=place.distribution,
        distribution_version=place.version,
        ok=problem is None,
        problem=problem,
    )
