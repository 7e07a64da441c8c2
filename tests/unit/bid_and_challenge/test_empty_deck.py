"""An empty Deck is never active (the seed: "While you have no deck, you cannot be an active
player. You may still Challenge bids."), rule by rule, each row under option empty_deck:
`passed-over` (the default) and `active-may-pass` (the rule of campaigns created before issue
26, where such a seat was active and could only pass).

Seating clockwise: Anna (a Deck of 5), Ben (3), Cara (an empty Deck) unless a test says
otherwise; Dan holds one card, Luck, and Eve none.
"""

from __future__ import annotations

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.events.base import Event
from tablelog.events.codec import encode
from tablelog.rules.common import Command
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tests.unit.bid_and_challenge.table import (
    DECKS,
    RECORDED,
    Tables,
    bid,
    cards,
    challenge,
    only,
    pass_,
    power,
)

DAN = c.RegisterDeck(player="dan", character="Dan", flow=1, cards=cards("Luck:1d6"))
EVE = c.RegisterDeck(player="eve", character="Eve", flow=1, cards=[])


def opened(*seating: str, asked: str, start: str | None = None, key: str = "s1") -> Command:
    return c.OpenScene(seating=list(seating), requested_by=asked, starting=start, conflict=key)


def options(empty_deck: str) -> dict[str, str]:
    return {**RECORDED, "empty_deck": empty_deck}


# name, given, command, who is active after it: passed-over, active-may-pass
WHO_IS_ACTIVE: list[tuple[str, list[Command], Command, str, str]] = [
    ("Cara asks for a scene and would start", [*DECKS],
     opened("Cara", "Anna", "Ben", asked="Cara"), "anna", "cara"),
    ("--start names Cara: the next seat with a Deck starts", [*DECKS],
     opened("Anna", "Ben", "Cara", asked="Anna", start="Cara"), "anna", "cara"),
    ("--start names a seat with a Deck", [*DECKS],
     opened("Anna", "Ben", "Cara", asked="Cara", start="Ben"), "ben", "ben"),
    ("after Ben's unchallenged bid, Cara is on his left",
     [*DECKS, opened("Anna", "Ben", "Cara", asked="Anna"), pass_("Anna"), bid("Ben", "Sneak"),
      pass_("Anna")],
     pass_("Cara"), "anna", "cara"),
    ("after Ben's pass, Cara is on his left",
     [*DECKS, opened("Anna", "Ben", "Cara", asked="Anna"), bid("Anna", "Brawn"), pass_("Cara"),
      pass_("Ben")],
     pass_("Ben"), "anna", "cara"),
]  # fmt: skip


@pytest.mark.parametrize("empty_deck", ["passed-over", "active-may-pass"])
@pytest.mark.parametrize(
    ("given", "command", "over", "may_pass"),
    [r[1:] for r in WHO_IS_ACTIVE],
    ids=[r[0] for r in WHO_IS_ACTIVE],
)
def test_the_turn_passes_over_an_empty_deck(
    new: Tables, empty_deck: str, given: list[Command], command: Command, over: str, may_pass: str
) -> None:
    table = new(options(empty_deck)).given(given)
    events = table.when(command)
    started = events[-1]
    assert isinstance(started, ev.RoundStarted)
    assert started.active == (over if empty_deck == "passed-over" else may_pass)
    for event in events:  # a scene's starting player is the one who is active first
        if isinstance(event, ev.SceneStarted):
            assert event.starting_player == started.active
    assert account_of(table.log()).discrepancies == []


def test_a_seat_with_an_empty_deck_may_still_challenge(new: Tables) -> None:
    table = new(RECORDED).given(DECKS, opened("Anna", "Ben", "Cara", asked="Anna"))
    table.given(bid("Anna", "Brawn"))
    events = table.when(challenge("Cara", universe=["Storm"]))
    assert only(events, ev.ChallengeMade).challenger == "cara"


# Passes in a row: only the seats that can be active count.
PASSES = [
    ("passed-over", ["Anna", "Ben"], "every player with a Deck passed in a row"),
    ("active-may-pass", ["Anna", "Ben", "Cara"], "every player passed in a row"),
]


@pytest.mark.parametrize(("empty_deck", "passers", "reason"), PASSES, ids=[r[0] for r in PASSES])
def test_all_players_pass_counts_only_those_who_can_be_active(
    new: Tables, empty_deck: str, passers: list[str], reason: str
) -> None:
    table = new(options(empty_deck)).given(DECKS, opened("Anna", "Ben", "Cara", asked="Anna"))
    *first, last = passers
    table.given(*[pass_(who) for who in first])
    assert table.state.scenes["s1"].status == "open"
    events = table.when(pass_(last))
    assert (only(events, ev.Passed).passes, only(events, ev.SceneEnded).reason) == (
        len(passers),
        reason,
    )
    assert account_of(table.log()).discrepancies == []


