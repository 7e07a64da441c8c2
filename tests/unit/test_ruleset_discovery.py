"""Finding the rulesets reads every distribution's metadata (`importlib.metadata`): the
result is kept in a cache file while the import path is unchanged, so a CLI start does not pay
for it, and read again once anything is installed or removed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tablelog import rulesets


def test_the_cache_spares_a_read_until_an_install_changes_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    reads: list[int] = []
    real = rulesets._read_entry_points

    def counted() -> list[rulesets.Point]:
        reads.append(1)
        return real()

    monkeypatch.setattr(rulesets, "_read_entry_points", counted)
    first = rulesets._cached()
    assert rulesets._cached() == first
    assert len(reads) == 1  # the second came from the cache file
    assert any(point[0] == "improv" for point in first)
    (site / "new_dist-0.1.dist-info").mkdir()  # an install changes its directory
    os.utime(site, ns=(1, 2))
    rulesets._cached()
    assert len(reads) == 2
