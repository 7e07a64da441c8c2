"""The test vectors BC-1 .. BC-4 of rules/bid-and-challenge.md, each played as a transcript
through the command layer (`execute` on a real SQLite file), checking the numbers and the card
moves the stored events carry.

Seating clockwise: Anna (Flow 3), Ben (Flow 2), Cara (Flow 2, an empty deck); Anna's left is
Ben. Dice are recorded (`dice=recorded`) unless a test says otherwise: a Roll gives each side's
faces card by card in the order committed.
"""

from __future__ import annotations

import pytest

from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tests.unit.bid_and_challenge.table import (
    RECORDED,
    Faces,
    Table,
    Tables,
    all_of,
    bid,
    challenge,
    only,
    pass_,
    power,
    push,
    roll,
    seated,
)

GATE = power("detail", detail="gate-open", text="The gate stands open")
STRIKE_SWORD = power("strike", target="Anna", cards=["Sword"])


def bc1(table: Table, faces: bool = True) -> list[ev.Event]:
    """BC-1: the challenge and push, then the vector's roll (or a managed one)."""
    bc1_to_the_roll(table)
    return table.when(roll([4, 2, 1], [5, 6]) if faces else roll())


def bc1_to_the_roll(table: Table) -> None:
    """Anna bids Brawn + Sword, Cara passes, Ben challenges with Dodge and Storm, Anna pushes
    QuickWits."""
    table.given(
        seated(),
        bid("Anna", "Brawn", "Sword", spec=GATE, text="I force the gate"),
    )
    assert table.state.scenes["s1"].current.offers == ["cara", "ben"]  # counter-clockwise
    table.given(
        pass_("Cara"), challenge("Ben", "Dodge", universe=["Storm"]), push("Anna", "QuickWits")
    )


def test_bc1_challenge_and_push_the_challenger_wins(new: Tables) -> None:
    table = new(RECORDED)
    events = bc1(table)
    active, challenger = all_of(events, ev.DiceRolled)
    assert (active.character, [r.faces for r in active.rolls], active.total) == (
        "anna",
        [[4], [2], [1]],
        10,
    )
    assert [r.mod for r in active.rolls] == [2, 1, 0]
    assert (challenger.character, challenger.total) == ("ben", 12)
    assert [(r.owner, r.card_id) for r in challenger.rolls] == [
        ("ben", "dodge"),
        ("universe", "storm"),
    ]
    resolved = only(events, ev.RoundResolved)
    assert (resolved.winner, resolved.loser) == ("ben", "anna")
    assert (resolved.active_total, resolved.challenger_total) == (10, 12)
    assert resolved.power_applied is False
    assert not all_of(events, ev.DetailDefined)  # no detail is defined
    moves = {(m.owner, m.card_id): (m.to, m.reason) for m in all_of(events, ev.CardMoved)}
    assert moves == {
        ("anna", "brawn"): ("deck", "return"),
        ("anna", "sword"): ("deck", "return"),
        ("anna", "quickwits"): ("discard", "push_lost"),
        ("ben", "dodge"): ("deck", "return"),
        ("universe", "storm"): ("deck", "return"),
    }
    assert table.zone("anna", "deck") == ["body", "brawn", "persuade", "sword"]  # 5 to 4
    assert table.zone("anna", "discard") == ["quickwits"]
    assert table.zone("universe", "deck") == ["crowd", "storm"]
    assert only(events, ev.RoundStarted).active == "ben"  # Anna's left
    assert table.state.details == {}


def test_bc1_with_managed_dice_stores_every_face_rolled(new: Tables) -> None:
    table = new(shuffle=Faces(4, 2, 1, 5, 6))
    events = bc1(table, faces=False)
    assert [r.total for r in all_of(events, ev.DiceRolled)] == [10, 12]
    assert only(events, ev.RoundResolved).winner == "ben"
    # Replaying the log never rolls again: the folded state is the same from the stored faces.
    assert table.state.scenes["s1"].rounds[0].rolls["active"].total == 10


