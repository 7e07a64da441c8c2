"""The registry (`tablelog/rulesets.py`): every module each ruleset's Place names loads and
exposes what the contract asks, and each ruleset's demo plays through every layer's reads."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import typer

from tablelog import rulesets
from tablelog.commands.audit import audit
from tablelog.commands.demo import write_demo
from tablelog.commands.endpoints import Endpoint, ruleset_endpoints
from tablelog.commands.reads import show
from tablelog.commands.table import state_view_of
from tablelog.events.base import Event
from tablelog.projections.contract import RulesetViews
from tablelog.rules import registry
from tablelog.rules.contract import TABLE_COMMANDS, Ruleset
from tablelog.storage import open_store

NAMES = rulesets.names()


def test_the_primary_ruleset_comes_first() -> None:
    assert NAMES[0] == "improv"
    assert len(set(NAMES)) == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_place_names_modules_that_fit_the_contract(name: str) -> None:
    place = rulesets.place(name)
    assert place is not None
    rules = importlib.import_module(place.rules).RULESET
    assert isinstance(rules, Ruleset)
    assert rules.name == name
    assert registry.get(name.upper()) is rules
    assert isinstance(importlib.import_module(place.views).VIEWS, RulesetViews)
    assert isinstance(importlib.import_module(place.cli).app, typer.Typer)
    events = importlib.import_module(place.events)
    defined = [v for v in vars(events).values() if isinstance(v, type) and issubclass(v, Event)]
    assert [e for e in defined if e.__module__ == place.events]
    # Every command but the table's own has an endpoint, so the service carries it.
    endpoints = ruleset_endpoints(name)
    assert all(isinstance(e, Endpoint) and e.ruleset == name for e in endpoints)
    carried = {e.command for e in endpoints}
    assert carried <= set(rules.commands)
    assert set(rules.commands) - set(TABLE_COMMANDS) <= carried
    assert all(e.path.startswith(f"/{name}/") for e in endpoints)


def test_body_schemas_have_names_of_their_own() -> None:
    bodies = [e.body.__name__ for name in NAMES for e in ruleset_endpoints(name)]
    assert len(set(bodies)) == len(bodies)


def test_an_unknown_ruleset_is_refused_naming_the_known_ones() -> None:
    from tablelog.errors import InvalidInput

    with pytest.raises(InvalidInput, match=f"choose one of {', '.join(NAMES)}"):
        registry.get("poker")
    with pytest.raises(ValueError, match="lower-case words"):
        rulesets.Place("Bad Name", events="", rules="", views="", commands="", cli="")


@pytest.mark.parametrize("name", NAMES)
def test_each_demo_plays_and_every_generic_read_works_on_it(name: str, tmp_path: Path) -> None:
    rules = registry.get(name)
    assert rules.demo is not None
    play = rules.demo()
    store = open_store(str(tmp_path / "demo.db"), create=True)
    try:
        written = write_demo(store, ruleset=name)
        campaign = written[0].campaign
        assert campaign == play.name
        assert len(written) > len(play.commands)
        assert [e for e in written if e.type in play.shown]
        view = state_view_of(store, campaign, None)
        assert (view["campaign"], view["ruleset"], view["seq"]) == (campaign, name, len(written))
        assert {"session", "session_open", "scene"} <= set(view)
        for conflict in view["conflicts"].values():
            assert {"status", "beats"} <= set(conflict)
        shown = show(store, campaign, play.conflict, None, ruleset=name)
        assert shown.view["conflict"] == play.conflict
        assert shown.lines
        account = audit(store, campaign)
        assert account.ok, account.discrepancies
        assert play.conflict in [c.conflict for c in account.conflicts]
    finally:
        store.close()
