"""A conflict that cannot go on: the GM abandons it, nobody wins, and the campaign moves on.

Found by playing through the service: a player who never raises, answers or pays holds the
conflict open, the GM may not act for that player's character, and while a conflict is open
no scene or session starts. So one quiet player stopped the whole campaign.
"""

from __future__ import annotations

import pytest

from tablelog.commands.audit import account_of
from tablelog.errors import Forbidden
from tablelog.rules.common import StartScene, StartSession
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules.cast import CAST
from tests.unit.night_terrors.table import (
    ALICE,
    BOB,
    RECORDED,
    Stacked,
    Table,
    Tables,
    all_of,
    draw,
    only,
    open_,
    raise_,
)

ABANDON = c.Abandon(conflict="c1", reason="Bob's player has left the game")


def stalled(new: Tables, options: dict[str, str], shuffle: Stacked | None = None) -> Table:
    """Alice has raised; Bob's player never answers."""
    table = new(options, shuffle).given(ALICE, BOB, StartSession())
    if options.get("deck") == "recorded":
        table.given(draw("Alice", "2C", "3C", "4C", "5C"), draw("Bob", "2H", "3H", "4H", "6H"))
    table.given(open_("talk", "Alice", "Bob"))
    if options.get("deck") == "recorded":
        table.given(draw("Alice", "6C", "7C", "8C", "9C"), draw("Bob", "7H", "8H", "9H", "10H"))
    hand = table.who("Alice").hand
    table.given(raise_("Alice", hand[0], hand[1]))
    table.refuse(StartScene(), "nt-conflict-open")
    return table


def test_the_gm_abandons_a_stalled_conflict_and_nobody_wins(new: Tables) -> None:
    table = stalled(new, RECORDED)
    ended = only(table.when(ABANDON), ev.ConflictEnded)
    assert (ended.winners, ended.abandoned) == ([], True)
    assert ended.rule == "the GM abandoned it: Bob's player has left the game"
    assert table.state.conflicts["c1"].status == "ended"
    assert len(table.state.deck) == 52 - 8 - 8 + 2  # the raise's cards are back in the deck
    table.given(StartScene())  # the campaign moves on
    table.refuse(ABANDON, "nt-conflict-ended")
    account = account_of(table.store.read("t"))
    assert account.discrepancies == []
    notes = [n.text for chapter in account.conflicts for s in chapter.sections for n in s.notes]
    assert "nobody decides the stakes: the GM abandoned it: Bob's player has left the game" in (
        notes
    )


def test_a_managed_deck_is_shuffled_again_when_a_conflict_is_abandoned(new: Tables) -> None:
    table = stalled(new, {})
    events = table.when(ABANDON)
    shuffled = all_of(events, ev.DeckShuffled)
    assert [s.reason for s in shuffled] == ["conflict_end"]
    assert sorted(shuffled[0].order) == sorted(table.state.deck)
    assert len(table.state.deck) == 52 - 8 - 8 + 2


def test_only_the_gm_abandons(new: Tables) -> None:
    state = stalled(new, RECORDED).state
    CAST.authorize(state, ABANDON, "gm", "gm")
    with pytest.raises(Forbidden) as refused:
        CAST.authorize(state, ABANDON, "alice", "player")
    assert refused.value.code == "gm-only"
