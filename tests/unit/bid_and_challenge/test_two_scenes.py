"""Two scenes open side by side: a bid's power is checked when the bid is made, but the other
scene may move its card, define its detail or create its universe card before the bid wins.
That part of the power is left undone, and the resolution says so (in the log line, `show` and
the audit), instead of a won bid silently changing nothing.

Seating: scene s1 Anna and Ben, scene s2 Dan and Eve (the vectors' decks, plus Dan's and
Eve's). Dice are recorded.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.commands.reads import show
from tablelog.rules.common import Command
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.views.text import describe
from tests.unit.bid_and_challenge.table import (
    CAMPAIGN,
    DECKS,
    RECORDED,
    RULESET,
    Table,
    Tables,
    bid,
    cards,
    challenge,
    only,
    pass_,
    power,
    push,
    roll,
)


def in_scene(scene: str, command: Any) -> Command:
    changed: Command = msgspec.structs.replace(command, conflict=scene)
    return changed


def two_scenes(new: Tables, options: dict[str, str] = RECORDED) -> Table:
    return new(options).given(
        DECKS,
        c.RegisterDeck(player="dan", character="Dan", flow=2, cards=cards("Fist:1d6", "Kick:1d6")),
        c.RegisterDeck(player="eve", character="Eve", flow=2, cards=cards("Bow:1d6")),
        c.OpenScene(seating=["Anna", "Ben"], requested_by="Anna", conflict="s1"),
        c.OpenScene(seating=["Dan", "Eve"], requested_by="Dan", conflict="s2"),
    )


def shown(table: Table, scene: str) -> list[str]:
    return show(table.store, CAMPAIGN, scene, None, ruleset=RULESET).lines


def notes(table: Table) -> list[str]:
    account = account_of(table.log())
    assert account.discrepancies == []
    return [n.text for chapter in account.conflicts for s in chapter.sections for n in s.notes]


@pytest.mark.parametrize("spelling", ["the-bridge", "The_Bridge"])
def test_a_detail_defined_meanwhile_by_another_scene_is_not_redefined_and_the_winner_is_told(
    new: Tables, spelling: str
) -> None:
    bridge = power("detail", detail="the-bridge", text="the bridge is out")
    table = two_scenes(new).given(
        in_scene("s1", bid("Anna", "Brawn", spec=bridge)),
        in_scene("s2", bid("Dan", "Fist", spec=power("detail", detail=spelling, text="intact"))),
        in_scene("s1", pass_("Ben")),  # Anna's bid wins unchallenged: bridge is defined
    )
    events = table.when(in_scene("s2", pass_("Eve")))
    resolved = only(events, ev.RoundResolved)
    void = "the power does nothing: detail the-bridge was defined by anna in scene s1 since the bid"
    assert (resolved.winner, resolved.power_applied, resolved.power_void) == ("dan", False, void)
    assert {k: d.text for k, d in table.state.details.items()} == {
        "the-bridge": "the bridge is out"
    }
    assert describe(resolved).endswith(f"; {void}")
    assert f"  {void}" in shown(table, "s2")
    assert any(note.endswith(void) for note in notes(table))


def test_a_struck_card_committed_in_another_scene_stays_and_the_winner_is_told(
    new: Tables,
) -> None:
    strike_kick = power("strike", target="Dan", cards=["Kick"])
    table = two_scenes(new).given(
        in_scene("s1", bid("Anna", "Brawn", spec=strike_kick)),
        in_scene("s2", bid("Dan", "Kick")),  # Kick goes into Play in s2
    )
    events = table.when(in_scene("s1", pass_("Ben")))
    resolved = only(events, ev.RoundResolved)
    assert resolved.power_applied is False
    assert resolved.power_void == (
        "the strike power cannot move Kick (in Play): not in dan's Deck any more "
        "(another scene moved it since the bid)"
    )
    assert table.zone("Dan", "play") == ["kick"]
    assert resolved.power_void in " ".join(shown(table, "s1"))


def test_a_restore_moves_what_is_still_in_discard_and_names_what_is_not(new: Tables) -> None:
    """Ben lost a push of Sneak and Mind in s1; Anna's bid in s1 would restore both, but Dan's
    won bid in s2 restores Sneak first: Anna's restores Mind alone."""
    table = two_scenes(new).given(
        in_scene("s1", bid("Anna", "Brawn")),
        in_scene("s1", challenge("Ben", "Dodge")),
        in_scene("s1", push("Anna", "Sword")),
        in_scene("s1", roll([6, 6], [1])),  # Anna wins; round 2: Ben active
        in_scene("s1", bid("Ben", "Dodge", spec=power("detail", detail="moat", text="deep"))),
        in_scene("s1", challenge("Anna", "Brawn")),
        in_scene("s1", push("Ben", "Sneak", "Mind")),
        in_scene("s1", roll([1, 1, 1], [6])),  # Ben loses: Sneak and Mind go to Discard
    )
    assert table.zone("Ben", "discard") == ["mind", "sneak"]
    both = power("restore", target="Ben", cards=["Sneak", "Mind"])
    table.given(
        in_scene("s1", bid("Anna", "Brawn", spec=both)),
        in_scene("s2", bid("Dan", "Fist", spec=power("restore", target="Ben", cards=["Sneak"]))),
        in_scene("s2", pass_("Eve")),  # Dan's restore wins first
    )
    events = table.when(in_scene("s1", pass_("Ben")))
    resolved = only(events, ev.RoundResolved)
    moved = [m.card_id for m in events if isinstance(m, ev.CardMoved) and m.reason == "bid_power"]
    assert moved == ["mind"]
    assert (resolved.power_applied, resolved.power_void) == (
        True,
        "the restore power cannot move Sneak (in Deck): not in ben's Discard any more "
        "(another scene moved it since the bid)",
    )


def test_a_universe_card_created_meanwhile_is_not_created_twice(new: Tables) -> None:
    hail = power("universe_card", card=cards("Hail:1d6")[0])
    table = two_scenes(new).given(
        in_scene("s1", bid("Anna", "Brawn", spec=hail)),
        in_scene("s2", bid("Dan", "Fist", spec=hail)),
        in_scene("s2", pass_("Eve")),
    )
    resolved = only(table.when(in_scene("s1", pass_("Ben"))), ev.RoundResolved)
    assert resolved.power_void == (
        "the power does nothing: the universe deck has a card Hail already, created since the bid"
    )
    assert list(table.state.universe.cards) == ["storm", "crowd", "hail"]


def test_a_challenge_names_its_power_wherever_it_is_shown(new: Tables) -> None:
    """Option challenger_power=true: the challenge's power is in its log line, in `show` and in
    the audit, as a bid's is."""
    table = two_scenes(new, {**RECORDED, "challenger_power": "true"}).given(
        in_scene("s1", bid("Anna", "Brawn"))
    )
    strike = power("strike", target="Anna", cards=["Sword"])
    events = table.when(in_scene("s1", challenge("Ben", "Dodge", power=strike)))
    made = only(events, ev.ChallengeMade)
    assert describe(made) == (
        'ben challenges "It goes wrong" with dodge (strike sword from anna\'s Deck to Discard)'
    )
    assert (
        '  ben challenges "It goes wrong" with Dodge 1d6+1; if it wins: strike sword from '
        "anna's Deck to Discard"
    ) in shown(table, "s1")
    assert any(
        n.endswith("if it wins: strike sword from anna's Deck to Discard") for n in notes(table)
    )
