"""The winner narrates ("The winner narrates the details of what happens"): after a round is
decided, its winner may say what happens, once; it is optional, and the next round goes on
without it. `show`, the page and the account the exports are built from show it. (Its
refusals are rows of test_refusals.)"""

from __future__ import annotations

import msgspec
import pytest

from tablelog.commands.access import Caller
from tablelog.commands.audit import account_of
from tablelog.commands.page import page_of
from tablelog.commands.post import post
from tablelog.commands.reads import show
from tablelog.commands.table import state_view_of
from tablelog.errors import Forbidden
from tablelog.events.base import Event
from tablelog.events.codec import encode
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import RULESET
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tests.unit.bid_and_challenge.table import (
    CAMPAIGN,
    DECKS,
    RECORDED,
    Table,
    Tables,
    bid,
    cards,
    challenge,
    narrate,
    pass_,
    power,
    push,
    roll,
    seated,
)
from tests.unit.bid_and_challenge.table import RULESET as NAME


def bc1(new: Tables) -> Table:
    """BC-1: Ben's challenge beats Anna's push; round 2, Ben is active."""
    return new(RECORDED).given(
        seated(),
        bid("Anna", "Brawn", "Sword"),
        pass_("Cara"),
        challenge("Ben", "Dodge", universe=["Storm"]),
        push("Anna", "QuickWits"),
        roll([4, 2, 1], [5, 6]),
    )


def due(table: Table, scene: str = "s1") -> object:
    return state_view_of(table.store, CAMPAIGN, None)["conflicts"][scene]["narration_due"]


def test_the_winner_of_a_challenged_round_narrates_it(new: Tables) -> None:
    table = bc1(new)
    assert due(table) == {"round": 1, "winner": "ben"}
    events = table.when(narrate("Ben", "The gate slams on Anna's fingers"))
    assert events == [
        ev.Narrated(conflict="s1", round=1, player="ben", text="The gate slams on Anna's fingers")
    ]
    assert due(table) is None
    shown = show(table.store, CAMPAIGN, "s1", None, ruleset=NAME)
    assert shown.view["rounds"][0]["narration"] == {
        "player": "ben",
        "text": "The gate slams on Anna's fingers",
    }
    assert "  ben narrates: The gate slams on Anna's fingers" in shown.lines
    assert shown.lines.index("  ben narrates: The gate slams on Anna's fingers") == (
        shown.lines.index("  ben wins: ben 12 beats anna 10") + 1
    )


def test_an_unchallenged_bid_is_narrated_by_its_bidder(new: Tables) -> None:
    table = new(RECORDED).given(seated(), bid("Anna", "Brawn"), pass_("Cara"), pass_("Ben"))
    assert due(table) == {"round": 1, "winner": "anna"}
    assert table.when(narrate("anna", "The gate swings open")) == [
        ev.Narrated(conflict="s1", round=1, player="anna", text="The gate swings open")
    ]


def test_narration_is_optional_and_lasts_until_the_next_round_is_decided(new: Tables) -> None:
    table = bc1(new)
    # Round 2 goes on without Ben's words; he may still narrate round 1 meanwhile.
    table.given(bid("Ben", "Sneak"), challenge("Anna", "Persuade"))
    assert due(table) == {"round": 1, "winner": "ben"}
    table.given(roll([1], [6]))  # Anna wins round 2: round 1 is no longer narrated
    assert due(table) == {"round": 2, "winner": "anna"}
    refused = table.refuse(narrate("Ben"), "not-winner")
    assert refused.message == (
        "only a round's winner narrates it: round 2 of scene s1 was won by anna, not ben"
    )
    assert only_narration(table.when(narrate("Anna", "Ben trips"))).round == 2


def only_narration(events: list[Event]) -> ev.Narrated:
    [found] = [e for e in events if isinstance(e, ev.Narrated)]
    return found


