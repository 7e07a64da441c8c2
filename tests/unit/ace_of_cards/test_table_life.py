"""A table's life beyond the vectors: conflicts side by side, cards put away and reshuffled,
and the windows the rules open (High or Low, a Trap Card's free spell, a turn's Mulligan)
closing when play moves on, so no state is left waiting."""

from __future__ import annotations

from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tests.unit.ace_of_cards.table import Tables, ace, magic, only, open_


def test_two_conflicts_side_by_side_each_ace_acting_in_its_own(new: Tables) -> None:
    table = new()
    table.given(
        ace("kit", magic_cards=1),
        ace("lea", magic_cards=1),
        open_(["kit"], ["goblin"]),
        open_(["lea"], ["wolf"], conflict="c2"),
    )
    table.refuse(open_(["kit"], ["bear"], conflict="c3"), "in-conflict")
    hand = table.pile("lea").hand
    events = table.when(magic("lea", 10, *hand[:2], anyway=True))
    assert only(events, ev.MagicCardsUsed).conflict == "c2"
    error = table.refuse(
        c.Mulligan(conflict="c1", character="lea", cards=[hand[2]]), "not-in-conflict"
    )
    assert error.message == "lea fights in conflict c2, not c1"


def test_the_end_puts_all_30_away_and_the_next_conflict_shuffles_them_all(new: Tables) -> None:
    table = new()
    table.given(ace("kit", magic_cards=1), open_(["kit"], ["goblin"]))
    hand = table.pile("kit").hand
    table.given(magic("kit", 10, *hand[:2], anyway=True), c.EndConflict(conflict="c1"))
    assert table.who("kit").pile is None
    table.refuse(c.Mulligan(conflict=None, character="kit", cards=["1C"]), "not-in-conflict")
    events = table.when(open_(["kit"], ["wolf"], conflict="c2"))
    assert len(only(events, ev.DeckShuffled).order) == 30
    pile = table.pile("kit")
    assert (len(pile.deck), len(pile.hand), pile.discard) == (25, 5, [])


def test_windows_close_when_play_moves_on(new: Tables) -> None:
    table = new({"dice": "recorded"})
    table.given(ace("kit", magic_cards=1, trap_card=1, mulligan=1), open_(["kit"], ["goblin"]))
    # High or Low: open after a critical, closed by the Ace's next Check.
    table.given(
        c.CallCheck(conflict=None, character="kit", kind="other", dice=[6, 6], dl=5),
        c.RollCheck(conflict=None, check="k1", values=[6, 6]),
    )
    assert table.who("kit").high_or_low == "k1"
    table.given(
        c.CallCheck(conflict=None, character="kit", kind="other", dice=[6, 6], dl=5),
        c.RollCheck(conflict=None, check="k2", values=[2, 3]),
    )
    table.refuse(c.HighOrLowDraw(conflict=None, character="kit"), "no-high-or-low")
    # A Trap Card's free spell: open after a hit (the bottom card is JK2), closed by the next
    # action.
    table.given(
        c.TakeAction(conflict=None, actor="goblin", text="bites"),
        c.TrapCard(conflict=None, character="kit", suit="clubs"),
    )
    assert table.who("kit").trap_window == "a1"
    table.given(c.TakeAction(conflict=None, actor="goblin", text="bites again"))
    table.refuse(c.FreeSpell(conflict=None, character="kit", spell="Zap", mp=5), "no-trap-hit")
    # Mulligan: once a turn; the Ace's own next action starts a new one.
    hand = table.pile("kit").hand
    table.given(c.Mulligan(conflict=None, character="kit", cards=[hand[0]]))
    table.refuse(c.Mulligan(conflict=None, character="kit", cards=[hand[1]]), "mulligan-used")
    table.given(
        c.TakeAction(conflict=None, actor="kit", text="attacks"),
        c.Mulligan(conflict=None, character="kit", cards=[hand[1]]),
    )


def test_a_fumble_under_double_or_nothing_opens_high_or_low_and_its_discard_is_owed(
    new: Tables,
) -> None:
    table = new({"dice": "recorded"})
    table.given(
        ace("kit", magic_cards=1, mulligan=1),
        open_(["kit"], ["goblin"]),
        c.CallCheck(conflict=None, character="kit", kind="clock", dice=[6, 6], dl=5, double=True),
        c.RollCheck(conflict=None, check="k1", values=[1, 1]),
        c.HighOrLowDraw(conflict=None, character="kit"),
    )
    table.refuse(c.Mulligan(conflict=None, character="kit", cards=["1C"]), "discard-owed")
    table.refuse(c.HighOrLowDraw(conflict=None, character="kit"), "discard-owed")
    # The GM may still end the conflict: the cards are put away, nothing is owed after.
    table.given(c.EndConflict(conflict=None))
    assert table.who("kit").owes_discard is None
