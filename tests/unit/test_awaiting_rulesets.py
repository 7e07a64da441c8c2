"""Whom each ruleset's table waits on (its views' `awaiting`), along its demo played a
command at a time: someone is awaited while a conflict is open, nobody once it has closed,
no step names a card, and at points of the rules' worked examples the exact steps, in the
order the table takes them. The page's "Not acted yet" line is built from the same steps."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablelog.projections.await_step import Await
from tablelog.projections.awaiting import awaiting
from tablelog.projections.fold import Folded, fold
from tablelog.projections.page import open_conflicts
from tablelog.projections.registry import views_for
from tablelog.projections.views import state_view
from tablelog.rules import registry
from tablelog.testing import Table

RULESETS = ["improv", "night-terrors", "beer-run", "bid-and-challenge", "ace-of-cards"]
# A card's code (`QD`, `10S`, `JK`) or its face (`Q♦`): none may be in a step's words.
CARD = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b|[♣♦♥♠]")


def played(tmp_path: Path, ruleset: str) -> Iterator[tuple[int, Any, Folded]]:
    """The ruleset's demo, the state after each command (its index, the command)."""
    demo = registry.get(ruleset).demo()
    table = Table(tmp_path / "t.db", ruleset, options=demo.options)
    try:
        for index, command in enumerate(demo.commands):
            table.given(command)
            yield index, command, fold(table.store.stream(table.campaign))
    finally:
        table.close()


def steps(found: list[Await]) -> list[tuple[str, str, str | None, str | None, bool]]:
    return [(a.player, a.what, a.character, a.conflict, a.optional) for a in found]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_demo_awaits_someone_while_open_and_nobody_once_closed(
    tmp_path: Path, ruleset: str
) -> None:
    assert views_for(ruleset).awaiting is not None, "the ruleset says it, not the fallback"
    ever_open: set[str] = set()
    for _, command, folded in played(tmp_path, ruleset):
        whole = state_view(folded, None)
        live = set(open_conflicts(whole))
        found = awaiting(folded)
        assert found == views_for(ruleset).awaiting(folded.state), "deterministic"
        for conflict in live:
            assert any(a.conflict == conflict for a in found), (command, conflict)
        for step in found:
            assert not CARD.search(step.what), (command, step)
            assert step.conflict is None or step.conflict in live, (command, step)
        ever_open |= live
    assert ever_open, "the demo opens a conflict"
    assert not [a for a in awaiting(folded) if a.conflict in ever_open]  # closed: nobody


def after(tmp_path: Path, ruleset: str, points: set[int]) -> dict[int, list[Any]]:
    return {i: steps(awaiting(f)) for i, _, f in played(tmp_path, ruleset) if i in points}


def test_improv_bar_fight(tmp_path: Path) -> None:
    from tablelog.rulesets.improv.rules import demo

    opened = len(demo.SETUP) + len(demo.OPENING) - 1
    round_1 = opened + 5  # every card of round 1 down
    last_reveal = len(demo.BAR_FIGHT) - len(demo.MAIN_ENDING) - 1
    first_gift = last_reveal + 1
    got = after(
        tmp_path,
        "improv",
        {len(demo.SETUP), opened - 3, opened, round_1, round_1 + 1, last_reveal, first_gift},
    )
    # The conflict opened: the GM sets the stakes first (a protagonist opposes a side staked).
    assert got[len(demo.SETUP)] == [("gm", "set the stakes", None, "fight", False)]
    # Only the GM's stakes so far: each character of the session may still join.
    assert got[opened - 3] == [
        ("bob", "set a stake", "Kit", "fight", True),
        ("richard", "set a stake", "Jason", "fight", True),
        ("susan", "set a stake", "Diana", "fight", True),
    ]
    play = "play a card face down for round 1"
    assert got[opened] == [
        ("gm", play, "Riso", "fight", False),
        ("gm", play, "Goons", "fight", False),
        ("bob", play, "Kit", "fight", False),
        ("richard", play, "Jason", "fight", False),
        ("susan", play, "Diana", "fight", False),
    ]
    assert got[round_1] == [("gm", "reveal round 1", None, "fight", False)]
    assert [s[1] for s in got[round_1 + 1]] == ["play a card face down for round 2"] * 5
    # After the last reveal: each side that won a card may give one (optional); the GM closes.
    gifts = [
        ("gm", "Riso"),
        ("gm", "Goons"),
        ("bob", "Kit"),
        ("richard", "Jason"),
        ("susan", "Diana"),
    ]
    assert got[last_reveal] == [
        *((p, "give a victory card", ch, "fight", True) for p, ch in gifts),
        ("gm", "close the conflict", None, "fight", False),
    ]
    assert ("richard", "give a victory card", "Jason", "fight", True) not in got[first_gift]


