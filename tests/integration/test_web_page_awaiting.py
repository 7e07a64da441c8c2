"""The page model says whom the table waits on, per viewer: every step with since when (who
must act is public), the viewer's own marked, with the form that does each; the GM's page
takes the GM's steps, a player's its seat's, an observer's none. Improv's `awaiting` is
fixed here by a stand-in (tests/support/awaiting.py): the page reads the contract only."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from tablelog.commands import database
from tablelog.commands.access import Caller
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.page import Page, page_of
from tablelog.commands.reads import log_items
from tablelog.commands.table import execute
from tablelog.http.page import _TEMPLATES, tab_icon, tab_title
from tablelog.projections import registry
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store
from tests.support.awaiting import improv_awaiting

CAMPAIGN = "heist"
GM = Caller(campaign=CAMPAIGN, player="gina", role="gm", digest="g")
BOB = Caller(campaign=CAMPAIGN, player="bob", role="player", digest="b")
SUE = Caller(campaign=CAMPAIGN, player="sue", role="player", digest="s")
CAROL = Caller(campaign=CAMPAIGN, player="carol", role="observer", digest="c")


@pytest.fixture
def store(sqlite_target: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[EventStore]:
    views = registry.views_for("improv")
    replaced = dataclasses.replace(views, awaiting=improv_awaiting)
    monkeypatch.setitem(registry._LOADED, "improv", replaced)
    database.upgrade(sqlite_target)
    opened = open_store(sqlite_target)
    create_campaign(opened, CAMPAIGN, ruleset="improv", gm="gina")
    for command in (
        c.CreateCharacter(player="bob", character="Kit"),
        c.CreateCharacter(player="sue", character="Diana"),
        c.StartSession(),
        c.OpenConflict(conflict="c1", extended=True, rounds=3),
        c.SetStake(conflict="c1", side="Riso", gm=True, text="Riso keeps the bar"),
        c.SetStake(conflict="c1", side="Kit", opposes="Riso", text="Kit throws Riso out"),
        c.SetStake(conflict="c1", side="Diana", opposes="Riso", text="Diana gets the ledger"),
    ):
        execute(opened, CAMPAIGN, command)
    yield opened
    opened.close()


def page(store: EventStore, caller: Caller) -> Page:
    return page_of(store, CAMPAIGN, caller, head=store.head(CAMPAIGN))


def mine(shown: Page) -> list[tuple[str, bool]]:
    return [(s.sentence, s.optional) for s in shown.awaiting if s.mine]


def test_each_viewer_sees_every_step_and_its_own(store: EventStore) -> None:
    gm, bob, carol = page(store, GM), page(store, BOB), page(store, CAROL)
    # Who is public: everyone's page holds the same steps, with the same since.
    seats = [(s.player, s.sentence, s.since_seq, s.since) for s in gm.awaiting]
    assert seats == [(s.player, s.sentence, s.since_seq, s.since) for s in carol.awaiting]
    assert [s[0] for s in seats] == ["gm", "bob", "sue"]
    # Each began with the stake that put its side in the conflict.
    stakes = [i.seq for i in log_items(store, CAMPAIGN) if "stake" in i.text]
    assert [s[2] for s in seats] == [stakes[1], stakes[1], stakes[2]]
    assert gm.awaiting[0].since.endswith("Z")
    # The GM's page takes the GM's steps; a player's, its seat's; an observer's, none.
    assert (gm.moves, mine(gm)) == (1, [("play a card face down (c1)", False)])
    assert (bob.moves, mine(bob)) == (1, [("play a card face down (c1)", False)])
    assert (carol.moves, mine(carol)) == (0, [])
    # Each own step links to the one form that does it; nobody else's step links anywhere.
    bobs = next(s for s in bob.awaiting if s.mine)
    assert bobs.target == next(f.id for f in bob.forms if f.title == "Play a card face down")
    assert all(s.target is None for s in bob.awaiting if not s.mine)
    # Whom the table waits on, oldest first, the viewer as "you".
    assert [w.who for w in bob.waiting] == ["the GM", "you", "sue"]
    assert [w.who for w in carol.waiting] == ["the GM", "bob", "sue"]


def test_a_move_moves_the_steps_and_says_what_happened(store: EventStore) -> None:
    before = page(store, BOB)
    assert page(store, BOB) is before  # kept per head
    execute(store, CAMPAIGN, c.PlayCard(conflict="c1", side="Kit", card="KS"))
    bob, sue = page(store, BOB), page(store, SUE)
    assert (bob.moves, mine(bob)) == (0, [])
    assert sue.moves == 1
    assert "bob" not in [w.who for w in sue.waiting]
    # The live region's words: the log's, as each viewer may read them (no card face).
    said = bob.said[-1]
    assert said.seq == bob.seq
    assert said.text == log_items(store, CAMPAIGN, since=bob.seq, viewer="bob")[0].text
    assert said.text == "c1 round 1: kit plays a card face down"
    assert sue.said[-1].text == said.text
    for side, card in (("Diana", "2C"), ("Riso", "5H")):
        execute(store, CAMPAIGN, c.PlayCard(conflict="c1", side=side, card=card))
    gm = page(store, GM)
    assert mine(gm) == [("reveal the round (c1)", False)]
    assert gm.awaiting[0].target == next(f.id for f in gm.forms if f.title == "Reveal the round")
    assert [w.who for w in page(store, BOB).waiting] == ["the GM"]


def test_an_option_is_not_a_move_and_links_to_its_conflict(store: EventStore) -> None:
    for side, card in (("Kit", "KS"), ("Diana", "2C"), ("Riso", "5H")):
        execute(store, CAMPAIGN, c.PlayCard(conflict="c1", side=side, card=card))
    execute(store, CAMPAIGN, c.Reveal(conflict="c1"))  # Kit beats Riso: a victory card
    bob = page(store, BOB)
    assert mine(bob) == [
        ("play a card face down (c1)", False),
        ("give a victory card (c1)", True),
    ]
    assert bob.moves == 1
    option = next(s for s in bob.awaiting if s.optional)
    assert option.target == "conflict-c1"  # no form of the page gives one: its panel
    assert [w.who for w in bob.waiting] == ["the GM", "you", "sue"]  # an option waits on none


def test_the_banner_title_and_icon_say_it(store: EventStore) -> None:
    bob, carol = page(store, BOB), page(store, CAROL)
    banner = _TEMPLATES.get_template("awaits.html").render(page=bob, texts=[])
    target = next(s.target for s in bob.awaiting if s.mine)
    assert f'<strong>Your move:</strong> <a href="#{target}">play a card face down (c1)</a>' in (
        banner
    )
    assert "The table waits on the GM since <time" in banner
    assert tab_title(bob) == "(1) Your move — heist"
    assert tab_icon(bob).startswith("/assets/icon-move.svg")
    watching = _TEMPLATES.get_template("awaits.html").render(page=carol, texts=[])
    assert "Your move" not in watching
    assert "The table waits on the GM since" in watching
    assert tab_title(carol) == "heist · tablelog"
    assert tab_icon(carol).startswith("/assets/icon.svg")


def test_a_replay_waits_on_nobody(store: EventStore) -> None:
    old = page_of(store, CAMPAIGN, BOB, at=3)
    assert (old.awaiting, old.moves, old.said) == ([], 0, [])
