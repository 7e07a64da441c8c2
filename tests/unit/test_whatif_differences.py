"""`whatif`'s comparison of two `state --json` views, conflict by conflict: who beat whom, the
status, and the `outcome` sentences a ruleset may add for what its beats cannot say."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tablelog.commands.whatif import compared, differences


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
    (found,) = differences(_view(), _view(beats=[], status="closed"))
    assert msgspec.to_builtins(found) == {
        "conflict": "c1",
        "real": [["kit", "goblin"]],
        "whatif": [],
        "real_status": "open",
        "whatif_status": "closed",
    }


# Status and length apart from outcomes (issue 26): a conflict the what-if has not played as
# far, or has played further, has no different outcome, as long as nothing either side
# decided differs. Rows: real, what-if, outcome difference?
_CLOSED = {"status": "closed", "beats": [["kit", "goblin"]]}
_OPEN_NONE = {"status": "open", "beats": []}


@pytest.mark.parametrize(
    ("real", "whatif", "outcome"),
    [
        # Cut before the close: still open, nothing decided yet.
        (_CLOSED, _OPEN_NONE, False),
        # Played on to the end where the real one is still open.
        (_OPEN_NONE, _CLOSED, False),
        # Only the status differs.
        (_CLOSED, {**_CLOSED, "status": "open"}, False),
        # Not played at all in the what-if (absent), or only there.
        (_CLOSED, None, False),
        (None, _CLOSED, False),
        # Open, with more of the same sentences on one side (it played further).
        (
            {"status": "open", "beats": [], "outcome": ["kit: 4 fire to goblin"]},
            {"status": "open", "beats": [], "outcome": ["kit: 4 fire to goblin", "goblin: 2"]},
            False,
        ),
        # Closed both ways, other beats; closed with none: decided, and differently.
        (_CLOSED, {"status": "closed", "beats": [["goblin", "kit"]]}, True),
        (_CLOSED, {"status": "closed", "beats": []}, True),
        # Still open, but what it decided so far differs.
        (
            {"status": "open", "beats": [], "outcome": ["kit: 4 fire to goblin"]},
            {"status": "open", "beats": [], "outcome": ["kit: 9 ice to goblin", "goblin: 2"]},
            True,
        ),
        # Open with beats that are not a beginning of the other's.
        ({"status": "open", "beats": [["goblin", "kit"]]}, _CLOSED, True),
    ],
)
def test_status_and_length_are_reported_apart_from_outcomes(
    real: dict[str, Any] | None, whatif: dict[str, Any] | None, outcome: bool
) -> None:
    def view(conflict: dict[str, Any] | None) -> dict[str, Any]:
        return {"conflicts": {} if conflict is None else {"c1": conflict}}

    found = compared(view(real), view(whatif))
    assert len(found.differences) == int(outcome)
    assert len(found.progress) == int(not outcome)
    (either,) = [*found.differences, *found.progress]
    assert either.conflict == "c1"
    assert differences(view(real), view(whatif)) == found.differences