def test_night_terrors_nt5(tmp_path: Path) -> None:
    got = after(tmp_path, "night-terrors", {2, 5, 7, 8, 10, 11})
    assert got[2] == [  # the session's hands, recorded from the table
        ("ann", "draw 4 cards", "Alice", None, False),
        ("ben", "draw 4 cards", "Bob", None, False),
    ]
    assert got[5] == [  # the conflict's draws: Alice's suit is not the trump (Clubs)
        ("ann", "draw 4 cards", "Alice", "c1", False),
        ("ben", "draw 4 cards", "Bob", "c1", False),
    ]
    assert got[7] == [("ben", "raise with 2 cards", "Bob", "c1", False)]  # the aggressor
    assert got[8] == [("ann", "answer Bob's raise of 7", "Alice", "c1", False)]
    assert got[10] == [("ben", "answer Alice's raise of 19", "Bob", "c1", False)]
    # Bob escalates to Spades: both draw (Alice 5, her suit), then Bob still answers.
    assert got[11] == [
        ("ann", "draw 5 cards", "Alice", "c1", False),
        ("ben", "draw 4 cards", "Bob", "c1", False),
        ("ben", "answer Alice's raise of 19", "Bob", "c1", False),
    ]


def test_beer_run_round(tmp_path: Path) -> None:
    commands = registry.get("beer-run").demo().commands
    names = [type(c).__name__ for c in commands]
    opened, first_pool = names.index("OpenConflict"), names.index("AssemblePool")
    rolled = len(names) - 1 - names[::-1].index("Roll")
    allocated = len(names) - 1 - names[::-1].index("Allocate")
    got = after(tmp_path, "beer-run", {opened, first_pool - 1, rolled, allocated})
    assert got[opened] == [
        ("ann", "declare a goal", "Alice", "c1", False),
        ("gm", "declare a goal", "Bob", "c1", False),
    ]
    assert got[first_pool - 1] == [
        ("ann", "buy a pool", "Alice", "c1", False),
        ("gm", "buy a pool", "Bob", "c1", False),
    ]
    assert [s[:3] for s in got[rolled]] == [  # the upper hand spends first
        ("gm", "spend 2 pips on Alice's dice", "Bob"),
        ("ann", "spend 1 pip on Bob's dice", "Alice"),
    ]
    assert got[allocated] == [
        ("gm", "end the conflict", None, "c1", False),
        ("ann", "declare a goal for a new round, or cede", "Alice", "c1", True),
        ("gm", "declare a goal for a new round, or cede", "Bob", "c1", True),
    ]


def test_bid_and_challenge_rounds(tmp_path: Path) -> None:
    commands = registry.get("bid-and-challenge").demo().commands
    names = [type(c).__name__ for c in commands]
    opened, bid, challenged = names.index("OpenScene"), names.index("Bid"), names.index("Challenge")
    got = after(tmp_path, "bid-and-challenge", {opened, bid, challenged, challenged + 1})
    assert got[opened] == [("anna", "bid or pass", "Anna", "s1", False)]
    # Counter-clockwise from the bidder, each asked in turn.
    assert got[bid] == [
        ("cara", "challenge Anna's bid or pass", "Cara", "s1", False),
        ("ben", "challenge Anna's bid or pass", "Ben", "s1", False),
    ]
    assert got[challenged] == [  # recorded dice: the GM records the roll; the push may come
        ("anna", "push, or let the dice roll", "Anna", "s1", True),
        ("gm", "record the dice rolled", None, "s1", False),
    ]
    assert got[challenged + 1] == [("gm", "record the dice rolled", None, "s1", False)]


