"""The `new` fixture: Bid & Challenge tables, each on its own SQLite file, closed at the end."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.unit.bid_and_challenge.table import SCRATCH, Tables


@pytest.fixture
def new() -> Iterator[Tables]:
    """Real SQLite files in a memory-backed directory when the system has one (each commit
    syncs the file: on a disk that alone would make these tests several times slower)."""
    with tempfile.TemporaryDirectory(dir=SCRATCH) as directory, Tables(Path(directory)) as tables:
        yield tables
