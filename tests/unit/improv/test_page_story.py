"""The story of an Improv conflict on the page, per viewer (issue 29, "the story on the
page"): the worked example "records theft" of rules/improv.md §9 (GM 5 + 1 token = 8; Diana
J + talent = 14: Diana wins, the GM's token goes to the pool), told in plain words; the
winner's player reads "You won", everyone else the winner's name; no face-down card is told
before the reveal; narrations are quotes; the conflict stays on the page, closed, as it
ended."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from tablelog.commands.access import Caller
from tablelog.commands.page import Page, page_of
from tablelog.projections.page import Panel, Quote
from tablelog.rulesets.improv.rules import commands as c
from tests.unit.improv.table import Table, Tables


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Tables(tmp_path) as tables:
        yield tables({}).given(
            c.CreateCharacter(player="Sue", character="Diana", talents=["Sneak"]),
            c.CreateCharacter(player="Bob", character="Kit", talents=["Brawler"]),
            c.StartSession(),
            c.OpenConflict(conflict="records"),
            c.SetStake(conflict="records", side="Guard", gm=True, text="The guard sees her"),
            c.SetStake(
                conflict="records", side="Diana", opposes="Guard", text="Diana takes the records"
            ),
        )


def panel(table: Table, player: str, role: str = "player") -> Panel:
    caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
    found: Page = page_of(table.store, "t", caller)
    return next(p for p in found.panels if p.conflict == "records")


def test_the_story_tells_no_face_down_card_then_the_reveal_in_plain_words(table: Table) -> None:
    table.given(
        c.PlayCard(conflict="records", side="Guard", card="5C"),
        c.PlaceBonus(conflict="records", on="Guard", tokens=1),
        c.PlayCard(conflict="records", side="Diana", card="JH"),
    )
    for who, role in (("sue", "player"), ("bob", "player"), ("watcher", "observer")):
        before = panel(table, who, role)
        said = " ".join([before.result, *before.story])
        assert "5♣" not in said, (who, said)
        assert "J♥" not in said, (who, said)
        assert "Round 1: 2 cards are down" in said
        assert before.result == ""
    table.given(
        c.PlaceBonus(conflict="records", on="Diana", talent="Sneak"),
        c.Reveal(conflict="records"),
    )
    sue, bob, gm = panel(table, "sue"), panel(table, "bob"), panel(table, "gina", "gm")
    assert sue.result == "You won round 1 (14 vs 8)"
    assert bob.result == "Diana won round 1 (14 vs 8)"
    assert gm.result == "You lost round 1 (8 vs 14)"  # the GM's one stake is its own
    assert "The GM revealed round 1: Diana 14 (J♥), Guard 8 (5♣)." in bob.story
    assert "Diana 14 beats Guard 8, so 'Diana takes the records' wins." in bob.story
    assert "You 14 beat Guard 8, so 'Diana takes the records' wins." in sue.story
    assert any(s.startswith("1 token goes to the pool because ") for s in bob.story)


def test_narrations_are_quotes_and_a_closed_conflict_stays_as_it_ended(table: Table) -> None:
    table.given(
        c.PlayCard(conflict="records", side="Guard", card="5C"),
        c.PlayCard(conflict="records", side="Diana", card="JH"),
        c.Reveal(conflict="records"),
        c.Narrate(conflict="records", side="Diana", text="Diana slips past unseen."),
    )
    assert panel(table, "bob").quotes == [
        Quote(who="Diana", text="Diana slips past unseen.", when="after round 1")
    ]
    table.given(c.Close(conflict="records"))
    sue, bob = panel(table, "sue"), panel(table, "bob")
    assert sue.closed
    assert bob.closed
    assert sue.result == "You won the conflict (11 vs 5)"
    assert bob.result == "Diana won the conflict (11 vs 5)"
    assert bob.story[-1] == "The conflict closed: Diana beats Guard."
    assert "Diana slips past unseen." in msgspec.json.encode(bob).decode()


def test_the_ledger_has_a_glossary_of_its_holders(table: Table) -> None:
    caller = Caller(campaign="t", player="bob", role="player", digest="d")
    tokens = next(p for p in page_of(table.store, "t", caller).panels if p.key == "tokens")
    assert [word for word, _ in tokens.glossary] == [
        "GM",
        "pool",
        "bank",
        "out of play",
        "on cards",
        "each player",
    ]
