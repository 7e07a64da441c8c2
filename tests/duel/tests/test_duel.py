"""The duel's own tests, as a ruleset in a distribution of its own writes them: transcripts
through `tablelog.testing.Table` (given these commands, when this one, then these events or
this refusal) and a hypothesis property that every play leaves a sound log."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tablelog_duel import events as ev
from tablelog_duel import rules as r

from tablelog.rules.common import JoinPlayer, StartSession
from tablelog.testing import Table

SEATED = (JoinPlayer(player="ann"), JoinPlayer(player="bob"), StartSession())


def test_the_higher_card_wins_the_duel(tmp_path: Path) -> None:
    table = Table(tmp_path / "t.db", "duel").given(
        *SEATED,
        r.OpenDuel(first="ann", second="bob", conflict="d1"),
        r.Play(conflict="d1", player="ann", card=9),
        r.Play(conflict="d1", player="bob", card=12),
    )
    [revealed] = table.when(r.Reveal(conflict="d1"))
    assert isinstance(revealed, ev.DuelRevealed)
    assert (revealed.winner, revealed.cards) == ("bob", {"ann": 9, "bob": 12})
    table.sound()
    table.close()


@pytest.mark.parametrize(
    ("card", "code"),
    [(0, "bad-card"), (14, "bad-card")],
)
def test_a_card_off_the_deck_is_refused(tmp_path: Path, card: int, code: str) -> None:
    table = Table(tmp_path / "t.db", "duel").given(
        *SEATED, r.OpenDuel(first="ann", second="bob", conflict="d1")
    )
    refusal = table.refused(r.Play(conflict="d1", player="ann", card=card))
    assert refusal.code == code
    table.close()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 13), st.integers(1, 13)), min_size=1, max_size=4))
def test_every_play_leaves_a_sound_log(duels: list[tuple[int, int]]) -> None:
    with tempfile.TemporaryDirectory() as where:
        table = Table(Path(where) / "t.db", "duel").given(*SEATED)
        for number, (first, second) in enumerate(duels, start=1):
            key = f"d{number}"
            table.given(
                r.OpenDuel(first="ann", second="bob", conflict=key),
                r.Play(conflict=key, player="ann", card=first),
                r.Play(conflict=key, player="bob", card=second),
                r.Reveal(conflict=key),
            )
        table.sound()
        assert all(d.status == "closed" for d in table.state.duels.values())
        table.close()
