"""The `new` fixture: Ace of Cards tables, each on its own SQLite file, closed at the end."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.unit.ace_of_cards.table import Tables
from tests.unit.beer_run.table import SCRATCH


@pytest.fixture
def new() -> Iterator[Tables]:
    with tempfile.TemporaryDirectory(dir=SCRATCH) as directory, Tables(Path(directory)) as tables:
        yield tables
