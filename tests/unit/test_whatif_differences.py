"""`whatif`'s comparison of two `state --json` views, conflict by conflict: who beat whom, the
status, and the `outcome` sentences a ruleset may add for what its beats cannot say."""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.commands.whatif import differences


def _view(**conflict: Any) -> dict[str, Any]:
    return {"conflicts": {"c1": {"status": "open", "beats": [["kit", "goblin"]], **conflict}}}


def test_the_same_beats_and_status_without_an_outcome_differ_in_nothing() -> None:
    assert differences(_view(), _view()) == []


def test_an_outcome_that_differs_is_a_difference_even_with_the_same_beats() -> None:
    real = _view(outcome=["kit: Magic Flush, 43 fire to goblin"])
    imagined = _view(outcome=["kit: Blinding Flush, 33 light to goblin"])
    (found,) = differences(real, imagined)
    assert (found.real, found.whatif) == ([["kit", "goblin"]], [["kit", "goblin"]])
    assert found.real_outcome == ["kit: Magic Flush, 43 fire to goblin"]
    assert found.whatif_outcome == ["kit: Blinding Flush, 33 light to goblin"]


def test_a_ruleset_without_outcomes_keeps_the_documented_json_shape() -> None:
    (found,) = differences(_view(), _view(beats=[]))
    assert msgspec.to_builtins(found) == {
        "conflict": "c1",
        "real": [["kit", "goblin"]],
        "whatif": [],
        "real_status": "open",
        "whatif_status": "open",
    }
