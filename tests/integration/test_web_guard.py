"""Guard and preview (issue 29): an irreversible or costly step asks once and says what it
will do before it is sent. The preview decides the command as the service would now, appends
nothing, says the events in the log's words as the caller would see them, never draws a card
or a die ahead of time, and refuses in the rules' sentence what the rules refuse. Through the
service's own route with a signed-in browser's session (cookie, CSRF, Origin), on SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from tablelog.commands import access, database
from tablelog.commands.access import Caller
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.page import page_of
from tablelog.commands.preview import preview
from tablelog.commands.table import campaign_state, execute
from tablelog.http.app import create_app
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store

BASE = "http://testserver.local"
BOB = Caller(campaign="heist", player="bob", role="player", digest="b")
GM = Caller(campaign="heist", player="gina", role="gm", digest="g")


@pytest.fixture
def store(target: str) -> Iterator[EventStore]:
    database.upgrade(target)
    opened = open_store(target)
    create_campaign(opened, "heist", ruleset="improv", gm="gina", options={"deck_mode": "managed"})
    for command in (
        c.CreateCharacter(player="bob", character="Kit"),
        c.CreateCharacter(player="sue", character="Diana"),
        c.StartSession(),
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Riso", gm=True, text="Riso keeps the bar"),
        c.SetStake(conflict="c1", side="Kit", opposes="Riso", text="Kit throws Riso out"),
    ):
        execute(opened, "heist", command)
    yield opened
    opened.close()


def hand(store: EventStore, player: str) -> list[str]:
    cards: list[str] = campaign_state(store, "heist").state.hands[player]
    return cards


def test_a_preview_says_what_a_step_does_and_appends_nothing(store: EventStore) -> None:
    execute(store, "heist", c.Award(giver="sue", receiver="bob", conflict="c1"))
    head = store.head("heist")
    # Bob's token passed for narration: asked first, and said in the log's words.
    bribe = preview(store, "heist", BOB, "/improv/bribes", {"giver": "bob", "receiver": "sue"})
    assert bribe.refused is None
    assert bribe.will == ["bob spends a story-token on a bribe (to sue)"]
    # ... and what it leaves on the table: the tokens each holds after it.
    assert bribe.then == ["tokens / players / bob: 1 → 0", "tokens / players / sue: 0 → 1"]
    assert not bribe.hidden
    assert not bribe.chance
    # The GM's abandon: what it does, said before.
    dropped = preview(store, "heist", GM, "/improv/conflicts/c1/abandon", {"reason": "rain"})
    assert dropped.refused is None
    assert dropped.will
    assert all("c1" in line for line in dropped.will)
    # The rules' own sentence, for the caller: no token to pass to oneself.
    itself = preview(store, "heist", BOB, "/improv/bribes", {"giver": "bob", "receiver": "bob"})
    assert itself.refused is not None
    assert not itself.will
    # A body that makes no command: one sentence.
    wrong = preview(store, "heist", BOB, "/improv/bribes", {"giver": "bob", "receiver": 5})
    assert wrong.refused is not None
    assert wrong.refused.startswith("bad-body: the form does not make a command")
    assert store.head("heist") == head  # nothing was appended by any of them


def test_only_a_step_that_asks_first_is_previewed(store: EventStore) -> None:
    """A face-down play is one tap: no client may have it decided ahead of time, nor any
    path no form of the caller's page sends to."""
    card = hand(store, "bob")[0]
    plays = preview(
        store, "heist", BOB, "/improv/conflicts/c1/plays", {"side": "kit", "card": card}
    )
    assert plays.refused == (
        "no-preview: this step is sent as it is; the page offers no preview of it"
    )
    assert not plays.will
    nowhere = preview(store, "heist", BOB, "/nowhere", {})
    assert nowhere.refused == plays.refused


def test_a_preview_never_tells_what_the_deck_holds(store: EventStore) -> None:
    """A redraw from the managed deck: its events name cards an observer would not see (the
    ones discarded and drawn), so none is said ahead: the preview cannot be used to look at
    the top of the deck before deciding to draw. It says that more is seen once done."""
    execute(store, "heist", c.Award(giver="sue", receiver="bob", conflict="c1"))
    head = store.head("heist")
    cards = hand(store, "bob")
    said = preview(store, "heist", BOB, "/improv/redraws", {"player": "bob", "cards": cards[:1]})
    assert said.refused is None
    assert said.hidden
    assert said.will == []
    assert store.head("heist") == head


def test_irreversible_forms_ask_once_with_their_question(store: EventStore) -> None:
    gm = page_of(store, "heist", GM, head=store.head("heist"))
    asked = {f.title: f.confirm for f in gm.forms if f.confirm}
    assert asked["Close the conflict"].startswith("Close the conflict?")
    assert asked["Abandon the conflict"].startswith("Abandon the conflict?")
    bob = page_of(store, "heist", BOB, head=store.head("heist"))
    plays = next(f for f in bob.forms if f.title == "Play a card face down")
    assert plays.confirm == ""  # an ordinary move is one tap
    assert not plays.preview


def _signed_in(client: TestClient[Any], store: EventStore, player: str) -> str:
    link = access.grant(store, "heist", player, "player", link=True).token
    answer = client.post(
        "/campaigns/heist/play/session", json={"token": link}, headers={"Origin": BASE}
    )
    assert answer.status_code == 201, answer.text
    page = client.get("/campaigns/heist/play")
    marker = '<meta name="csrf-token" content="'
    return page.text.split(marker, 1)[1].split('"', 1)[0]


def test_the_service_previews_for_the_signed_in_browser(store: EventStore) -> None:
    execute(store, "heist", c.Award(giver="sue", receiver="bob", conflict="c1"))
    with TestClient(create_app(store), base_url=BASE) as client:
        csrf = _signed_in(client, store, "bob")
        head = store.head("heist")
        ask = {"path": "/improv/bribes", "body": {"giver": "bob", "receiver": "sue"}}
        answer = client.post(
            "/campaigns/heist/play/preview",
            json=ask,
            headers={"Origin": BASE, "X-CSRF-Token": csrf},
        )
        assert answer.status_code == 200, answer.text
        assert answer.json() == {
            "refused": None,
            "will": ["bob spends a story-token on a bribe (to sue)"],
            "then": ["tokens / players / bob: 1 → 0", "tokens / players / sue: 0 → 1"],
            "hidden": False,
            "chance": False,
        }
        # A write-shaped request: the session's CSRF token is needed, as for any POST.
        bare = client.post("/campaigns/heist/play/preview", json=ask, headers={"Origin": BASE})
        assert bare.status_code == 403
        assert store.head("heist") == head
