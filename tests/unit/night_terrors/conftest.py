"""The `new` fixture: Night Terrors tables, each on its own SQLite file, closed at the end."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.unit.beer_run.table import SCRATCH
from tests.unit.night_terrors.table import Tables


@pytest.fixture
def new() -> Iterator[Tables]:
    with tempfile.TemporaryDirectory(dir=SCRATCH) as directory, Tables(Path(directory)) as tables:
        yield tables
