"""Ruleset options from KEY=VALUE text, and the names tablelog accepts."""

from __future__ import annotations

import pytest

from tablelog.errors import InvalidInput
from tablelog.rules import registry
from tablelog.rules.names import campaign_key, campaign_name, player_name
from tablelog.rules.options import from_recorded, parse_options, to_record
from tablelog.rulesets.improv.rules import ImprovOptions

IMPROV_DEFAULTS = {
    "deck_mode": "recorded",
    "player_decks": "shared",
    "joker_value": 15,
    "bonus_value": 3,
    "suit_order": "CDHS",
    "lethal_fate": False,
    "player_hand": 4,
    "gm_hand_base": 3,
    "gm_tokens_per_player": 3,
    "pool_per_player": 1,
    "carry_tokens": False,
    "award_source": "pool",
    "talent_uses_per_session": 6,
    "extended_rounds": 3,
    "gm_limit_simple_base": 1,
    "gm_limit_extended_base": 2,
    "gm_limit_extended_per_player": 2,
    "gm_limit_per_extra_round": 2,
    "gm_limit_base_rounds": 3,
    "sealed_plays": False,
}


def improv(**raw: str) -> ImprovOptions:
    return parse_options(ImprovOptions, raw, ruleset="improv")


def test_the_improv_defaults_are_the_rules() -> None:
    assert to_record(improv()) == IMPROV_DEFAULTS


@pytest.mark.parametrize(
    ("raw", "field", "value"),
    [
        ({"joker_value": "14"}, "joker_value", 14),
        ({"lethal-fate": "true"}, "lethal_fate", True),
        ({"Deck_Mode": "managed"}, "deck_mode", "managed"),
        ({"suit_order": "SHDC"}, "suit_order", "SHDC"),
        ({"talent_uses_per_session": "5"}, "talent_uses_per_session", 5),
    ],
)
def test_options_parse_from_text(raw: dict[str, str], field: str, value: object) -> None:
    assert getattr(improv(**raw), field) == value


@pytest.mark.parametrize(
    ("raw", "sentence"),
    [
        (
            {"joker_value": "abc"},
            "option joker_value of improv must be a whole number from 2 to 100; got 'abc'",
        ),
        (
            {"deck_mode": "bogus"},
            "option deck_mode of improv must be one of managed, recorded; got 'bogus'",
        ),
        ({"suit_order": "CCDH"}, "option suit_order of improv must be the four suits"),
        (
            {"player_hand": "0"},
            "option player_hand of improv must be a whole number from 1 to 1000; got '0'",
        ),
        ({"lethal_fate": "maybe"}, "option lethal_fate of improv must be true or false"),
        ({"nope": "1"}, "improv has no option 'nope'"),
    ],
)
def test_bad_options_are_refused_in_one_sentence(raw: dict[str, str], sentence: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        improv(**raw)
    assert sentence in caught.value.message
    assert "\n" not in caught.value.message


def test_an_option_given_twice_is_refused() -> None:
    with pytest.raises(InvalidInput, match="given twice"):
        improv(**{"suit_order": "CDHS", "Suit-Order": "SHDC"})


def test_recorded_options_survive_options_added_later() -> None:
    recorded = {**IMPROV_DEFAULTS, "joker_value": 20, "retired_option": 1}
    del recorded["extended_rounds"]
    options = from_recorded(ImprovOptions, recorded)
    assert (options.joker_value, options.extended_rounds) == (20, 3)


def test_the_registry_knows_improv_and_refuses_strangers() -> None:
    assert registry.get("Improv").name == "improv"
    with pytest.raises(InvalidInput, match="choose one of improv"):
        registry.get("poker")


@pytest.mark.parametrize(("given", "key"), [("Bar-Fight", "bar-fight"), (" c1 ", "c1")])
def test_campaign_names_are_lower_case_keys(given: str, key: str) -> None:
    assert campaign_name(given) == key


@pytest.mark.parametrize("bad", ["", "bad name", "-lead", "x" * 65, "a/b"])
def test_bad_campaign_names_are_refused(bad: str) -> None:
    with pytest.raises(InvalidInput):
        campaign_name(bad)


@pytest.mark.parametrize(
    ("given", "key"),
    [
        ("Mara", "mara"),
        ("Zoë", "zoë"),
        ("o'neil", "o'neil"),
        ("Rene\u0301", "ren\u00e9"),  # decomposed and composed are one player
        ("STRASSE", "strasse"),
        ("straße", "strasse"),
    ],
)
def test_player_names_keep_letters_and_fold_case(given: str, key: str) -> None:
    assert player_name(given) == key


@pytest.mark.parametrize("bad", ["", " ", "_x", "a b", "<b>x</b>", "x" * 41])
def test_bad_player_names_are_refused(bad: str) -> None:
    with pytest.raises(InvalidInput):
        player_name(bad)


@pytest.mark.parametrize(
    ("one", "other", "alike"),
    [
        ("rec", "rec.", True),
        ("rec", "r-e-c", True),
        ("rec", "REC_", True),
        ("rec", "\uff52\uff45\uff43", True),  # fullwidth letters: NFKC makes them rec
        ("bar-fight", "barfight", True),
        ("rec", "rec2", False),
        ("c1", "cl", False),
        ("heist", "heists", False),
    ],
)
def test_look_alike_campaign_names_share_a_key(one: str, other: str, alike: bool) -> None:
    assert (campaign_key(one) == campaign_key(other)) is alike


def test_a_notice_option_that_is_no_number_says_it_must_be_a_number() -> None:
    from tablelog.rules import notice_options

    with pytest.raises(InvalidInput) as caught:
        notice_options.parse({"remind_hours": "abc"})
    assert caught.value.message == (
        "option remind_hours of tablelog must be a number (such as 12 or 0.5); got 'abc'"
    )
