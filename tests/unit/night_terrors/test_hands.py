"""Hands between scenes (rules/night-terrors.md, Hands): a new scene resets every hand to 4 -
above 4 discards down by its own choice, below 4 draws up - and anyone may then refresh
(discard any cards, draw back to 4) until a conflict opens. A managed deck deals by itself."""

from __future__ import annotations

import pytest

from tablelog.commands.reads import show
from tablelog.errors import Forbidden
from tablelog.rules.common import StartScene, StartSession
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.views.text import describe
from tablelog.rulesets.night_terrors.views.views import hand
from tests.unit.night_terrors.table import (
    ALICE,
    BOB,
    RECORDED,
    Stacked,
    Tables,
    all_of,
    draw,
    only,
    open_,
    raise_,
    see,
)


def test_a_scene_resets_the_hands_and_opens_refreshes(new: Tables) -> None:
    table = new(RECORDED).given(
        ALICE,
        BOB,
        StartSession(),
        draw("Alice", "6D", "KS", "2C", "3C"),
        draw("Bob", "7C", "5H", "2D", "3D"),
        open_("guns", "Alice", "Bob"),
        draw("Alice", "4C", "5C", "6C", "8C", "9C"),
        draw("Bob", "2H", "3H", "4H", "6H"),
        raise_("Alice", "6D", "KS"),
        see("Bob", "7C", "5H", "2D"),  # 3 cards: 24 >= 12, Bob keeps 5
        c.Give(conflict="c1", character="Bob"),
    )
    assert (len(table.who("Alice").hand), len(table.who("Bob").hand)) == (7, 5)
    table.given(StartScene(title="the morning after"))
    assert table.state.discards == {"alice": 3, "bob": 1}
    table.refuse(c.Discard(character="Alice", cards=["2C"]), "nt-discard-count")
    table.refuse(c.Refresh(character="Alice", cards=["2C"]), "nt-discard-first")
    table.refuse(open_("talk", "Alice", "Bob", conflict="c2"), "nt-discard-first")
    discarded = only(
        table.when(c.Discard(character="Alice", cards=["2C", "3C", "4C"])), ev.CardsDiscarded
    )
    assert (discarded.reason, table.who("Alice").hand) == ("scene_reset", ["5C", "6C", "8C", "9C"])
    table.given(c.Discard(character="Bob", cards=["3D"]))
    # Alice refreshes two cards and draws two back; once only.
    table.given(c.Refresh(character="Alice", cards=["5C", "6C"]))
    assert table.state.draws["alice"].count == 2
    table.given(draw("Alice", "10D", "JD"))
    table.refuse(c.Refresh(character="Alice", cards=["8C"]), "nt-refreshed")
    assert sorted(table.who("Alice").hand) == ["10D", "8C", "9C", "JD"]
    # A conflict opening closes the refresh window.
    table.given(open_("talk", "Bob", "Alice", conflict="c2"))
    table.refuse(c.Refresh(character="Bob", cards=["2H"]), "nt-no-reset")


def test_a_managed_deck_deals_sessions_conflicts_and_refreshes(new: Tables) -> None:
    top = ["6D", "KS", "2C", "3C", "7C", "5H", "2D", "3D"]
    table = new(shuffle=Stacked(*top)).given(ALICE, BOB)
    events = table.when(StartSession())
    assert only(events, ev.DeckShuffled).reason == "new_deck"
    assert [(d.character_id, d.cards) for d in all_of(events, ev.CardsDrawn)] == [
        ("alice", top[:4]),
        ("bob", top[4:]),
    ]
    events = table.when(c.Refresh(character="Bob", cards=["2D", "3D"]))
    assert [type(e).__name__ for e in events] == ["CardsDiscarded", "CardsDrawn"]
    assert len(table.who("Bob").hand) == 4
    events = table.when(open_("guns", "Alice", "Bob"))
    assert [len(d.cards) for d in all_of(events, ev.CardsDrawn)] == [5, 4]
    table.given(raise_("Alice", "6D", "KS"), see("Bob", "7C", "5H"))
    assert table.who("Bob").blood == 14  # NT-1, dealt by tablelog
    events = table.when(c.Give(conflict="c1", character="Alice"))
    ended = only(events, ev.ConflictEnded)
    assert ended.winners == ["bob"]
    assert only(events, ev.DeckShuffled).reason == "conflict_end"
    assert table.state.set_aside == []


def test_an_ended_conflict_is_kept_small_and_still_shown_whole(new: Tables) -> None:
    """Once another conflict ends, the state keeps no exchanges of the first; `show` rebuilds
    it from the log as it stood before."""
    table = new(shuffle=Stacked("6D", "KS", "2C", "3C", "7C", "5H", "2D", "3D"))
    table.given(ALICE, BOB, StartSession(), open_("guns", "Alice", "Bob"))
    table.given(raise_("Alice", "6D", "KS"), see("Bob", "7C", "5H"))
    table.given(
        c.Give(conflict="c1", character="Bob"),
        c.Narrate(conflict="c1", character="Alice", text="Mine."),
    )
    table.given(
        open_("talk", "Bob", "Alice", conflict="c2"), c.Give(conflict="c2", character="Bob")
    )
    first = table.state.conflicts["c1"]
    assert (first.exchanges, first.exchange_count, first.winners) == ([], 1, ["alice"])
    assert first.kept_at is not None
    shown = show(table.store, "t", "c1", None)
    assert [x["raise"]["value"] for x in shown.view["exchanges"]] == [12]
    assert shown.view["narrations"] == [["alice", "Mine."]]
    assert shown.view["exchange"] == 1


def test_one_card_is_counted_as_one_card(new: Tables) -> None:
    table = new({**RECORDED, "hand_size": "1"}).given(ALICE, BOB, StartSession())
    refused = table.refuse(draw("Alice", "2C", "3C"), "nt-draw-count")
    assert refused.message == "Alice draws 1 card (session); 2 given"
    drawn = only(table.when(draw("Alice", "2C")), ev.CardsDrawn)
    assert describe(drawn) == "alice draws 1 card (session)"


def test_a_hand_is_read_by_its_player_alone_and_an_npcs_by_the_gm(new: Tables) -> None:
    vlad = c.CreateCharacter(player="gm", character="Vlad", card="KC")
    state = new().given(ALICE, vlad, StartSession()).state
    assert len(hand(state, "Vlad", "gm")["cards"]) == 4
    with pytest.raises(Forbidden) as refused:
        hand(state, "Vlad", "alice")
    assert refused.value.message == "Vlad's hand is visible to the GM (an NPC) only"
    with pytest.raises(Forbidden) as refused:
        hand(state, "Alice", "gm")
    assert refused.value.message == "Alice's hand is visible to its player only"
