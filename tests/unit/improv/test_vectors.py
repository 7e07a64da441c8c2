"""The worked examples of rules/improv.md §9 as transcripts: given commands, when one more,
then these events and this state. Cards the seed leaves out ("?") are filled with values its
text allows; each test says which.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.events.base import Event
from tablelog.rules.common import Command
from tablelog.rulesets.improv.events import (
    BonusPlaced,
    CardPlayed,
    ConflictClosed,
    FateCardDrawn,
    FateChosen,
    FateResolved,
    RoundRevealed,
    SessionStarted,
    TokenAwarded,
)
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules import demo
from tablelog.rulesets.improv.rules.commands import CreateCharacter
from tablelog.rulesets.improv.rules.conflict import gm_token_cap
from tests.unit.improv.table import CAST, SESSION, Stacked, Table, Tables, moves, only

FIGHT = demo.FIGHT
MARA = c.CreateCharacter(player="Ann", character="Mara", talents=["Climber"])
OWEN = c.CreateCharacter(player="Tom", character="Owen", talents=["Driver"])
KIT_ONLY: list[Command] = [CAST[0]]


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def run(table: Table, commands: list[Command]) -> list[Event]:
    """Every event the commands append, in order."""
    events: list[Event] = []
    for command in commands:
        events.extend(table.when(command))
    return events


def revealed(events: list[Event]) -> RoundRevealed:
    return only(events, RoundRevealed)


def simple(gm_side: str, *stakes: tuple[str, str]) -> list[Command]:
    """Open simple conflict c1 with GM stake `gm_side` and (protagonist, opposes) stakes."""
    return [
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side=gm_side, gm=True, text=f"{gm_side} gets away"),
        *(
            c.SetStake(conflict="c1", side=side, opposes=opposes, text=f"{side} wins")
            for side, opposes in stakes
        ),
    ]


def play(conflict: str, **cards: str) -> list[Command]:
    return [c.PlayCard(conflict=conflict, side=side, card=card) for side, card in cards.items()]


# --- Amanda (simple): Kit 10 vs the GM's Queen from the deck top ---------------------------


def test_amanda_the_gm_queen_from_the_deck_beats_kit_10(new: Tables) -> None:
    table = new().given(
        SESSION,
        simple("Amanda", ("Kit", "Amanda")),
        c.PlayCard(conflict="c1", side="Kit", card="10H"),
        c.PlayCard(conflict="c1", side="Amanda", card="QS", from_deck=True),
    )

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert result.totals == {"kit": 10, "amanda": 12}
    assert result.beats == [["amanda", "kit"]]
    assert result.winners == ["amanda"]
    assert result.ties == []
    assert result.discarded == {"kit": "10H", "amanda": "QS"}  # a simple conflict keeps nothing
    assert result.victory == {}
    assert table.view()["conflicts"]["c1"]["beats"] == [["amanda", "kit"]]
    assert table.show("c1")["rounds"][0]["plays"]["amanda"]["from_deck"] is True


def test_amanda_managed_the_blind_card_is_the_gm_deck_top(new: Tables) -> None:
    # The GM deck: four cards dealt to the GM's hand (3 + 1 player), then the Queen on top.
    # The players' deck: Kit's 10 among the four cards dealt to Bob.
    shuffle = Stacked(["2D", "3D", "4D", "5D", "QH"], ["10S"])
    table = new({"deck_mode": "managed"}, shuffle).given(
        KIT_ONLY,
        c.StartSession(),
        simple("Amanda", ("Kit", "Amanda")),
        c.PlayCard(conflict="c1", side="Kit", card="10S"),
    )
    assert table.hand("gm") == ["2D", "3D", "4D", "5D"]

    blind = only(table.when(c.PlayCard(conflict="c1", side="Amanda", from_deck=True)), CardPlayed)
    result = revealed(table.when(c.Reveal(conflict="c1")))
    closed = table.when(c.Close(conflict="c1"))

    assert (blind.card, blind.from_deck, blind.deck) == ("QH", True, "gm")
    assert result.beats == [["amanda", "kit"]]
    assert only(closed, ConflictClosed).beats == [["amanda", "kit"]]
    assert table.hand("gm") == ["2D", "3D", "4D", "5D"]  # the blind card never was in the hand
    assert len(table.hand("bob")) == 4  # Kit draws back to a full hand


# --- Records theft (simple, bonuses): GM 5 + 1 token = 8; Diana J + talent = 14 ------------

RECORDS: list[Command] = [
    *SESSION,
    *simple("Clerk", ("Diana", "Clerk")),
    *play("c1", Clerk="5H", Diana="JS"),
]


def test_records_theft_diana_j_and_talent_beats_gm_5_and_token(new: Tables) -> None:
    table = new().given(
        RECORDS,
        c.PlaceBonus(conflict="c1", on="Clerk", tokens=1),
        c.PlaceBonus(conflict="c1", on="Diana", talent="Marksman"),
    )
    before = table.tokens()

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert result.totals == {"clerk": 8, "diana": 14}
    assert result.beats == [["diana", "clerk"]]
    assert moves(result) == [("table", "pool", 1)]  # the GM's token goes to the pool
    after = table.tokens()
    assert (before["gm"], before["pool"], before["table"]) == (8, 3, 1)
    assert (after["gm"], after["pool"], after["table"]) == (8, 4, 0)
    talents = table.view()["talents"]["diana"]
    assert (talents["used"], talents["by_talent"]) == (1, {"marksman": 1})


def test_records_theft_the_gm_bluffs_with_a_token_before_diana_plays(new: Tables) -> None:
    # The seed's order: the GM lays a card and a story-token, then Susan plays Diana's card
    # and a talent-marker. A bonus need not wait for every card.
    table = new().given(
        SESSION,
        simple("Clerk", ("Diana", "Clerk")),
        c.PlayCard(conflict="c1", side="Clerk", card="5H"),
    )
    token = only(table.when(c.PlaceBonus(conflict="c1", on="Clerk", tokens=1)), BonusPlaced)
    table.given(c.PlayCard(conflict="c1", side="Diana", card="JS"))
    table.given(c.PlaceBonus(conflict="c1", on="Diana", talent="Marksman"))

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert (token.on, token.by, token.count) == ("clerk", "gm", 1)
    assert result.totals == {"clerk": 8, "diana": 14}
    assert result.beats == [["diana", "clerk"]]
    assert table.audit().discrepancies == []


def test_records_theft_the_gm_limit_is_2(new: Tables) -> None:
    table = new().given(RECORDS)
    state = table.state
    assert gm_token_cap(state, state.conflicts["c1"]) == (2, 9)  # 1 + 1 player; 9 held

    table.given(
        c.PlaceBonus(conflict="c1", on="Clerk", tokens=1),
        c.PlaceBonus(conflict="c1", on="Clerk", by="gm", tokens=1),
    )
    error = table.refuse(c.PlaceBonus(conflict="c1", on="Clerk", tokens=1), "gm-token-limit")

    assert "may spend 2" in error.message
    assert "3 requested" in error.message


# --- Director (multi-way): GM 5, Kit 9, Diana K ---------------------------------------------


def test_director_multi_way_ranking(new: Tables) -> None:
    table = new().given(
        SESSION,
        simple("Director", ("Kit", "Director"), ("Diana", "Director")),
        play("c1", Director="5C", Kit="9D", Diana="KH"),
    )

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert result.ranking == ["diana", "kit", "director"]
    assert result.totals == {"director": 5, "kit": 9, "diana": 13}
    assert sorted(result.beats) == [["diana", "director"], ["kit", "director"]]
    assert sorted(result.winners) == ["diana", "kit"]


def test_multi_way_ranking_breaks_equal_totals_by_suit(new: Tables) -> None:
    table = new().given(
        SESSION,
        simple("Director", ("Kit", "Director"), ("Diana", "Director")),
        play("c1", Director="9C", Kit="9S", Diana="JK"),
        c.PlaceBonus(conflict="c1", on="Director", tokens=2),  # 15, the Joker's value
    )

    result = revealed(table.when(c.Reveal(conflict="c1")))

    # 15 (Joker, no suit: above every suit) > 15 (9♣ + 2 tokens) > 9♠.
    assert result.ranking == ["diana", "director", "kit"]
    assert sorted(result.beats) == [["diana", "director"], ["director", "kit"]]


# --- The bar fight (extended, 3 players, GM stakes Riso and Goons) --------------------------


def test_bar_fight_main_ending(new: Tables) -> None:
    table = new()
    run(table, demo.SETUP)
    tokens = table.tokens()
    # The pool: 3, less the two awards that give Kit and Jason the tokens they spend later.
    assert (tokens["gm"], tokens["pool"], tokens["bank"], tokens["out_of_play"]) == (9, 1, 0, 0)
    assert table.tokens()["players"] == {"bob": 1, "richard": 1, "susan": 0}

    run(table, demo.OPENING)
    state = table.state
    assert gm_token_cap(state, state.conflicts[FIGHT]) == (8, 9)  # GM limit 8

    # R1: Kit's Joker beats Riso; Riso Q beats Jason (8♠); Goons K beat Diana (3♣).
    r1 = revealed(run(table, demo.ROUND_1))
    assert r1.beats == [["kit", "riso"], ["riso", "jason"], ["goons", "diana"]]
    assert r1.winners == ["kit", "riso", "goons"]
    assert (r1.totals["kit"], r1.totals["riso"], r1.totals["goons"]) == (15, 12, 13)
    assert r1.victory == {"kit": "JK", "riso": "QD", "goons": "KS"}

    # R2: Kit A♥ + token 17 beats Riso A♣ + GM token 17 on suit; Riso beats Jason (9♣ +
    # talent); Diana J + talent 14 beats Goons (4♦). Kit's token: red vs black: out of play.
    r2_events = run(table, demo.ROUND_2)
    r2 = revealed(r2_events)
    assert r2.beats == [["kit", "riso"], ["riso", "jason"], ["diana", "goons"]]
    assert (r2.totals["kit"], r2.totals["riso"], r2.totals["diana"]) == (17, 17, 14)
    kit_riso = next(p for p in r2.pairs if {p.first, p.second} == {"kit", "riso"})
    assert kit_riso.winner == "kit"
    assert "suit" in kit_riso.rule
    assert r2.victory == {"kit": "AH", "riso": "AC", "diana": "JH"}
    assert sorted(moves(r2)) == [("table", "out_of_play", 1), ("table", "pool", 1)]
    kit_token = next(m for m in r2.token_moves if m.to == "out_of_play")
    assert kit_token.reason.startswith("kit's A♥ does not match riso's A♣")
    kit_award = only(r2_events, TokenAwarded)  # Kit awards Diana 1 token
    assert (kit_award.giver, kit_award.receiver, kit_award.round) == ("bob", "susan", 2)

    # R3: Jason 10 + token + talent 16 beats Riso 9 + 2 GM tokens 15; Riso 15 beats Kit 10 +
    # talent 13; Diana J + token 14 beats Goons (2♦). Jason's and Diana's tokens: bank.
    r3 = revealed(run(table, demo.ROUND_3))
    assert r3.beats == [["riso", "kit"], ["jason", "riso"], ["diana", "goons"]]
    assert r3.totals == {"kit": 13, "riso": 15, "jason": 16, "goons": 2, "diana": 14}
    assert sorted(moves(r3)) == [
        ("table", "bank", 1),
        ("table", "bank", 1),
        ("table", "pool", 2),
    ]
    banked = sorted(m.reason.split("'")[0] for m in r3.token_moves if m.to == "bank")
    assert banked == ["diana", "jason"]  # J♦ vs 2♦ and 10♠ vs 9♣: colours match
    assert table.tokens()["bank"] == 2

    # Piles before the gifts: Jason 10; Goons K; Diana J J; Kit Joker A; Riso Q A 9.
    assert table.piles(FIGHT) == {
        "riso": ["QD", "AC", "9C"],
        "goons": ["KS"],
        "kit": ["JK", "AH"],
        "jason": ["10S"],
        "diana": ["JH", "JD"],
    }
    assert table.view()["conflicts"][FIGHT]["beats"] == []  # no final victory yet

    # Gifts: Jason 10 -> Kit; Goons K -> Riso; Diana J -> Kit; then close.
    closed = only(run(table, demo.MAIN_ENDING), ConflictClosed)

    # Kit (Joker, A, 10, J) beats Riso (Q, A, 9, K) on the highest card; Riso beats Jason
    # (4 vs 0); Diana (J) beats the Goons (0).
    final = [["kit", "riso"], ["riso", "jason"], ["diana", "goons"]]
    assert closed.beats == final
    assert moves(closed) == [("bank", "gm", 2)]
    view = table.view()
    assert view["conflicts"][FIGHT]["beats"] == final
    assert view["conflicts"][FIGHT]["status"] == "closed"
    assert view["conflicts"][FIGHT]["sides"]["kit"]["victory"] == ["JK", "AH", "10S", "JH"]
    assert view["conflicts"][FIGHT]["sides"]["riso"]["victory"] == ["QD", "AC", "9C", "KS"]
    tokens = view["tokens"]
    assert (tokens["gm"], tokens["out_of_play"], tokens["bank"]) == (8, 1, 0)
    assert (tokens["pool"], tokens["table"]) == (1, 0)
    assert tokens["players"] == {"bob": 1, "richard": 1, "susan": 0}


def test_the_demo_casts_the_seeds_players() -> None:
    # "Agents Diana (played by Susan) and Kit (played by Bob)"; Jason's player is not named.
    cast = {(c.player, c.character) for c in demo.SETUP if isinstance(c, CreateCharacter)}
    assert cast == {("Bob", "Kit"), ("Susan", "Diana"), ("Richard", "Jason")}


def test_bar_fight_demo_list_is_the_main_ending(new: Tables) -> None:
    table = new()
    run(table, demo.BAR_FIGHT)
    view = table.view()
    assert view["conflicts"][FIGHT]["beats"] == [
        ["kit", "riso"],
        ["riso", "jason"],
        ["diana", "goons"],
    ]
    assert (view["tokens"]["gm"], view["tokens"]["out_of_play"], view["tokens"]["bank"]) == (
        8,
        1,
        0,
    )


def test_bar_fight_the_gm_limit_is_8(new: Tables) -> None:
    table = new().given(
        demo.SETUP, demo.OPENING, demo.ROUND_1, play(FIGHT, Kit="AH", Riso="AC", Jason="9C")
    )
    table.given(
        c.PlayCard(conflict=FIGHT, side="Goons", card="4D", from_deck=True),
        c.PlayCard(conflict=FIGHT, side="Diana", card="JH"),
    )

    error = table.refuse(c.PlaceBonus(conflict=FIGHT, on="Riso", tokens=9), "gm-token-limit")
    assert "may spend 8" in error.message
    assert "9 requested" in error.message
    placed = only(table.when(c.PlaceBonus(conflict=FIGHT, on="Riso", tokens=8)), BonusPlaced)
    assert (placed.player, placed.count) == ("gm", 8)


def test_bar_fight_alternate_ending(new: Tables) -> None:
    table = new().given(demo.SETUP, demo.OPENING, demo.ROUND_1, demo.ROUND_2, demo.ROUND_3)
    *before_close, close = demo.ALTERNATE_ENDING
    assert isinstance(close, c.Close)
    # Jason's narration; Diana J -> Jason; Kit Joker -> Jason; Richard (Jason) awards Bob (Kit).
    events = run(table, before_close)
    award = only(events, TokenAwarded)
    assert (award.giver, award.receiver, award.conflict, award.round) == (
        "richard",
        "bob",
        FIGHT,
        3,
    )

    # Jason may award only one token that round: Diana's player gets none.
    error = table.refuse(c.Award(giver="Richard", receiver="Susan", conflict=FIGHT), "award-once")
    assert "round 3" in error.message

    closed = only(table.when(close), ConflictClosed)

    # Jason (10, J, Joker) beats Riso (Q, A, 9); Riso beats Kit (A); Goons (K) beat Diana (J).
    assert closed.beats == [["riso", "kit"], ["jason", "riso"], ["goons", "diana"]]
    assert table.view()["conflicts"][FIGHT]["beats"] == closed.beats
    piles = table.piles(FIGHT)
    assert piles["jason"] == ["10S", "JH", "JK"]
    assert (piles["riso"], piles["kit"], piles["goons"], piles["diana"]) == (
        ["QD", "AC", "9C"],
        ["AH"],
        ["KS"],
        ["JD"],
    )


# --- Formula vectors ------------------------------------------------------------------------


def test_five_players_session_start(new: Tables) -> None:
    table = new({"deck_mode": "managed"}).given(CAST, MARA, OWEN)

    started = only(table.when(c.StartSession()), SessionStarted)

    assert (started.gm_tokens, started.pool) == (15, 5)
    tokens = table.tokens()
    assert (tokens["gm"], tokens["pool"], tokens["bank"]) == (15, 5, 0)
    assert set(tokens["players"].values()) == {0}
    assert len(table.hand("gm")) == 8  # 3 + 1 per player
    for player in ("bob", "susan", "richard", "ann", "tom"):
        assert len(table.hand(player)) == 4


FOUR: list[Command] = [*CAST, MARA]


def _boss_fight(players: list[str], *, extended: bool, rounds: int | None) -> list[Command]:
    """Conflict c1: every listed protagonist opposes the GM stake Boss; round 1 is down."""
    cards = ["2C", "3C", "4C", "5C", "6C"]
    return [
        c.OpenConflict(conflict="c1", extended=extended, rounds=rounds),
        c.SetStake(conflict="c1", side="Boss", gm=True, text="the boss escapes"),
        *(
            c.SetStake(conflict="c1", side=p, opposes="Boss", text=f"{p} stops him")
            for p in players
        ),
        c.PlayCard(conflict="c1", side="Boss", card="KS"),
        *(
            c.PlayCard(conflict="c1", side=p, card=card)
            for p, card in zip(players, cards, strict=False)
        ),
    ]


@pytest.mark.parametrize(
    ("cast", "players", "extended", "rounds", "options", "cap", "why"),
    [
        pytest.param(CAST, ["Kit", "Jason"], False, None, {}, 3, "limit is 3", id="simple-2p-3"),
        pytest.param(
            FOUR,
            ["Kit", "Jason", "Diana", "Mara"],
            True,
            3,
            {},
            10,
            "limit is 10",
            id="extended-4p-3r-10",
        ),
        pytest.param(
            FOUR,
            ["Kit", "Jason", "Diana", "Mara"],
            True,
            5,
            {"gm_tokens_per_player": "4"},  # the GM holds 16, so the limit shows
            14,
            "limit is 14",
            id="extended-4p-5r-14",
        ),
        pytest.param(
            FOUR,
            ["Kit", "Jason", "Diana", "Mara"],
            True,
            3,
            {"gm_tokens_per_player": "1"},  # the GM holds 4 at the open
            4,
            "held 4",
            id="held-4-cap-4",
        ),
    ],
)
def test_gm_token_limits(
    new: Tables,
    cast: list[Command],
    players: list[str],
    extended: bool,
    rounds: int | None,
    options: dict[str, str],
    cap: int,
    why: str,
) -> None:
    table = new(options).given(
        cast, c.StartSession(), _boss_fight(players, extended=extended, rounds=rounds)
    )

    error = table.refuse(c.PlaceBonus(conflict="c1", on="Boss", tokens=cap + 1), "gm-token-limit")
    assert f"may spend {cap}" in error.message
    assert f"{cap + 1} requested" in error.message
    assert why in error.message
    placed = only(table.when(c.PlaceBonus(conflict="c1", on="Boss", tokens=cap)), BonusPlaced)
    assert placed.count == cap


def test_the_extended_gm_limit_counts_the_whole_conflict(new: Tables) -> None:
    # One player, 3 rounds: 2 + 2·1 = 4 tokens over the whole conflict.
    table = new().given(
        SESSION,
        _boss_fight(["Kit"], extended=True, rounds=3),
        c.PlaceBonus(conflict="c1", on="Boss", tokens=3),
        c.Reveal(conflict="c1"),
        play("c1", Boss="QS", Kit="4D"),
        c.PlaceBonus(conflict="c1", on="Boss", tokens=1),
    )

    error = table.refuse(c.PlaceBonus(conflict="c1", on="Boss", tokens=1), "gm-token-limit")
    assert "may spend 4" in error.message
    assert "5 requested" in error.message


# --- Hand of Fate (recorded mode) -----------------------------------------------------------

TIE: list[Command] = [
    *SESSION,
    *simple("Guard", ("Kit", "Guard")),
    *play("c1", Guard="QH", Kit="9H"),
    c.PlaceBonus(conflict="c1", on="Kit", talent="Brawler"),  # 9♥ + 3 = 12 = Q♥
]


def test_simple_exact_tie_waits_for_the_hand_of_fate(new: Tables) -> None:
    table = new().given(TIE)

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert result.totals == {"guard": 12, "kit": 12}
    assert result.ties == [["kit", "guard"]]
    assert result.beats == []
    assert [p.winner for p in result.pairs] == [None]
    assert table.view()["conflicts"]["c1"]["beats"] == []
    table.refuse(c.Close(conflict="c1"), "close-timing")


def test_simple_hand_of_fate_draws_decide(new: Tables) -> None:
    table = new().given(TIE, c.Reveal(conflict="c1"))

    first = table.when(c.Fate(conflict="c1", side="Kit", draw="5C"))
    assert [type(e) for e in first] == [FateCardDrawn]
    table.refuse(c.Fate(conflict="c1", side="Kit", draw="6C"), "fate-drawn")
    second = table.when(c.Fate(conflict="c1", side="Guard", draw="KD"))

    assert only(second, FateCardDrawn).card == "KD"
    resolved = only(second, FateResolved)
    assert (resolved.winner, resolved.loser, resolved.draws) == ("guard", "kit", [["KD", "5C"]])
    assert table.view()["conflicts"]["c1"]["beats"] == [["guard", "kit"]]
    assert table.show("c1")["rounds"][0]["fate"] == [["guard", "kit"]]
    table.given(c.Close(conflict="c1"))


def test_simple_hand_of_fate_draws_again_on_another_exact_tie(new: Tables) -> None:
    table = new().given(
        TIE,
        c.Reveal(conflict="c1"),
        c.Fate(conflict="c1", side="Kit", draw="7C"),
    )

    assert [type(e) for e in table.when(c.Fate(conflict="c1", side="Guard", draw="7C"))] == [
        FateCardDrawn
    ]
    table.given(c.Fate(conflict="c1", side="Kit", draw="AS"))
    resolved = only(table.when(c.Fate(conflict="c1", side="Guard", draw="3S")), FateResolved)

    assert (resolved.winner, resolved.loser) == ("kit", "guard")
    assert resolved.draws == [["7C", "7C"], ["AS", "3S"]]
    assert table.view()["conflicts"]["c1"]["beats"] == [["kit", "guard"]]


def test_the_fate_choice_exists_only_in_extended_conflicts(new: Tables) -> None:
    table = new().given(
        TIE,
        c.Reveal(conflict="c1"),
        c.Fate(conflict="c1", side="Kit", draw="5C"),
        c.Fate(conflict="c1", side="Guard", draw="KD"),
    )
    table.refuse(c.Fate(conflict="c1", side="Kit", choice="stay"), "fate-simple")


RISO_FIGHT: list[Command] = [
    *SESSION,
    c.OpenConflict(conflict="f", extended=True, rounds=3),
    c.SetStake(conflict="f", side="Riso", gm=True, text="Riso gets away"),
    c.SetStake(conflict="f", side="Kit", opposes="Riso", text="Kit captures Riso"),
]


def tied_round(kit: str, riso: str, kit_draw: str, riso_draw: str) -> list[Command]:
    """A round where Kit's card + Brawler ties Riso's exactly; the draws decide."""
    return [
        *play("f", Kit=kit, Riso=riso),
        c.PlaceBonus(conflict="f", on="Kit", talent="Brawler"),
        c.Reveal(conflict="f"),
        c.Fate(conflict="f", side="Kit", draw=kit_draw),
        c.Fate(conflict="f", side="Riso", draw=riso_draw),
    ]


def test_extended_fate_loser_stays_in_and_loses_only_the_round(new: Tables) -> None:
    table = new().given(RISO_FIGHT, tied_round("9H", "QH", kit_draw="2C", riso_draw="3C"))
    state = table.state.conflicts["f"]
    assert state.rounds[0].fate.choices_due == ["kit"]
    table.refuse(c.PlayCard(conflict="f", side="Kit", card="5S"), "fate-pending")

    chosen = only(table.when(c.Fate(conflict="f", side="Kit", choice="stay")), FateChosen)

    assert (chosen.choice, chosen.outcome) == ("stay", "stayed")
    assert table.piles("f") == {"riso": ["QH"], "kit": []}
    assert table.view()["conflicts"]["f"]["sides"]["kit"]["status"] == "in"
    table.given(c.PlayCard(conflict="f", side="Kit", card="5S"))  # round 2 goes on


def test_extended_second_fate_loss_destroys_without_a_choice(new: Tables) -> None:
    table = new().given(
        RISO_FIGHT,
        tied_round("9H", "QH", kit_draw="2C", riso_draw="3C"),
        c.Fate(conflict="f", side="Kit", choice="stay"),
        *tied_round("8D", "JD", kit_draw="4C", riso_draw="9C")[:-1],
    )

    events = table.when(c.Fate(conflict="f", side="Riso", draw="9C"))

    assert [type(e) for e in events] == [FateCardDrawn, FateResolved, FateChosen]
    chosen = only(events, FateChosen)
    assert (chosen.side, chosen.outcome) == ("kit", "destroyed")
    assert table.view()["conflicts"]["f"]["sides"]["kit"]["status"] == "destroyed"
    assert table.state.conflicts["f"].rounds[1].fate.choices_due == []
    for choice in ("stay", "eliminate"):
        error = table.refuse(c.Fate(conflict="f", side="Kit", choice=choice), "no-fate")
        assert "destroyed by a second Hand-of-Fate loss; there is no choice" in error.message
    table.refuse(c.PlayCard(conflict="f", side="Kit", card="5S"), "side-out")
    table.given(c.PlayCard(conflict="f", side="Riso", card="5S"))  # round 3 goes on
    assert table.audit().discrepancies == []


def test_extended_fate_loser_eliminated_leaves_with_its_cards(new: Tables) -> None:
    table = new().given(
        RISO_FIGHT,
        play("f", Kit="KS", Riso="2C"),
        c.Reveal(conflict="f"),  # Kit wins round 1: K♠ on its pile
        tied_round("9H", "QH", kit_draw="2D", riso_draw="3D"),
    )
    assert table.piles("f") == {"riso": ["QH"], "kit": ["KS"]}

    chosen = only(table.when(c.Fate(conflict="f", side="Kit", choice="eliminate")), FateChosen)

    assert chosen.outcome == "eliminated"
    sides = table.view()["conflicts"]["f"]["sides"]
    assert (sides["kit"]["status"], sides["kit"]["victory"]) == ("eliminated", [])
    table.refuse(c.PlayCard(conflict="f", side="Kit", card="5S"), "side-out")
    table.given(c.PlayCard(conflict="f", side="Riso", card="4S"), c.Reveal(conflict="f"))
    closed = only(table.when(c.Close(conflict="f")), ConflictClosed)
    assert closed.beats == [["riso", "kit"]]  # an eliminated side loses its stakes


@pytest.mark.parametrize(
    ("options", "ties", "beats"),
    [
        ({}, [], [["kit", "guard"]]),  # A♥ beats A♣ on suit
        ({"lethal_fate": "true"}, [["kit", "guard"]], []),  # any equal total: Hand of Fate
    ],
)
def test_lethal_fate_makes_any_equal_total_a_hand_of_fate(
    new: Tables, options: dict[str, str], ties: list[list[str]], beats: list[list[str]]
) -> None:
    table = new(options).given(
        SESSION, simple("Guard", ("Kit", "Guard")), play("c1", Guard="AC", Kit="AH")
    )

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert (result.ties, result.beats) == (ties, beats)


# --- Awards and talents ---------------------------------------------------------------------


def test_awards_come_from_the_pool(new: Tables) -> None:
    table = new().given(SESSION, c.StartScene())

    award = only(table.when(c.Award(giver="Richard", receiver="Bob")), TokenAwarded)

    assert (award.giver, award.receiver, award.source) == ("richard", "bob", "pool")
    tokens = table.tokens()
    assert (tokens["pool"], tokens["players"]["bob"], tokens["players"]["richard"]) == (2, 1, 0)


def test_awards_come_from_the_giver_with_award_source_giver(new: Tables) -> None:
    table = new({"award_source": "giver"}).given(SESSION, c.StartScene())
    error = table.refuse(c.Award(giver="Richard", receiver="Bob"), "award-empty")
    assert "0 available" in error.message
    table.given(c.Bribe(giver="gm", receiver="Richard"))  # the GM passes Richard a token

    award = only(table.when(c.Award(giver="Richard", receiver="Bob")), TokenAwarded)

    assert award.source == "richard"
    tokens = table.tokens()
    assert (tokens["pool"], tokens["players"]["bob"], tokens["players"]["richard"]) == (3, 1, 0)


def test_a_talent_on_another_sides_card_with_assist(new: Tables) -> None:
    table = new().given(
        SESSION,
        simple("Guard", ("Kit", "Guard"), ("Diana", "Guard")),
        play("c1", Guard="KC", Kit="JC", Diana="2H"),
    )

    placed = only(
        table.when(
            c.PlaceBonus(
                conflict="c1", on="Kit", by="Diana", talent="Marksman", assist="covers Kit"
            )
        ),
        BonusPlaced,
    )
    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert (placed.by, placed.player, placed.assist) == ("diana", "susan", "covers Kit")
    assert result.totals["kit"] == 14
    assert ["kit", "guard"] in result.beats
    assert table.view()["talents"]["diana"]["used"] == 1


def test_one_talent_per_round_in_an_extended_conflict(new: Tables) -> None:
    table = new().given(
        RISO_FIGHT,
        play("f", Kit="2S", Riso="AS"),
        c.PlaceBonus(conflict="f", on="Kit", talent="Brawler"),
        c.Reveal(conflict="f"),
        play("f", Kit="3S", Riso="AD"),
    )

    placed = only(table.when(c.PlaceBonus(conflict="f", on="Kit", talent="Brawler")), BonusPlaced)

    assert (placed.round, placed.talent) == (2, "brawler")
    assert table.view()["talents"]["kit"]["used"] == 2


def test_an_award_before_the_next_rounds_first_card_counts_toward_the_revealed_round(
    new: Tables,
) -> None:
    # A pool of 9 (3 per player), so the second award meets the once-per-round rule, not an
    # empty pool.
    table = new({"pool_per_player": "3"}).given(demo.SETUP, demo.OPENING, demo.ROUND_1)

    award = only(table.when(c.Award(giver="Bob", receiver="Richard", conflict=FIGHT)), TokenAwarded)

    assert (award.conflict, award.round) == (FIGHT, 1)
    error = table.refuse(c.Award(giver="Bob", receiver="Susan", conflict=FIGHT), "award-once")
    assert "round 1" in error.message


# --- Token clean-up (§3) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kit", "guard", "to"),
    [
        ("AH", "AC", "out_of_play"),  # red vs black
        ("AH", "2D", "bank"),  # red vs red
        ("10S", "9C", "bank"),  # black vs black
        ("JK", "2C", "bank"),  # a Joker matches either colour
        ("2C", "JK", "bank"),
    ],
)
def test_a_players_token_goes_to_the_bank_when_the_colours_match(
    new: Tables, kit: str, guard: str, to: str
) -> None:
    table = new().given(
        SESSION,
        c.Award(giver="Richard", receiver="Bob"),
        simple("Guard", ("Kit", "Guard")),
        play("c1", Guard=guard, Kit=kit),
        c.PlaceBonus(conflict="c1", on="Kit", tokens=1),
    )

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert moves(result) == [("table", to, 1)]
    assert table.tokens()[to] == 1


def test_a_token_from_a_player_without_a_card_goes_out_of_play(new: Tables) -> None:
    # Jason is absent; Richard puts a token on Kit's card anyway. Colours would match.
    table = new().given(
        SESSION,
        c.Award(giver="Susan", receiver="Richard"),
        simple("Guard", ("Kit", "Guard")),
        play("c1", Guard="2H", Kit="3H"),
    )
    placed = only(
        table.when(c.PlaceBonus(conflict="c1", on="Kit", by="Jason", tokens=1)), BonusPlaced
    )
    assert (placed.by, placed.player, placed.on) == ("jason", "richard", "kit")

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert result.totals["kit"] == 6
    assert moves(result) == [("table", "out_of_play", 1)]


def test_a_token_against_another_protagonist_goes_out_of_play(new: Tables) -> None:
    table = new().given(
        SESSION,
        c.Award(giver="Richard", receiver="Bob"),
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Kit", text="Kit takes the car"),
        c.SetStake(conflict="c1", side="Diana", opposes="Kit", text="Diana takes the car"),
        play("c1", Kit="AH", Diana="2H"),
        c.PlaceBonus(conflict="c1", on="Kit", tokens=1),
    )

    result = revealed(table.when(c.Reveal(conflict="c1")))

    assert result.beats == [["kit", "diana"]]
    assert moves(result) == [("table", "out_of_play", 1)]


# --- Behaviour once found wrong, now pinned ------------------------------------------------


def test_a_gm_stake_whose_only_opponent_was_eliminated_beats_nobody(new: Tables) -> None:
    table = new().given(
        RISO_FIGHT,
        tied_round("9H", "QH", kit_draw="2C", riso_draw="3C"),
        c.Fate(conflict="f", side="Kit", choice="eliminate"),  # Kit leaves the conflict
        c.PlayCard(conflict="f", side="Riso", card="5H"),
    )

    result = revealed(table.when(c.Reveal(conflict="f")))

    assert "riso" in result.unopposed
    assert result.winners == []  # it was once listed a winner and kept its card (issue 14)
    assert result.discarded == {"riso": "5H"}
    assert table.piles("f")["riso"] == ["QH"]


def test_an_award_before_the_first_card_begins_no_round(new: Tables) -> None:
    table = new().given(
        SESSION,
        simple("Guard", ("Kit", "Guard")),
        c.Award(giver="Richard", receiver="Bob", conflict="c1"),
    )

    assert table.show("c1")["rounds"] == []
    assert table.view()["conflicts"]["c1"]["round"] == 0
