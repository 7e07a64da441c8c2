"""A managed-deck campaign never gets stuck (rules/improv.md §2; issue 14, items 3 and 6):
an empty hand plays blind from the top of its deck, unseen by anyone until the reveal, and
the GM may abandon a conflict (nobody wins; cards discarded; tokens cleaned up; hands
refilled), after which the session can end. Transcripts on real SQLite logs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.projections.registry import redact, views_for
from tablelog.rules.common import Command
from tablelog.rulesets.improv.events import CardPlayed, CardsDrawn, ConflictClosed, TokenMove
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.cards import full_deck
from tablelog.rulesets.improv.rules.state import ImprovState
from tablelog.rulesets.improv.views.views import show_view
from tests.unit.improv.table import KIT, SESSION, Tables, only

# A fresh deck in its fixed order (no shuffle in these tests): the GM holds 2♣ 3♣ 4♣ 5♣ (3 +
# 1 player) and draws 6♣, 7♣ ... blind; Bob holds 2♣ 3♣ 4♣ 5♣ and the players' deck goes on
# with 6♣, 7♣ ...
MANAGED = {"deck_mode": "managed"}


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def opened(*conflicts: str, rounds: int = 4) -> list[Command]:
    commands: list[Command] = []
    for key in conflicts:
        commands += [
            c.OpenConflict(conflict=key, extended=True, rounds=rounds),
            c.SetStake(conflict=key, side="Riso", gm=True, text="Riso gets away"),
            c.SetStake(conflict=key, side="Kit", opposes="Riso", text="Kit captures Riso"),
        ]
    return commands


def round_of(conflict: str, kit: str | None) -> list[Command]:
    """Kit plays `kit` (None: no card named), Riso blind from the GM deck, then the reveal."""
    return [
        c.PlayCard(conflict=conflict, side="Kit", card=kit),
        c.PlayCard(conflict=conflict, side="Riso", from_deck=True),
        c.Reveal(conflict=conflict),
    ]


# Two open 4-round conflicts take two cards each from Bob's hand: he holds none.
EMPTY_HAND: list[Command] = [
    KIT,
    c.StartSession(),
    *opened("a", "b"),
    *round_of("a", "2C"),
    *round_of("b", "3C"),
    *round_of("a", "4C"),
    *round_of("b", "5C"),
]


def census(state: ImprovState, deck: str) -> Counter[str]:
    """Every card of `deck`: in its draw pile and discards, in hands dealt from it, and on the
    table of an open conflict (a card not yet settled, or on a victory pile)."""
    cards = Counter(state.decks[deck].draw + state.decks[deck].discard)
    for owner, hand in state.hands.items():
        if state.deck_of(owner) == deck:
            cards.update(hand)
    for conflict in state.open_conflicts():
        for side in conflict.sides.values():
            home = state.deck_of("gm" if side.gm else side.player or "gm")
            cards.update(p.card for p in side.victory if (p.deck or home) == deck)
        for rnd in conflict.rounds:
            for key, play in rnd.plays.items():
                side = conflict.sides[key]
                home = state.deck_of("gm" if side.gm else side.player or "gm")
                if key not in rnd.settled and (play.deck or home) == deck:
                    cards[play.card] += 1
    return cards


def test_an_empty_hand_plays_blind_from_the_top_of_its_deck(new: Tables) -> None:
    table = new(MANAGED).given(EMPTY_HAND)
    assert table.hand("bob") == []
    error = table.refuse(c.PlayCard(conflict="a", side="Kit", card="9H"), "hand-empty")
    assert str(error) == (
        "hand-empty: bob's hand is empty, so Kit plays blind: the top card of the players "
        "deck, face down, unseen by anyone; name no card (`tablelog improv play a kit`)"
    )

    [played] = table.when(c.PlayCard(conflict="a", side="Kit"))

    assert played == CardPlayed(
        conflict="a", round=3, side="kit", card="6C", from_deck=True, deck="players", unseen=True
    )
    state = table.state
    assert state.decks["players"].draw[0] == "7C"
    for viewer in ("bob", "gm"):  # nobody sees it, its owner neither
        plays = show_view(state, state.conflicts["a"], viewer)["rounds"][2]["plays"]
        assert (plays["kit"]["card"], plays["kit"]["unseen"]) == (None, True)
        assert redact(views_for("improv"), played, viewer, state) == {
            **_payload(played),
            "card": None,
            "salt": None,
        }
    assert show_view(state, state.conflicts["a"])["rounds"][2]["plays"]["kit"]["card"] == "6C"
    table.given(c.PlayCard(conflict="a", side="Riso", from_deck=True), c.Reveal(conflict="a"))
    assert table.show("a")["rounds"][2]["plays"]["kit"]["card"] == "6C"
    assert census(table.state, "players") == Counter(full_deck())
    assert table.audit().discrepancies == []


def _payload(event: CardPlayed) -> dict[str, object]:
    return {
        "type": "improv.card_played",
        "conflict": event.conflict,
        "round": event.round,
        "side": event.side,
        "card": event.card,
        "from_deck": event.from_deck,
        "deck": event.deck,
        "unseen": event.unseen,
        "salt": event.salt,
    }


def test_the_gm_with_an_empty_hand_plays_blind_too(new: Tables) -> None:
    rounds = [("2C", "3C"), ("3C", "4C"), ("4C", "5C"), ("5C", "2C")]  # Kit's, Riso's: no tie
    table = new(MANAGED).given(
        KIT,
        c.StartSession(),
        *opened("a", "b"),
        *(
            command
            for kit, riso in rounds
            for command in (
                c.PlayCard(conflict="a", side="Kit", card=kit),
                c.PlayCard(conflict="a", side="Riso", card=riso),
                c.Reveal(conflict="a"),
            )
        ),
    )
    assert table.hand("gm") == []

    [played] = table.when(c.PlayCard(conflict="b", side="Riso"))

    assert (played.card, played.deck, played.from_deck, played.unseen) == ("6C", "gm", True, True)


def test_a_player_holding_cards_may_not_play_blind(new: Tables) -> None:
    table = new(MANAGED).given(KIT, c.StartSession(), *opened("a"))

    error = table.refuse(c.PlayCard(conflict="a", side="Kit", from_deck=True), "player-blind")

    assert "bob holds 4 card(s) and plays from hand" in error.message
    assert "only when its hand is empty" in error.message
    error = table.refuse(c.PlayCard(conflict="a", side="Kit"), "card-required")
    assert "name the card to play from bob's hand (4 card(s): 2C, 3C, 4C, 5C)" in error.message


def test_the_gm_abandons_a_conflict_and_the_session_can_end(new: Tables) -> None:
    table = new(MANAGED).given(
        EMPTY_HAND,
        c.PlayCard(conflict="b", side="Kit"),  # blind: 6♣
        c.PlayCard(conflict="b", side="Riso", from_deck=True),  # the GM deck's 10♣
        c.PlaceBonus(conflict="b", on="Riso", tokens=1),
    )
    table.refuse(c.Close(conflict="b"), "close-timing")
    table.refuse(c.EndSession(), "conflict-open")
    piles = table.piles("b")
    assert piles == {"riso": ["7C", "9C"], "kit": []}
    before = table.tokens()

    events = table.when(c.Abandon(conflict="b", reason="the goons never show up"))

    closed = only(events, ConflictClosed)
    assert closed == ConflictClosed(
        conflict="b",
        beats=[],
        abandoned=True,
        reason="the goons never show up",
        cards={"kit": "6C", "riso": "10C"},
        discarded={"riso": ["7C", "9C", "10C"], "kit": ["6C"]},
        token_moves=[
            TokenMove(
                source="table", to="pool", count=1, reason="GM token(s) on riso go to the pool"
            )
        ],
    )
    refill = only(events, CardsDrawn)
    assert (refill.owner, refill.cards) == ("bob", ["7C", "8C", "9C", "10C"])
    after = table.tokens()
    assert (after["table"], after["pool"]) == (0, before["pool"] + 1)
    view = table.view()["conflicts"]["b"]
    assert (view["status"], view["abandoned"], view["beats"]) == (
        "closed",
        "the goons never show up",
        [],
    )
    assert {side["victory"] == [] for side in view["sides"].values()} == {True}
    shown = table.show("b")
    assert (shown["abandoned"], shown["rounds"][2]["plays"]["kit"]["card"]) == (
        "the goons never show up",
        "6C",
    )
    for deck in ("gm", "players"):
        assert census(table.state, deck) == Counter(full_deck())
    table.refuse(c.PlayCard(conflict="b", side="Riso", from_deck=True), "conflict-closed")
    table.given(*round_of("a", "7C"), *round_of("a", "8C"), c.Close(conflict="a"))
    table.given(c.EndSession())
    assert table.audit().discrepancies == []
    assert table.notes("abandoned") == [
        "abandoned by the GM: the goons never show up; nobody wins, and played and victory "
        "cards are discarded"
    ]


def test_abandoned_tokens_go_where_a_rounds_clean_up_sends_them(new: Tables) -> None:
    # Recorded decks. Round 1: Kit's 9♥ + token beats Riso's 8♦: red on red, to the bank.
    # Round 2, face down: Kit's K♥ + token against Riso's Q♠ + a GM token, then abandoned.
    table = new().given(
        SESSION,
        c.Award(giver="Susan", receiver="Bob"),
        c.Award(giver="Richard", receiver="Bob"),
        *opened("f", rounds=3),
        c.PlayCard(conflict="f", side="Kit", card="9H"),
        c.PlayCard(conflict="f", side="Riso", card="8D"),
        c.PlaceBonus(conflict="f", on="Kit", tokens=1),
        c.Reveal(conflict="f"),
        c.PlayCard(conflict="f", side="Kit", card="KH"),
        c.PlaceBonus(conflict="f", on="Kit", tokens=1),  # before Riso's card: allowed
        c.PlayCard(conflict="f", side="Riso", card="QS"),
        c.PlaceBonus(conflict="f", on="Riso", tokens=1),
    )
    gm_before = table.tokens()["gm"]

    closed = only(table.when(c.Abandon(conflict="f", reason="the bar burns")), ConflictClosed)

    assert [(m.source, m.to, m.count) for m in closed.token_moves] == [
        ("table", "out_of_play", 1),  # Kit's K♥ against Riso's Q♠: red and black
        ("table", "pool", 1),  # the GM's token
        ("bank", "gm", 1),  # round 1's banked token, as at any close
    ]
    assert closed.cards == {"kit": "KH", "riso": "QS"}
    assert closed.discarded == {"kit": ["9H", "KH"], "riso": ["QS"]}
    tokens = table.tokens()
    assert (tokens["gm"], tokens["bank"], tokens["table"]) == (gm_before + 1, 0, 0)
    table.given(c.EndSession())
    assert table.audit().discrepancies == []


def test_a_conflict_abandoned_before_any_card(new: Tables) -> None:
    table = new(MANAGED).given(KIT, c.StartSession(), *opened("a"))

    events = table.when(c.Abandon(conflict="a", reason="wrong stakes"))

    assert events == [ConflictClosed(conflict="a", beats=[], abandoned=True, reason="wrong stakes")]


@pytest.mark.parametrize(
    ("given", "command", "code", "words"),
    [
        pytest.param(
            [*SESSION, *opened("f", rounds=1), *round_of("f", "9H")[:1]],
            c.Abandon(conflict="f", reason="   "),
            "empty-text",
            "the reason for abandoning must not be empty",
            id="no-reason",
        ),
        pytest.param(
            [
                *SESSION,
                *opened("f", rounds=1),
                c.PlayCard(conflict="f", side="Kit", card="9H"),
                c.PlayCard(conflict="f", side="Riso", card="2C"),
                c.Reveal(conflict="f"),
            ],
            c.Abandon(conflict="f", reason="too late"),
            "abandon-finished",
            "conflict f has played all its rounds and can be closed",
            id="finished",
        ),
        pytest.param(
            [*SESSION, *opened("f", rounds=1), c.Abandon(conflict="f", reason="gone")],
            c.Abandon(conflict="f", reason="again"),
            "conflict-closed",
            "conflict f is closed",
            id="closed",
        ),
    ],
)
def test_abandon_refusals(
    new: Tables, given: list[Command], command: Command, code: str, words: str
) -> None:
    table = new().given(given)

    assert words in table.refuse(command, code).message


def test_the_gms_blind_play_from_a_managed_deck_is_nobodys_until_the_reveal(
    new: Tables,
) -> None:
    """The GM's `--from-deck` card is "randomly from the top of the deck" (seed): with a
    managed deck the GM does not see it either, so tokens go on it unknown, as the players'
    do; the event keeps what it recorded (an old log audits as it was written)."""
    table = new(MANAGED).given(KIT, c.StartSession(), *opened("a"))
    assert table.hand("gm")  # the GM holds cards, and plays blind by choice
    [played] = table.when(c.PlayCard(conflict="a", side="Riso", from_deck=True))
    state = table.state
    for viewer in ("gm", "bob"):
        plays = show_view(state, state.conflicts["a"], viewer)["rounds"][0]["plays"]
        assert plays["riso"]["card"] is None
        assert redact(views_for("improv"), played, viewer, state) is not None
    table.given(c.PlayCard(conflict="a", side="Kit", card="2C"), c.Reveal(conflict="a"))
    assert table.show("a")["rounds"][0]["plays"]["riso"]["card"] == played.card
    assert table.audit().discrepancies == []
