"""The log's words for a push: rotated cards are named as rotated; a push of no cards (a
rewrite only) rotates nothing."""

from __future__ import annotations

import pytest

from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.views.text import describe


@pytest.mark.parametrize(
    ("cards", "line"),
    [
        (["quickwits"], 'anna pushes "I wedge it" with quickwits (rotated)'),
        ([], 'anna pushes "I wedge it" with no extra cards'),
    ],
)
def test_a_push_in_words(cards: list[str], line: str) -> None:
    pushed = ev.Pushed(
        conflict="s1", round=1, active="anna", revised_description="I wedge it", cards=cards
    )
    assert describe(pushed) == line


def test_a_players_words_are_quoted_as_typed() -> None:
    """A description holding both kinds of quote reads as typed: no backslash is added."""
    pushed = ev.Pushed(
        conflict="s1", round=1, active="anna", revised_description='it\'s "fine"', cards=[]
    )
    assert describe(pushed) == 'anna pushes "it\'s "fine"" with no extra cards'
