"""The service's state reads: a view built for a viewer is kept while the campaign's head
stays where it was, and rebuilt as soon as it moves (on SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tablelog.commands import database
from tablelog.commands.table import execute, state_view_of
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store
from tests.support.tables import table_in_play

CAMPAIGN = "heist"


@pytest.fixture
def store(target: str) -> Iterator[EventStore]:
    database.upgrade(target)
    opened = open_store(target)
    table_in_play(opened, CAMPAIGN)
    yield opened
    opened.close()


def read(store: EventStore, viewer: str | None) -> dict[str, object]:
    return state_view_of(store, CAMPAIGN, viewer, head=store.head(CAMPAIGN))


def test_a_view_is_kept_until_the_head_moves(store: EventStore) -> None:
    first = read(store, "bob")
    assert read(store, "bob") is first  # nothing moved: the same view
    execute(store, CAMPAIGN, c.PlayCard(conflict="c1", side="Riso", card="QC"))
    moved = read(store, "bob")
    assert moved is not first
    assert moved["seq"] == first["seq"] + 1  # type: ignore[operator]


def test_each_viewer_has_a_view_of_its_own(store: EventStore) -> None:
    gm, bob, everything = read(store, "gm"), read(store, "bob"), read(store, None)
    assert len({id(gm), id(bob), id(everything)}) == 3  # one per viewer, never another's
    assert read(store, "bob") is bob
    assert read(store, "gm") is gm
    assert read(store, None) is everything
