"""Refusals as a table: given these commands, this command is refused with this code, the
message names the value given (and the limit, where there is one), and the log is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.errors import InvalidInput, NotFound, RuleViolation, TablelogError
from tablelog.rules.common import Command
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules import demo
from tablelog.rulesets.improv.rules.decks import Shuffle
from tests.unit.improv.table import SESSION, Stacked, Tables

FIGHT = demo.FIGHT


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def stakes(conflict: str, gm_side: str, *sides: str, extended: bool = False) -> list[Command]:
    """Open `conflict` with GM stake `gm_side`, every listed protagonist opposing it."""
    return [
        c.OpenConflict(conflict=conflict, extended=extended, rounds=3 if extended else None),
        c.SetStake(conflict=conflict, side=gm_side, gm=True, text=f"{gm_side} gets away"),
        *(
            c.SetStake(conflict=conflict, side=s, opposes=gm_side, text=f"{s} stops it")
            for s in sides
        ),
    ]


def play(conflict: str, **cards: str) -> list[Command]:
    return [c.PlayCard(conflict=conflict, side=side, card=card) for side, card in cards.items()]


# Simple conflict c1: the GM's Guard against Kit (Bob). Extended conflict f: Riso against Kit.
SIMPLE = [*SESSION, *stakes("c1", "Guard", "Kit")]
SIMPLE_DOWN = [*SIMPLE, *play("c1", Guard="5C", Kit="9H")]
PAIR = [*SESSION, *stakes("c1", "Guard", "Kit", "Diana")]
PAIR_DOWN = [*PAIR, *play("c1", Guard="KC", Kit="JC", Diana="2H")]
EXTENDED_DOWN = [
    *SESSION,
    *stakes("f", "Riso", "Kit", extended=True),
    *play("f", Riso="QS", Kit="8D"),
]
# The bar fight after its last reveal: piles Jason 10♠; Goons K♠; Diana J♥ J♦; Kit Joker A♥;
# Riso Q♦ A♣ 9♣. Nobody has given or narrated a final outcome yet.
BAR_FIGHT_R3 = demo.SETUP + demo.OPENING + demo.ROUND_1 + demo.ROUND_2 + demo.ROUND_3
# Managed decks in a fresh deck's fixed order: the GM holds 2♣..7♣ (3 + 3 players) from its
# deck; from the players' deck Bob holds 2♣ 3♣ 4♣ 5♣, Richard 6♣..9♣, Susan 10♣..K♣.
MANAGED = {"deck_mode": "managed"}

ROWS = [
    # --- play ------------------------------------------------------------------------------
    pytest.param(
        {},
        SIMPLE,
        c.PlayCard(conflict="c1", side="Kit", card="9H", from_deck=True),
        "player-blind",
        RuleViolation,
        ["only the GM"],
        id="player-blind",
    ),
    pytest.param(
        {},
        [*SIMPLE, c.PlayCard(conflict="c1", side="Guard", card="5C")],
        c.SetStake(conflict="c1", side="Diana", opposes="Guard", text="Diana joins"),
        "stakes-closed",
        RuleViolation,
        ["c1", "first card"],
        id="stakes-closed",
    ),
    pytest.param(
        {},
        [
            *SESSION,
            *stakes("c1", "Guard", "Kit"),
            c.SetStake(conflict="c1", side="Boss", gm=True, text="the boss escapes"),
        ],
        c.PlayCard(conflict="c1", side="Kit", card="9H"),
        "gm-stake-limit",
        RuleViolation,
        ["at most 1", "2 set"],
        id="gm-stake-limit",
    ),
    pytest.param(
        {},
        [*SIMPLE, c.PlayCard(conflict="c1", side="Kit", card="9H")],
        c.PlayCard(conflict="c1", side="Kit", card="8H"),
        "second-card",
        RuleViolation,
        ["Kit", "round 1"],
        id="second-card",
    ),
    pytest.param(
        {},
        [*EXTENDED_DOWN, c.Reveal(conflict="f"), c.PlayCard(conflict="f", side="Kit", card="2S")],
        c.PlayCard(conflict="f", side="Kit", card="3S"),
        "second-card",
        RuleViolation,
        ["Kit", "round 2"],
        id="second-card-round-2",
    ),
    pytest.param(
        MANAGED,
        SIMPLE,
        c.PlayCard(conflict="c1", side="Kit", card="AS"),
        "not-in-hand",
        RuleViolation,
        ["AS", "2C, 3C, 4C, 5C"],
        id="not-in-hand",
    ),
    pytest.param(
        MANAGED,
        SIMPLE,
        c.PlayCard(conflict="c1", side="Guard", card="KH"),
        "not-in-hand",
        RuleViolation,
        ["KH", "the GM", "2C, 3C, 4C, 5C, 6C, 7C"],
        id="not-in-hand-gm",
    ),
    pytest.param(
        {},
        SIMPLE,
        c.PlayCard(conflict="c1", side="Kit", card="1X"),
        "bad-card",
        InvalidInput,
        ["'1X'"],
        id="bad-card-play",
    ),
    pytest.param(
        {},
        SIMPLE,
        c.PlayCard(conflict="c1", side="Vinny", card="9H"),
        "unknown-side",
        NotFound,
        ["'Vinny'", "guard, kit"],
        id="unknown-side-play",
    ),
    # --- stakes ----------------------------------------------------------------------------
    pytest.param(
        {},
        [
            *SESSION,
            c.OpenConflict(conflict="c1"),
            c.SetStake(conflict="c1", side="Boss", gm=True, text="the boss escapes"),
        ],
        c.SetStake(conflict="c1", side="Guard", gm=True, opposes="Boss", text="guard the boss"),
        "gm-stake-opposes",
        RuleViolation,
        ["oppose no one"],
        id="gm-stake-opposes",
    ),
    pytest.param(
        {},
        [*SESSION, c.OpenConflict(conflict="c1")],
        c.SetStake(conflict="c1", side="Kit", opposes="Vinny", text="Kit gets him"),
        "unknown-side",
        NotFound,
        ["'Vinny'"],
        id="unknown-side-opposes",
    ),
    # --- GM tokens -------------------------------------------------------------------------
    pytest.param(
        {},
        SIMPLE_DOWN,
        c.PlaceBonus(conflict="c1", on="Guard", tokens=3),
        "gm-token-limit",
        RuleViolation,
        ["may spend 2", "limit is 2", "3 requested"],
        id="gm-token-limit-simple",
    ),
    pytest.param(
        {},
        [*SIMPLE_DOWN, c.PlaceBonus(conflict="c1", on="Guard", tokens=2)],
        c.PlaceBonus(conflict="c1", on="Kit", by="gm", tokens=1),
        "gm-token-limit",
        RuleViolation,
        ["may spend 2", "3 requested"],
        id="gm-token-limit-cumulative",
    ),
    pytest.param(
        {"gm_tokens_per_player": "1"},  # the GM holds 3; its extended limit is 2 + 2 = 4
        EXTENDED_DOWN,
        c.PlaceBonus(conflict="f", on="Riso", tokens=4),
        "gm-token-limit",
        RuleViolation,
        ["may spend 3", "held 3", "4 requested"],
        id="gm-token-limit-holdings",
    ),
    # --- player tokens ---------------------------------------------------------------------
    pytest.param(
        {},
        SIMPLE_DOWN,
        c.PlaceBonus(conflict="c1", on="Kit", tokens=1),
        "no-token",
        RuleViolation,
        ["bob holds 0", "1 requested"],
        id="no-token",
    ),
    pytest.param(
        {},
        [*SESSION, c.Award(giver="Richard", receiver="Bob"), *SIMPLE_DOWN[4:]],
        c.PlaceBonus(conflict="c1", on="Kit", tokens=2),
        "no-token",
        RuleViolation,
        ["bob holds 1", "2 requested"],
        id="no-token-two",
    ),
    pytest.param(
        {},
        SIMPLE_DOWN,
        c.PlaceBonus(conflict="c1", on="Guard", by="Jason", tokens=1),
        "no-token",
        RuleViolation,
        ["richard holds 0", "1 requested"],
        id="no-token-absent-character",
    ),
    # --- talents ---------------------------------------------------------------------------
    pytest.param(
        {},
        [*SIMPLE_DOWN, c.PlaceBonus(conflict="c1", on="Kit", talent="Brawler")],
        c.PlaceBonus(conflict="c1", on="Kit", talent="Brawler"),
        "talent-once",
        RuleViolation,
        ["Kit", "simple conflict"],
        id="talent-once-simple",
    ),
    pytest.param(
        {},
        [
            *PAIR_DOWN,
            c.PlaceBonus(conflict="c1", on="Kit", by="Diana", talent="Marksman", assist="cover"),
        ],
        c.PlaceBonus(conflict="c1", on="Diana", talent="Marksman"),
        "talent-once",
        RuleViolation,
        ["Diana", "simple conflict"],
        id="talent-once-simple-after-assist",
    ),
    pytest.param(
        {},
        [*EXTENDED_DOWN, c.PlaceBonus(conflict="f", on="Kit", talent="Brawler")],
        c.PlaceBonus(conflict="f", on="Kit", talent="Brawler"),
        "talent-once",
        RuleViolation,
        ["Kit", "round 1"],
        id="talent-once-round",
    ),
    pytest.param(
        {"talent_uses_per_session": "1"},
        [
            *SIMPLE_DOWN,
            c.PlaceBonus(conflict="c1", on="Kit", talent="Brawler"),
            c.Reveal(conflict="c1"),
            c.Close(conflict="c1"),
            *stakes("c2", "Guard", "Kit"),
            *play("c2", Guard="2S", Kit="3S"),
        ],
        c.PlaceBonus(conflict="c2", on="Kit", talent="Brawler"),
        "talent-cap",
        RuleViolation,
        ["Kit", "1 of 1"],
        id="talent-cap",
    ),
    pytest.param(
        {},
        SIMPLE_DOWN,
        c.PlaceBonus(conflict="c1", on="Kit", talent="Juggler"),
        "unknown-talent",
        NotFound,
        ["'Juggler'", "talents: Brawler"],
        id="unknown-talent",
    ),
    pytest.param(
        {},
        PAIR_DOWN,
        c.PlaceBonus(conflict="c1", on="Kit", by="Diana", talent="Marksman"),
        "assist-required",
        RuleViolation,
        ["Kit", "Diana", "--assist"],
        id="assist-required",
    ),
    pytest.param(
        {},
        PAIR_DOWN,
        c.PlaceBonus(conflict="c1", on="Kit", by="Diana", talent="Marksman", assist="   "),
        "assist-required",
        RuleViolation,
        ["--assist"],
        id="assist-blank",
    ),
    pytest.param(
        {},
        SIMPLE_DOWN,
        c.PlaceBonus(conflict="c1", on="Guard", talent="Brawler"),
        "gm-talent",
        RuleViolation,
        ["GM has no talents"],
        id="gm-talent",
    ),
    pytest.param(
        {},
        SIMPLE_DOWN,
        c.PlaceBonus(conflict="c1", on="Kit", by="gm", talent="Brawler"),
        "gm-talent",
        RuleViolation,
        ["GM has no talents"],
        id="gm-talent-on-kit",
    ),
    # --- bonus timing and targets ----------------------------------------------------------
    pytest.param(
        {},
        [*SIMPLE_DOWN, c.Reveal(conflict="c1")],
        c.PlaceBonus(conflict="c1", on="Kit", talent="Brawler"),
        "bonus-timing",
        RuleViolation,
        ["c1", "before the reveal"],
        id="bonus-after-reveal",
    ),
    pytest.param(
        {},
        [*SIMPLE, c.PlayCard(conflict="c1", side="Kit", card="9H")],
        c.PlaceBonus(conflict="c1", on="Guard", by="gm", tokens=1),
        "no-card",
        RuleViolation,
        ["Guard has no card down in round 1", "already in play"],
        id="bonus-on-a-card-not-yet-down",
    ),
    pytest.param(
        {},
        SIMPLE,
        c.PlaceBonus(conflict="c1", on="Guard", tokens=1),
        "bonus-timing",
        RuleViolation,
        ["c1"],
        id="bonus-before-any-card",
    ),
    pytest.param(
        {},
        SIMPLE_DOWN,
        c.PlaceBonus(conflict="c1", on="Vinny", tokens=1),
        "unknown-side",
        NotFound,
        ["'Vinny'", "guard, kit"],
        id="unknown-side-bonus",
    ),
    # --- victory cards ---------------------------------------------------------------------
    pytest.param(
        {},
        [*BAR_FIGHT_R3, c.Give(conflict=FIGHT, giver="Jason", receiver="Kit", card="10S")],
        c.Give(conflict=FIGHT, giver="Kit", receiver="Diana", card="10S"),
        "give-received",
        RuleViolation,
        ["Kit", "10S"],
        id="give-received",
    ),
    pytest.param(
        {},
        [*BAR_FIGHT_R3, c.Give(conflict=FIGHT, giver="Diana", receiver="Kit", card="JH")],
        c.Give(conflict=FIGHT, giver="Diana", receiver="Jason", card="JD"),
        "give-once",
        RuleViolation,
        ["Diana", "exactly one"],
        id="give-once",
    ),
    pytest.param(
        {},
        [*BAR_FIGHT_R3, c.Narrate(conflict=FIGHT, side="Jason", text="He falls.", final=True)],
        c.Give(conflict=FIGHT, giver="Jason", receiver="Kit", card="10S"),
        "give-after-narration",
        RuleViolation,
        ["Jason"],
        id="give-after-narration",
    ),
    pytest.param(
        {},
        BAR_FIGHT_R3,
        c.Give(conflict=FIGHT, giver="Jason", receiver="Kit", card="QS"),
        "not-in-pile",
        RuleViolation,
        ["QS", "10S"],
        id="give-not-in-pile",
    ),
    pytest.param(
        {},
        BAR_FIGHT_R3,
        c.Give(conflict=FIGHT, giver="Jason", receiver="Kit", card="ZZ"),
        "bad-card",
        InvalidInput,
        ["'ZZ'"],
        id="bad-card-give",
    ),
    pytest.param(
        {},
        BAR_FIGHT_R3,
        c.Give(conflict=FIGHT, giver="Jason", receiver="Vinny", card="10S"),
        "unknown-side",
        NotFound,
        ["'Vinny'"],
        id="unknown-side-give",
    ),
    # --- awards ----------------------------------------------------------------------------
    pytest.param(
        {},
        [*BAR_FIGHT_R3, c.Award(giver="Richard", receiver="Bob", conflict=FIGHT)],
        c.Award(giver="Richard", receiver="Susan", conflict=FIGHT),
        "award-once",
        RuleViolation,
        ["Richard", "round 3"],
        id="award-once-round",
    ),
    pytest.param(
        {},
        demo.SETUP,  # Susan awarded Bob in this scene
        c.Award(giver="Susan", receiver="Richard"),
        "award-once",
        RuleViolation,
        ["Susan", "scene"],
        id="award-once-scene",
    ),
    pytest.param(
        {"pool_per_player": "0"},
        [*SESSION, c.StartScene()],
        c.Award(giver="Richard", receiver="Bob"),
        "award-empty",
        RuleViolation,
        ["the pool is empty; an award needs 1 token, 0 available"],
        id="award-empty",
    ),
    pytest.param(
        {"award_source": "giver"},
        [*SESSION, c.StartScene()],
        c.Award(giver="Richard", receiver="Bob"),
        "award-empty",
        RuleViolation,
        ["Richard holds no story-token; an award needs 1 token, 0 available"],
        id="award-empty-giver",
    ),
    pytest.param(
        {},
        SESSION,
        c.Award(giver="Zed", receiver="Bob"),
        "unknown-player",
        NotFound,
        ["'Zed'", "bob", "susan", "richard"],
        id="unknown-player-giver",
    ),
    pytest.param(
        {},
        SESSION,
        c.Award(giver="Bob", receiver="Zed"),
        "unknown-player",
        NotFound,
        ["'Zed'"],
        id="unknown-player-receiver",
    ),
    # --- Hand of Fate ----------------------------------------------------------------------
    pytest.param(
        {},
        [
            *SIMPLE,
            *play("c1", Guard="QH", Kit="9H"),
            c.PlaceBonus(conflict="c1", on="Kit", talent="Brawler"),
            c.Reveal(conflict="c1"),
        ],
        c.Fate(conflict="c1", side="Kit", draw="11H"),
        "bad-card",
        InvalidInput,
        ["'11H'"],
        id="bad-card-fate",
    ),
]


@pytest.mark.parametrize(("options", "given", "command", "code", "kind", "names"), ROWS)
def test_refusal(
    new: Tables,
    options: dict[str, str],
    given: list[Command],
    command: Command,
    code: str,
    kind: type[TablelogError],
    names: list[str],
) -> None:
    shuffle: Shuffle = Stacked()
    table = new(options, shuffle).given(given)

    error = table.refuse(command, code, kind)  # checks the log is unchanged, too

    for name in names:
        assert name in error.message, (name, error.message)
