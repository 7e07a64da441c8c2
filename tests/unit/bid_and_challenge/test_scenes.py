"""Scenes one after another: an ended scene keeps only a record of its rounds once the next one
starts (the state stays small), and `show` rebuilds it from the log as it stood when it ended."""

from __future__ import annotations

from tablelog.commands.reads import show
from tablelog.commands.table import state_view_of
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tests.unit.bid_and_challenge.table import (
    CAMPAIGN,
    RECORDED,
    RULESET,
    Tables,
    bid,
    challenge,
    pass_,
    roll,
    seated,
)


def test_an_ended_scene_is_kept_as_a_record_and_shown_whole(new: Tables) -> None:
    table = new(RECORDED).given(
        seated(),
        bid("Anna", "Brawn"),
        pass_("Cara"),
        challenge("Ben", "Dodge"),
        roll([1], [6]),  # Ben wins round 1
        c.CloseScene(conflict="s1", reason="night falls"),
    )
    ended_at = table.head_seq()
    assert len(table.state.scenes["s1"].rounds) == 2  # whole until another scene starts
    table.given(c.OpenScene(seating=["Ben", "Cara"], requested_by="Ben"))
    kept = table.state.scenes["s1"]
    assert (kept.compacted, kept.rounds, kept.ended_at) == (True, [], ended_at)
    view = state_view_of(table.store, CAMPAIGN, None)
    assert view["conflicts"]["s1"]["beats"] == [["ben", "anna"]]
    assert view["conflicts"]["s1"]["round"] == 2
    assert view["conflicts"]["s2"]["waiting_for"] == "ben to bid or pass"
    shown = show(table.store, CAMPAIGN, "s1", None, ruleset=RULESET)
    assert [r["winner"] for r in shown.view["rounds"]] == ["ben", None]
    assert shown.lines[-1] == "ended: night falls"
    # The new scene plays on: Ben bids, nobody challenges; Cara's Deck is empty, so the turn
    # passes over her and Ben is active again.
    table.given(bid("Ben", "Sneak"), pass_("Cara"))
    assert table.state.scenes["s2"].current.active == "ben"


def test_the_state_names_the_challenge_offer_i_of_n(new: Tables) -> None:
    """The rules file's projection: the phase with "challenge-offer i of n", and whose turn it
    is to answer the offer."""
    table = new(RECORDED).given(seated(), bid("Anna", "Brawn"))

    def offer() -> object:
        return state_view_of(table.store, CAMPAIGN, None)["conflicts"]["s1"]["offer"]

    assert offer() == {"asked": "cara", "at": 1, "of": 2}
    table.given(pass_("Cara"))
    assert offer() == {"asked": "ben", "at": 2, "of": 2}
    table.given(challenge("Ben", "Dodge"))
    assert offer() is None
