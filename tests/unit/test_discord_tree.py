"""The `/tl` command set, made from each ruleset's CLI: within Discord's limits for every
ruleset (the toy one too), named as the CLI names things, and parsed back by the CLI."""

from __future__ import annotations

import pytest

from tablelog.commands.endpoints import loading_rulesets
from tablelog.discord import tree
from tablelog.discord.argv import collect, words
from tablelog.errors import InvalidInput
from tests.support.discord_app import validate_commands

RULESETS = loading_rulesets()


def test_the_toy_ruleset_is_among_them() -> None:
    assert "duel" in RULESETS
    assert "improv" in RULESETS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ruleset_fits_discords_limits(ruleset: str) -> None:
    commands = tree.command_set([ruleset])
    assert tree.problems(commands) == []
    validate_commands(commands)  # the stand-in's check, as Discord makes it
    (tl,) = commands
    group = next(o for o in tl["options"] if o["name"] == ruleset)
    assert 1 <= len(group["options"]) <= 25
    for sub in group["options"]:
        assert len(sub["options"]) <= 25
        assert 1 <= len(sub["description"]) <= 100
        for option in sub["options"]:
            assert 1 <= len(option["description"]) <= 100, option
            assert len(option["name"]) <= 32


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_group_is_the_rulesets_cli_without_its_reads(ruleset: str) -> None:
    from tablelog.projections.registry import views_for

    cli = tree.cli_group(ruleset)
    subs = {s.name for s in tree.ruleset_subs(ruleset)}
    reads = {"show", *(r.name for r in views_for(ruleset).reads)}
    assert subs == set(cli.commands) - reads


def test_too_many_rulesets_at_once_are_named_before_discord_refuses() -> None:
    every = tree.command_set(RULESETS)
    assert tree.size(every[0]) > tree.LIMIT_COMMAND
    assert any("8000" in p for p in tree.problems(every))


def test_options_are_named_and_described_as_the_cli_names_them() -> None:
    play = tree.sub_of("improv", "play")
    assert play is not None
    assert play.description == "Play a card face down for a side"
    names = [o.name for o in play.options]
    assert names == ["conflict", "side", "card", "from-deck"]
    from_deck = play.options[-1]
    assert (from_deck.type, from_deck.flag) == (tree.BOOLEAN, "--from-deck")
    character = tree.sub_of("improv", "character")
    assert character is not None
    talent = next(o for o in character.options if o.name == "talent")
    assert talent.many
    assert talent.description.endswith("(several: separate with ;)")


def test_slash_options_become_the_clis_words() -> None:
    hp = tree.sub_of("ace-of-cards", "hp")
    assert hp is not None
    # A negative value stays a value: the arguments follow `--`.
    assert words(hp, {"name": "kit", "delta": "-2"}) == ["--", "kit", "-2"]
    (command,) = collect("ace-of-cards", hp, {"name": "kit", "delta": "-2"})
    assert command.delta == -2  # type: ignore[attr-defined]
    character = tree.sub_of("improv", "character")
    assert character is not None
    (made,) = collect(
        "improv", character, {"player": "bob", "name": "Kit", "talent": "Brawler; Fast talker"}
    )
    assert made.talents == ["Brawler", "Fast talker"]  # type: ignore[attr-defined]


def test_a_bad_option_is_one_sentence() -> None:
    play = tree.sub_of("improv", "play")
    assert play is not None
    with pytest.raises(InvalidInput, match="no option 'bogus'"):
        words(play, {"conflict": "c1", "side": "kit", "bogus": "1"})
    rounds = tree.sub_of("improv", "open")
    assert rounds is not None
    with pytest.raises(InvalidInput) as refused:
        collect("improv", rounds, {"rounds": "many"})
    assert refused.value.code == "bad-option"
    assert "many" in refused.value.message


def test_numbers_and_lists_are_typed_as_discord_takes_them() -> None:
    roll = tree.sub_of("beer-run", "roll")
    assert roll is not None
    values = next(o for o in roll.options if o.name == "values")
    assert values.type == tree.STRING  # several numbers in one option: `values:6 5 2`
    bonus = tree.sub_of("improv", "bonus")
    assert bonus is not None
    count = next(o for o in bonus.options if o.name == "count")
    assert (count.type, count.low) == (tree.INTEGER, 1)
    assert count.json()["min_value"] == 1


def test_the_clis_words_in_a_sentence_become_discords() -> None:
    said = tree.in_discords_words(
        "give exactly one of --draw CARD, --eliminate or --stay; "
        "`tablelog session start` starts one, `tablelog improv play c6 kit` plays blind, "
        "`tablelog webhook add URL` stays"
    )
    assert said == (
        "give exactly one of draw: CARD, eliminate: or stay:; `/tl session start` starts "
        "one, `/tl improv play ...` plays blind, `tablelog webhook add URL` stays"
    )
    narrate = tree.sub_of("improv", "narrate")
    assert narrate is not None
    assert "--" not in narrate.description