def test_bc1_the_active_player_winning_keeps_its_pushed_cards_and_defines_the_detail(
    new: Tables,
) -> None:
    table = new(RECORDED)
    bc1_to_the_roll(table)
    events = table.when(roll([6, 6, 6], [1, 1]))
    resolved = only(events, ev.RoundResolved)
    assert (resolved.winner, resolved.active_total, resolved.challenger_total) == ("anna", 21, 3)
    assert only(events, ev.DetailDefined).detail_id == "gate-open"
    assert table.zone("anna", "discard") == []
    assert table.state.details["gate-open"].by == "anna"


def test_bc2_a_tie_goes_to_the_active_player(new: Tables) -> None:
    table = new(RECORDED)
    bc1(table)
    table.given(bid("Ben", "Sneak", spec=STRIKE_SWORD))
    assert table.state.scenes["s1"].current.offers[0] == "anna"  # asked first
    table.given(challenge("Anna", "Persuade"))
    events = table.when(roll([6], [5]))
    resolved = only(events, ev.RoundResolved)
    assert (resolved.winner, resolved.loser, resolved.active_total, resolved.challenger_total) == (
        "ben",
        "anna",
        6,
        6,
    )
    assert "ties go to the active player" in resolved.rule
    struck = [m for m in all_of(events, ev.CardMoved) if m.reason == "bid_power"]
    assert [(m.owner, m.card_id, m.from_, m.to) for m in struck] == [
        ("anna", "sword", "deck", "discard")
    ]
    assert table.zone("anna", "deck") == ["body", "brawn", "persuade"]  # 3
    assert table.zone("ben", "deck") == ["dodge", "mind", "sneak"]  # Sneak returned


# BC-3 after BC-1 and BC-2, by option empty_deck: Cara's Deck is empty. passed-over (the
# default, the seed's "you cannot be an active player"): the turn passes over her and the two
# seats with a Deck passing end the scene; active-may-pass (campaigns created before issue 26):
# she is active, may only pass, and her pass counts.
BC3 = [
    ("passed-over", "anna", ["Anna", "Ben"], "every player with a Deck passed in a row"),
    ("active-may-pass", "cara", ["Cara", "Anna", "Ben"], "every player passed in a row"),
]


@pytest.mark.parametrize(
    ("empty_deck", "active", "passers", "reason"), BC3, ids=[r[0] for r in BC3]
)
def test_bc3_every_player_passing_in_a_row_ends_the_scene(
    new: Tables, empty_deck: str, active: str, passers: list[str], reason: str
) -> None:
    table = new({**RECORDED, "empty_deck": empty_deck})
    bc1(table)
    table.given(
        bid("Ben", "Sneak", spec=STRIKE_SWORD), challenge("Anna", "Persuade"), roll([6], [5])
    )
    assert table.state.scenes["s1"].current.active == active
    *first, last = passers
    for n, who in enumerate(first, start=1):
        assert only(table.when(pass_(who)), ev.Passed).passes == n
    events = table.when(pass_(last))
    assert only(events, ev.Passed).passes == len(passers)
    assert only(events, ev.SceneEnded).reason == reason
    assert table.state.scenes["s1"].status == "ended"
    table.refuse(c.Pass(conflict="s1", player="Cara"), "scene-ended")


def test_bc3_a_pass_then_a_bid_resets_the_count(new: Tables) -> None:
    table = new(RECORDED)
    table.given(seated(), pass_("Anna"))
    assert table.state.scenes["s1"].passes == 1
    table.given(pass_("Ben"))  # both seats with a Deck in a row: the scene ends
    assert table.state.scenes["s1"].status == "ended"

    table = new(RECORDED)
    table.given(seated(), pass_("Anna"))
    table.given(bid("Ben", "Sneak"), pass_("Anna"), pass_("Cara"))  # unchallenged: succeeds
    assert table.state.scenes["s1"].passes == 0
    assert table.state.scenes["s1"].current.active == "anna"  # Cara passed over
    table.given(pass_("Anna"))
    assert table.state.scenes["s1"].status == "open"  # 1 in a row since the bid
    assert only(table.when(pass_("Ben")), ev.SceneEnded)


