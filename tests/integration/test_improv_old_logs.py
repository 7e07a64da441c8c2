"""Improv logs written before issue 14 (ruleset version 2, tests/fixtures/improv-ruleset-2.*)
still read, verify, audit and play on.

The audit recomputes every recorded decision with today's rules: the decisions issue 14 found
wrong (an unopposed stake listed among a round's winners and banking its card; equal piles
decided by suit before value) are reported, and nothing else is. The stuck managed campaign
plays on blind and ends its session; the second Hand-of-Fate loss that waited for a choice is
answered; a face-down round is abandoned.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelog.commands.audit import account_of
from tablelog.commands.log import verify
from tablelog.commands.reads import show
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import RuleViolation
from tablelog.projections.views import state_view
from tablelog.rules.common import Command, EndSession
from tablelog.rulesets.improv.events import CardPlayed, ConflictClosed, FateChosen
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "improv-ruleset-2.sqlite.gz"
RECORDED, MANAGED = "old-recorded", "old-managed"
# What today's audit finds in the old recorded campaign, and nothing more: conflict x's
# reveals listed the unopposed Goons among the winners (round 2 also banked their 3♠);
# conflict w's close let K♠ beat K♥ on suit before 5♣ beat 4♣ on value.
KNOWN = [
    (237, "improv.round_revealed", "winners"),
    (242, "improv.round_revealed", "discarded"),
    (242, "improv.round_revealed", "victory"),
    (242, "improv.round_revealed", "winners"),
    (260, "improv.conflict_closed", "beats"),
    (260, "improv.conflict_closed", "final"),
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    copy = tmp_path / "old.db"
    copy.write_bytes(gzip.decompress(FIXTURE.read_bytes()))
    opened = open_store(str(copy))
    try:
        yield opened
    finally:
        opened.close()


def found(store: EventStore, campaign: str) -> list[tuple[int, str, str]]:
    account = account_of(store.read(campaign))
    return [(d.seq, d.type, d.field) for d in account.discrepancies]


def do(store: EventStore, campaign: str, command: Command) -> list[object]:
    return [e.event() for e in execute(store, campaign, command, ruleset="improv")]


def test_an_old_log_verifies_and_its_audit_names_only_the_old_bugs(store: EventStore) -> None:
    assert {h.name: h.seq for h in store.campaigns()} == {RECORDED: 285, MANAGED: 29}
    assert verify(store).ok
    assert found(store, RECORDED) == KNOWN
    assert found(store, MANAGED) == []
    folded = campaign_state(store, RECORDED)  # past a snapshot of version 2: folded anew
    view = state_view(folded)
    assert view["conflicts"]["x"]["beats"] == [["riso", "kit"], ["riso", "diana"]]  # as recorded
    assert view["conflicts"]["y"]["sides"]["kit"]["status"] == "in"
    for conflict in ("x", "w", "y", "z"):
        assert show(store, RECORDED, conflict, None).lines


def test_an_old_recorded_campaign_plays_on(store: EventStore) -> None:
    # y: Kit's second Hand-of-Fate loss waits for a choice, as the old rules had it.
    with pytest.raises(RuleViolation) as waiting:
        do(store, RECORDED, c.PlayCard(conflict="y", side="Riso", card="5S"))
    assert "kit lost a second time and is destroyed" in waiting.value.message
    assert "--eliminate or --stay" not in waiting.value.message
    [chosen] = do(store, RECORDED, c.Fate(conflict="y", side="Kit", choice="eliminate"))
    assert isinstance(chosen, FateChosen)
    assert chosen.outcome == "destroyed"
    # z: a simple conflict face down, with Kit's token on his K♥ against the Guard's Q♦.
    [closed] = do(store, RECORDED, c.Abandon(conflict="z", reason="the alarm is a dud"))
    assert isinstance(closed, ConflictClosed)
    assert closed.cards == {"kit": "KH", "guard": "QD"}
    assert [(m.source, m.to) for m in closed.token_moves] == [("table", "bank"), ("bank", "gm")]
    do(store, RECORDED, c.PlayCard(conflict="y", side="Riso", card="5S"))
    do(store, RECORDED, c.Reveal(conflict="y"))
    do(store, RECORDED, c.Close(conflict="y"))
    do(store, RECORDED, EndSession())
    assert verify(store).ok
    assert found(store, RECORDED) == KNOWN


def test_an_old_managed_campaign_stuck_on_an_empty_hand_plays_on(store: EventStore) -> None:
    assert campaign_state(store, MANAGED).state.hands["bob"] == []
    [blind] = do(store, MANAGED, c.PlayCard(conflict="a", side="Kit"))
    assert isinstance(blind, CardPlayed)
    assert (blind.from_deck, blind.deck, blind.unseen) == (True, "players", True)
    for conflict in ("a", "b"):
        do(store, MANAGED, c.Abandon(conflict=conflict, reason="the fight moves elsewhere"))
    assert len(campaign_state(store, MANAGED).state.hands["bob"]) == 4
    do(store, MANAGED, EndSession())
    assert verify(store).ok
    assert found(store, MANAGED) == []
