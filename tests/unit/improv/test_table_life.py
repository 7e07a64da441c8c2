"""A play-by-post table's life: fixing stakes, abandoning a conflict, joining mid-session,
awards between scenes, several conflicts at once, and text that must not reach an export."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.rulesets.improv.events import CardsDrawn, ConflictClosed
from tablelog.rulesets.improv.rules import commands as c
from tests.unit.improv.table import SESSION, Tables, only


@pytest.fixture
def new(tmp_path: Path) -> Iterator[Tables]:
    with Tables(tmp_path) as tables:
        yield tables


def test_a_protagonist_staked_before_its_opponent_sets_its_stake_again(new: Tables) -> None:
    table = new().given(SESSION, c.OpenConflict())
    table.given(c.SetStake(conflict="c1", side="Kit", text="Kit wins"))
    table.given(c.SetStake(conflict="c1", side="riso", gm=True, text="Riso escapes"))
    table.refuse(c.PlayCard(conflict="c1", side="riso", card="5C"), "no-opponent", RuleViolation)
    table.given(c.SetStake(conflict="c1", side="Kit", text="Kit wins", opposes="riso"))
    table.given(c.PlayCard(conflict="c1", side="riso", card="5C"))
    assert table.state.conflicts["c1"].sides["kit"].opposes == "riso"


def test_a_conflict_with_no_card_down_can_be_closed_and_the_session_ended(new: Tables) -> None:
    table = new().given(SESSION, c.OpenConflict(conflict="oops"))
    closed = only(table.when(c.Close(conflict="oops")), ConflictClosed)
    assert closed.abandoned
    table.given(c.EndSession())
    assert not table.state.session_open


def test_protagonists_may_oppose_each_other_in_a_multi_way_conflict(new: Tables) -> None:
    table = new().given(SESSION, c.OpenConflict())
    table.given(
        c.SetStake(conflict="c1", side="dir", gm=True, text="The director wins"),
        c.SetStake(conflict="c1", side="Kit", opposes="dir", text="Kit wins"),
        c.SetStake(conflict="c1", side="Diana", opposes="Kit", text="Diana beats Kit"),
        c.PlayCard(conflict="c1", side="dir", card="5C"),
        c.PlayCard(conflict="c1", side="Kit", card="9C"),
        c.PlayCard(conflict="c1", side="Diana", card="KC"),
    )
    revealed = table.when(c.Reveal(conflict="c1"))[0]
    assert revealed.beats == [["kit", "dir"], ["diana", "kit"]]  # type: ignore[attr-defined]


def test_closing_one_conflict_leaves_another_conflicts_bank_alone(new: Tables) -> None:
    table = new().given(SESSION, c.Award(giver="bob", receiver="richard"))  # Jason's player
    for conflict, hero, gm_side, hero_card, gm_card in (
        ("a", "Kit", "riso", "2C", "3C"),
        ("b", "Jason", "goons", "4S", "2S"),
    ):
        table.given(
            c.OpenConflict(conflict=conflict),
            c.SetStake(conflict=conflict, side=gm_side, gm=True, text="GM"),
            c.SetStake(conflict=conflict, side=hero, opposes=gm_side, text="hero"),
            c.PlayCard(conflict=conflict, side=hero, card=hero_card),
            c.PlayCard(conflict=conflict, side=gm_side, card=gm_card),
        )
    table.given(c.PlaceBonus(conflict="b", on="Jason", tokens=1), c.Reveal(conflict="b"))
    assert table.tokens()["bank"] == 1  # 4S and 2S are both black
    gm_before = table.tokens()["gm"]
    table.given(c.Reveal(conflict="a"), c.Close(conflict="a"))
    assert (table.tokens()["bank"], table.tokens()["gm"]) == (1, gm_before)
    table.given(c.Close(conflict="b"))
    assert (table.tokens()["bank"], table.tokens()["gm"]) == (0, gm_before + 1)


def test_awards_outside_scenes_are_limited_per_session_and_per_scene(new: Tables) -> None:
    table = new().given(SESSION, c.Award(giver="bob", receiver="susan"))
    table.refuse(c.Award(giver="bob", receiver="richard"), "award-once", RuleViolation)
    table.given(c.StartScene(title="Docks"), c.Award(giver="bob", receiver="richard"))
    table.refuse(c.Award(giver="bob", receiver="susan"), "award-once", RuleViolation)
    table.given(c.EndScene(), c.Award(giver="bob", receiver="susan"))
    table.given(c.EndSession(), c.StartSession(), c.Award(giver="bob", receiver="susan"))


def test_token_spends_need_a_running_session(new: Tables) -> None:
    table = new().given(SESSION, c.Award(giver="bob", receiver="susan"), c.EndSession())
    table.refuse(c.Award(giver="susan", receiver="bob"), "no-session", RuleViolation)
    table.refuse(c.Bribe(giver="susan", receiver="bob"), "no-session", RuleViolation)


def test_managed_conflicts_have_no_more_rounds_than_a_hand_holds(new: Tables) -> None:
    table = new({"deck_mode": "managed"}).given(SESSION)
    error = table.refuse(c.OpenConflict(extended=True, rounds=5), "bad-rounds", RuleViolation)
    assert "at most 4 rounds; 5 asked" in error.message


def test_a_player_joining_a_managed_session_is_dealt_a_hand(new: Tables) -> None:
    table = new({"deck_mode": "managed"}).given(SESSION)
    events = table.when(c.CreateCharacter(player="Nina", character="Lou"))
    assert only(events, CardsDrawn).owner == "nina"
    assert len(table.hand("nina")) == 4


@pytest.mark.parametrize("text", ["bell\x07", "\x1b[31mred\x1b[0m", "bad \udcff byte"])
def test_text_with_control_characters_or_broken_encoding_is_refused(new: Tables, text: str) -> None:
    table = new().given(SESSION, c.OpenConflict())
    table.refuse(
        c.SetStake(conflict="c1", side="riso", gm=True, text=text), "bad-text", InvalidInput
    )


def test_an_award_counts_toward_the_last_revealed_round(new: Tables) -> None:
    table = new({"pool_per_player": "3"}).given(
        SESSION,
        c.OpenConflict(conflict="f", extended=True, rounds=2),
        c.SetStake(conflict="f", side="riso", gm=True, text="Riso escapes"),
        c.SetStake(conflict="f", side="Kit", opposes="riso", text="Kit wins"),
        c.PlayCard(conflict="f", side="Kit", card="9C"),
        c.PlayCard(conflict="f", side="riso", card="5C"),
        c.Reveal(conflict="f"),
        c.Award(giver="bob", receiver="susan", conflict="f"),  # rewards round 1's narration
        c.PlayCard(conflict="f", side="Kit", card="9D"),  # round 2's cards going down
    )
    error = table.refuse(c.Award(giver="bob", receiver="richard"), "award-once", RuleViolation)
    assert "round 1" in error.message
    table.given(c.PlayCard(conflict="f", side="riso", card="2D"), c.Reveal(conflict="f"))
    table.given(c.Award(giver="bob", receiver="richard"))  # round 2 is now the last revealed


def test_every_improv_event_has_an_evolve_handler() -> None:
    import importlib
    from typing import get_args

    module = importlib.import_module("tablelog.rulesets.improv.rules.evolve")
    assert set(module._HANDLERS) == set(get_args(module.ImprovEvent))