# Dan's bid strikes his own last card (Luck, in his Deck when he bids): once it wins, no seat
# of Dan and Cara has a Deck.
LAST_CARD = [
    ("passed-over", ev.SceneEnded(conflict="s1", reason="no seated player has a card in Deck")),
    ("active-may-pass", ev.RoundStarted(conflict="s1", round=2, active="cara")),
]


@pytest.mark.parametrize(("empty_deck", "after"), LAST_CARD, ids=[r[0] for r in LAST_CARD])
def test_a_scene_in_which_nobody_has_a_deck_ends(
    new: Tables, empty_deck: str, after: Event
) -> None:
    table = new(options(empty_deck)).given(DECKS, DAN, opened("Dan", "Cara", asked="Dan"))
    table.given(bid("Dan", "Luck", spec=power("strike", target="Dan", cards=["Luck"])))
    events = table.when(pass_("Cara"))  # nobody challenges: the bid succeeds
    assert only(events, ev.RoundResolved).winner == "dan"
    assert table.zone("dan", "deck") == []
    assert events[-1] == after
    assert account_of(table.log()).discrepancies == []


def test_a_scene_where_nobody_has_a_deck_cannot_start(new: Tables) -> None:
    table = new(RECORDED).given(DECKS, EVE)
    refused = table.refuse(opened("Cara", "Eve", asked="Cara"), "no-deck")
    assert refused.message == (
        "no seated character has a card in Deck (seating: cara, eve): nobody could be the "
        "active player, so the scene cannot start (option empty_deck)"
    )
    # The rule of older campaigns opens it: Cara is active and may only pass.
    old = new(options("active-may-pass")).given(DECKS, EVE)
    assert only(old.when(opened("Cara", "Eve", asked="Cara")), ev.RoundStarted).active == "cara"


def test_a_deck_another_scene_empties_passes_without_counting(new: Tables) -> None:
    """Scenes run side by side: a power won in s2 may empty the Deck of s1's active player.
    It cannot bid; its pass does not count among the passes in a row, and with no seat of s1
    holding a Deck the scene ends."""
    table = new(RECORDED).given(
        DECKS,
        DAN,
        opened("Dan", "Cara", asked="Dan"),
        opened("Anna", "Ben", asked="Anna", key="s2"),
    )
    strike = power("strike", target="Dan", cards=["Luck"])
    table.given(c.Bid(conflict="s2", active="Anna", description="x", cards=["Brawn"], power=strike))
    table.given(c.Pass(conflict="s2", player="Ben"))  # unchallenged: Luck to Dan's Discard
    assert table.zone("dan", "deck") == []
    refused = table.refuse(c.Bid(conflict="s1", active="Dan", description="x", cards=["Luck"],
                                 power=strike), "empty-deck")  # fmt: skip
    assert refused.message == (
        "dan's deck is empty: dan cannot be the active player (dan may still challenge); pass"
    )
    events = table.when(c.Pass(conflict="s1", player="Dan"))
    assert [type(e) for e in events] == [ev.Passed, ev.SceneEnded]
    assert only(events, ev.Passed).passes == 0  # Dan cannot be active: his pass is not counted
    assert only(events, ev.SceneEnded).reason == "no seated player has a card in Deck"
    assert account_of(table.log()).discrepancies == []


def test_the_audit_names_a_turn_given_to_an_empty_deck(new: Tables) -> None:
    """A log whose next active player was an empty Deck, in a campaign of the passed-over
    rule, does not follow: the audit names the event by its seq."""
    table = new(RECORDED).given(DECKS, opened("Anna", "Ben", "Cara", asked="Anna"))
    table.given(bid("Anna", "Brawn"), pass_("Cara"), pass_("Ben"))  # Ben is active
    table.given(pass_("Ben"))  # the turn passes over Cara to Anna
    log = table.log()
    at, started = next(
        (i, e.event()) for i, e in enumerate(log) if e.type == "bc.round_started" and i > 0
        and e.event() == ev.RoundStarted(conflict="s1", round=3, active="anna")
    )  # fmt: skip
    forged = msgspec.structs.replace(started, active="cara")
    log[at] = msgspec.structs.replace(log[at], payload=encode(forged))
    found = account_of(log).discrepancies
    assert [(d.seq, d.field) for d in found] == [(log[at].seq, "event")]