def test_the_last_round_of_an_ended_scene_is_narrated_until_another_scene_starts(
    new: Tables,
) -> None:
    """Dan's bid strikes his own last card: once it wins, nobody in s1 has a Deck and the
    scene ends with the resolution; Dan narrates after the end, and `show` and the account
    carry it. Once another scene starts, s1's rounds are closed."""
    dan = c.RegisterDeck(player="dan", character="Dan", flow=1, cards=cards("Luck:1d6"))
    table = new(RECORDED).given(
        DECKS, dan, c.OpenScene(seating=["Dan", "Cara"], requested_by="Dan", conflict="s1")
    )
    table.given(bid("Dan", "Luck", spec=power("strike", target="Dan", cards=["Luck"])))
    table.given(pass_("Cara"))
    assert table.state.scenes["s1"].status == "ended"
    table.given(narrate("Dan", "Dan throws his luck away", scene="s1"))
    table.given(c.OpenScene(seating=["Anna", "Ben"], requested_by="Anna"))
    shown = show(table.store, CAMPAIGN, "s1", None, ruleset=NAME)  # rebuilt from the log
    assert "  dan narrates: Dan throws his luck away" in shown.lines
    assert shown.lines[-1] == "ended: no seated player has a card in Deck"
    notes = [
        (s.title, n.kind, n.text)
        for chapter in account_of(table.log()).conflicts
        for s in chapter.sections
        for n in s.notes
    ]
    assert ("Round 1", "narration", "dan narrates: Dan throws his luck away") in notes


def test_the_account_and_the_posts_carry_the_narration_in_its_round(new: Tables) -> None:
    table = bc1(new).given(bid("Ben", "Sneak"), narrate("Ben", "Anna's wits are in the mud"))
    account = account_of(table.log())
    assert account.discrepancies == []
    [chapter] = account.conflicts
    round_1 = [s for s in chapter.sections if s.title == "Round 1"]
    kinds = [n.kind for n in round_1[-1].notes]
    assert kinds[-3:] == ["outcome", "card", "narration"]  # after QuickWits went to Discard
    for fmt in ("markdown", "bbcode", "discord"):
        written = post(table.store, CAMPAIGN, fmt, conflict="s1")
        # (each format escapes punctuation its own way: the words are checked)
        assert "ben narrates" in written, fmt
        assert "wits are in the mud" in written, fmt


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"player": "anna"}, "player"), ({"round": 2}, "round")],
)
def test_the_audit_names_a_narration_the_rules_do_not_allow(
    new: Tables, changes: dict[str, object], field: str
) -> None:
    table = bc1(new).given(narrate("Ben"))
    log = table.log()
    at = next(i for i, e in enumerate(log) if e.type == "bc.narrated")
    forged = msgspec.structs.replace(log[at].event(), **changes)
    log[at] = msgspec.structs.replace(log[at], payload=encode(forged))
    assert [(d.seq, d.field) for d in account_of(log).discrepancies] == [(log[at].seq, field)]


def test_the_winners_player_narrates_and_the_gm_only_for_its_own(new: Tables) -> None:
    table = bc1(new)
    state = table.state
    RULESET.authorize(state, narrate("Ben"), "ben", "player")
    for player, role in (("anna", "player"), ("gm", "gm")):
        with pytest.raises(Forbidden) as refused:
            RULESET.authorize(state, narrate("Ben"), player, role)
        assert refused.value.code == "not-yours", str(refused.value)


def test_the_page_offers_the_narration_to_the_winner_only(new: Tables) -> None:
    table = bc1(new)

    def forms(player: str, role: str = "player") -> list[str]:
        caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
        return [f.title for f in page_of(table.store, "t", caller).forms]

    assert "Ben narrates round 1 (won)" in forms("ben")
    for player, role in (("anna", "player"), ("cara", "player"), ("gm", "gm")):
        assert not [t for t in forms(player, role) if "narrates" in t], player
    table.given(narrate("Ben"))
    assert not [t for t in forms("ben") if "narrates" in t]
    caller = Caller(campaign="t", player="ben", role="player", digest="digest-ben")
    scene = next(p for p in page_of(table.store, "t", caller).panels if p.key == "conflict-s1")
    assert "  ben narrates: It goes as I say" in scene.lines