def test_ace_of_cards_checks_and_high_or_low(tmp_path: Path) -> None:
    commands = registry.get("ace-of-cards").demo().commands
    names = [type(c).__name__ for c in commands]
    opened, called, rolled = (names.index(n) for n in ("OpenConflict", "CallCheck", "RollCheck"))
    got = after(tmp_path, "ace-of-cards", {opened, called, rolled})
    assert got[opened] == [("ann", "take an action", "Kit", "c1", False)]
    assert got[called] == [
        ("ann", "roll check k1", "Kit", "c1", False),
        ("ann", "take an action", "Kit", "c1", False),
    ]
    # A critical: High or Low may draw 1 (an option, not a duty).
    assert got[rolled] == [
        ("ann", "draw 1 card (High or Low)", "Kit", "c1", True),
        ("ann", "take an action", "Kit", "c1", False),
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_pages_waiting_line_names_only_those_awaited(tmp_path: Path, ruleset: str) -> None:
    """Each name on a conflict's "Not acted yet" line is a character (or the GM) the
    conflict awaits: the line is built from the steps, so the two cannot disagree."""
    views = views_for(ruleset)
    assert views.panels is not None
    for _, command, folded in played(tmp_path, ruleset):
        found = awaiting(folded)
        for panel in views.panels(folded.state, None):
            if panel.conflict is None or not panel.waiting:
                continue
            awaited = {a.character or "GM" for a in found if a.conflict == panel.conflict}
            for label in panel.waiting:
                assert any(label.startswith(who) for who in awaited), (command, label, awaited)


def test_beer_run_a_recorded_helping_roll_waits_on_the_gm(tmp_path: Path) -> None:
    """With dice from the table, a helping pool's roll records the difficulty pool's faces
    too, which only the GM may: the GM is awaited for it, not the helper's player."""
    from tablelog.rulesets.beer_run.rules import commands as br

    def spec(text: str) -> list[br.AbilitySpec]:
        return [
            br.AbilitySpec(name=n, category=c, size=s)
            for n, c, s in (part.split(":") for part in text.split())
        ]

    table = Table(tmp_path / "t.db", "beer-run", options={"dice": "recorded"})
    try:
        table.given(
            br.CreateCharacter(
                player="ann",
                character="Alice",
                abilities=spec("Body:Body:d8 Mind:Mind:d6 Kit:Kit:d4"),
            )
        )
        table.given(
            br.CreateCharacter(
                player="cat",
                character="Cara",
                abilities=spec("Body:Body:d6 Mind:Mind:d6 Kit:Kit:d4"),
            )
        )
        table.given(
            br.CreateCharacter(
                player="gm", character="Bob", abilities=spec("Body:Body:d8 Mind:Mind:d8 Kit:Kit:d6")
            )
        )
        table.given(br.OpenConflict(sides={"heroes": ["alice", "cara"], "thugs": ["bob"]}))
        table.given(br.DeclareGoal(conflict="c1", actor="alice", text="Bob falls"))
        table.given(
            br.DeclareGoal(
                conflict="c1",
                actor="cara",
                text="Distract Bob",
                kind="helping",
                ally="alice",
                die="d8",
            )
        )
        table.given(br.DeclareGoal(conflict="c1", actor="bob", text="Alice falls", against="alice"))
        table.given(br.AssemblePool(conflict="c1", actor="cara", base=["Body", "Mind", "Kit"]))
        found = steps(awaiting(fold(table.store.stream(table.campaign))))
    finally:
        table.close()
    gm_steps = [s for s in found if s[0] == "gm"]
    assert any("record the faces of Cara's helping pool" in s[1] for s in gm_steps), found
    assert not any(s[0] == "cat" for s in found), found