def test_an_unchallenged_bid_succeeds_with_no_roll(new: Tables) -> None:
    table = new(RECORDED)
    table.given(seated(), bid("Anna", "Brawn", spec=GATE), pass_("Cara"))
    events = table.when(pass_("Ben"))
    resolved = only(events, ev.RoundResolved)
    assert (resolved.winner, resolved.loser, resolved.active_total) == ("anna", None, None)
    assert not all_of(events, ev.DiceRolled)
    assert only(events, ev.DetailDefined).text == "The gate stands open"
    assert table.zone("anna", "play") == []


def test_bc4_refusals(new: Tables) -> None:
    table = new(RECORDED)
    bc1(table)  # QuickWits in Discard; gate-open not defined (Ben won)
    # Ben bids with 3 cards (Flow 2).
    error = table.refuse(bid("Ben", "Dodge", "Sneak", "Mind"), "flow-limit")
    assert error.message == "bid commits 3 cards but ben's Flow is 2"
    table.given(bid("Ben", "Sneak", spec=STRIKE_SWORD))
    # Cara is not asked first; then the 1-card bid is challenged with 2 cards.
    assert table.refuse(challenge("Cara", universe=["Storm"]), "not-your-turn").message == (
        "it is anna's turn to accept or pass the challenge; not cara's"
    )
    table.given(pass_("Anna"))
    error = table.refuse(challenge("Cara", universe=["Storm", "Crowd"]), "challenge-limit")
    assert error.message == "challenger may commit at most 1 card (the bid's count); got 2"
    table.given(challenge("Cara", universe=["Storm"]))  # an empty deck may challenge
    table.given(roll([1], [6]))  # Cara wins: Sword stays
    # Cara's Deck is empty: the turn passes over her to Anna, and she cannot bid.
    assert table.state.scenes["s1"].current.active == "anna"
    error = table.refuse(bid("Cara", "Storm"), "empty-deck")
    assert error.message.startswith("cara's deck is empty: cara cannot be the active player")
    # Anna bids with QuickWits while it sits in Discard.
    error = table.refuse(bid("Anna", "QuickWits"), "card-not-in-deck")
    assert error.message == "card QuickWits is not in anna's Deck (it is in Discard)"
    # gate-open defined, then redefined.
    table.given(bid("Anna", "Brawn", spec=GATE), pass_("Cara"), pass_("Ben"))
    error = table.refuse(bid("Ben", "Sneak", spec=GATE), "detail-defined")
    assert error.message == "detail gate-open was defined by anna; details cannot be redefined"


def test_a_bid_can_restore_cards_and_create_a_universe_card(new: Tables) -> None:
    table = new(RECORDED)
    bc1(table)  # QuickWits in Anna's Discard; Ben is active
    table.given(pass_("Ben"))  # Cara is passed over
    restore = power("restore", target="Anna", cards=["QuickWits"])
    table.given(bid("Anna", "Brawn", spec=restore), pass_("Cara"), pass_("Ben"))
    assert table.zone("anna", "discard") == []
    fog = power("universe_card", card=c.CardSpec(name="Fog", value="1d6+1"))
    table.given(bid("Ben", "Sneak", spec=fog), challenge("Anna", "Body"))
    events = table.when(roll([5], [2]))
    created = only(events, ev.UniverseCardCreated)
    assert (created.card_id, created.dice, created.mod, created.by, created.via_round) == (
        "fog",
        1,
        1,
        "ben",
        4,
    )
    assert table.zone("universe", "deck") == ["crowd", "fog", "storm"]


def test_an_unchallenged_win_and_what_it_defined_is_an_outcome_whatif_compares(
    new: Tables,
) -> None:
    """Held-out play: a what-if where everyone passed instead of Anna's unopposed bid said no
    outcome differed, since only challenged rounds are beats. The scene's `outcome` names
    every decided round and each detail it defined."""
    from tablelog.rulesets.bid_and_challenge.views import VIEWS

    table = new(RECORDED)
    table.given(seated(), bid("Anna", "Brawn", spec=GATE), pass_("Cara"), pass_("Ben"))
    scene = VIEWS.state_view(table.state, None)["conflicts"]["s1"]
    assert scene["beats"] == []
    assert scene["outcome"] == [
        "round 1: anna wins unchallenged; defines gate-open (The gate stands open)"
    ]
