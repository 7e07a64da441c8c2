"""Night Terrors' page hooks as transcripts (recorded deck): what each caller (the GM, each
player, an observer) is offered at each point of a conflict, and only that; who the table
waits for; and that no page of a player holds a card of another's hand. The page model is
built as the service builds it (`commands.page.page_of`)."""

from __future__ import annotations

import re

import msgspec

from tablelog.commands.access import Caller
from tablelog.commands.page import Page, own_reads, page_of
from tablelog.commands.table import campaign_state
from tablelog.projections.page import Panel
from tablelog.projections.views import state_view
from tablelog.rules.common import StartSession
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.views.page_panels import pretty
from tests.unit.night_terrors.table import (
    ALICE,
    BOB,
    Table,
    Tables,
    draw,
    open_,
    raise_,
    see,
)

MORT = c.CreateCharacter(player="gm", character="Mort", card="JC")  # the GM's NPC
# Alice is the King of Spades, Bob the Queen of Hearts: NT-1's cast, dealt its cards.
ALICE_SESSION = ("6D", "KD", "2C", "3C")
BOB_SESSION = ("7C", "5H", "2H", "3H")
MORT_SESSION = ("4D", "5D", "8S", "9S")
_CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[CDHS♣♦♥♠](?![0-9A-Za-z])")
_SUIT = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"})


def page(table: Table, player: str, role: str = "player") -> Page:
    caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
    return page_of(table.store, "t", caller)


def gm(table: Table) -> Page:
    return page(table, "gm", "gm")


def titles(found: Page, conflict: str | None = "c1") -> set[str]:
    return {f.title for f in found.forms if f.conflict == conflict}


def panel(found: Page, key: str) -> Panel:
    return next(p for p in found.panels if p.key == key)


def cards_in(found: Page) -> set[str]:
    """Every card code anywhere in a page model (faces, choices, fixed values, lines), but
    the face cards no character is yet, which the form creating a character offers."""
    forms = [f for f in found.forms if not f.path.endswith("/characters")]
    text = msgspec.json.encode(msgspec.structs.replace(found, forms=forms)).decode()
    return {code.translate(_SUIT) for code in _CARD.findall(text)}


def dealt(new: Tables, **options: str) -> Table:
    """Alice, Bob and the GM's Mort, a session started and its hands recorded."""
    return new({"deck": "recorded", **options}).given(
        ALICE,
        BOB,
        MORT,
        StartSession(),
        draw("Alice", *ALICE_SESSION),
        draw("Bob", *BOB_SESSION),
        draw("Mort", *MORT_SESSION),
    )


def test_a_recorded_draw_is_offered_to_its_player_and_the_dealer(new: Tables) -> None:
    table = new({"deck": "recorded"}).given(ALICE, BOB, StartSession())
    assert titles(page(table, "alice"), None) >= {"Record the 4 cards Alice drew (session)"}
    assert not any("Bob drew" in t for t in titles(page(table, "alice"), None))
    assert {"Record the 4 cards Alice drew (session)", "Record the 4 cards Bob drew (session)"} <= (
        titles(gm(table), None)
    )
    # No choices: the cards left in the deck would tell what the other hands hold.
    form = next(f for f in page(table, "alice").forms if f.title.startswith("Record"))
    assert form.path == "/night-terrors/draws"
    assert form.fixed == {"character": "alice"}
    assert [f.choices for f in form.fields] == [[]]
    assert "Alice (draws 4 cards)" not in str(page(table, "bob").panels)  # no conflict yet
    assert "Open a conflict" not in titles(page(table, "alice"), None)  # her draw comes first


def test_each_caller_is_offered_what_it_may_do_now(new: Tables) -> None:
    table = dealt(new).given(open_("guns", "Alice", "Bob"))
    # The conflict's draws come first: Alice draws 5 (Spades is her suit), Bob 4.
    assert panel(gm(table), "conflict-c1").waiting == [
        "Alice (draws 5 cards)",
        "Bob (draws 4 cards)",
    ]
    assert titles(page(table, "alice")) == {
        "Record the 5 cards Alice drew (conflict)",
        "Alice gives (leaves the conflict)",  # a character may give at any time
    }
    table.given(draw("Alice", "7D", "8D", "9D", "10D", "AD"), draw("Bob", "4C", "6C", "8C", "9C"))
    # The aggressor raises first; nobody answers before the raise.
    assert panel(gm(table), "conflict-c1").waiting == ["Alice (raise)"]
    alice = page(table, "alice")
    assert titles(alice) == {"Alice raises", "Alice gives (leaves the conflict)"}
    raising = next(f for f in alice.forms if f.title == "Alice raises")
    assert raising.path == "/night-terrors/conflicts/c1/raises"
    assert raising.fixed == {"character": "alice"}
    assert [f.choices for f in raising.fields if f.name == "cards"] == [table.who("alice").hand]
    assert titles(page(table, "bob")) == {"Bob gives (leaves the conflict)"}
    # NT-1: 6D + KS would be the vector; Alice holds KD here: 6 doubled = 12, no trump.
    table.given(raise_("Alice", "6D", "KD"))
    assert panel(gm(table), "conflict-c1").waiting == ["Bob (answer 12)"]
    assert titles(page(table, "alice")) == set()  # her raise waits: she may not even give
    # Bob can meet 12, so only a see or a give: push and escalation are for one who cannot.
    assert titles(page(table, "bob")) == {"Bob sees the raise", "Bob gives (leaves the conflict)"}
    gm_titles = titles(gm(table))
    assert "Abandon the conflict (nobody wins)" in gm_titles
    assert not any(t.startswith(("Alice", "Bob")) for t in gm_titles)  # not the GM's characters
    assert "Start a scene (hands reset)" not in titles(gm(table), None)  # not mid-conflict
    table.given(see("Bob", "7C", "5H"))
    assert panel(gm(table), "conflict-c1").waiting == ["Bob (raise)"]
    assert titles(page(table, "bob")) == {"Bob raises", "Bob gives (leaves the conflict)"}
    # An observer watches: no form at all, and every hand a row of backs.
    watcher = page(table, "carol", "observer")
    assert watcher.forms == []
    row = panel(watcher, "conflict-c1").grid.rows[0]  # type: ignore[union-attr]
    assert row[0] == "Alice (K♠, alice)"
    assert [(card.face, card.note) for card in row[2]] == [
        (None, "7 cards")
    ]  # 4 + 5 drawn - 2 raised


def test_one_who_cannot_see_pushes_escalates_or_gives_then_pays(new: Tables) -> None:
    table = new({"deck": "recorded", "pay": "ask"}).given(
        ALICE,
        BOB,
        StartSession(),
        draw("Alice", "AC", "2C", "3C", "4C"),
        draw("Bob", *BOB_SESSION),
        open_("physical", "Bob", "Alice"),  # Hearts: Bob's suit, so he draws 5
        draw("Alice", "AD", "2D", "AH", "2S"),
        draw("Bob", "9H", "10H", "4S", "5S", "6S"),
        raise_("Bob", "10H", "9H"),  # 19, trump value 10
    )
    # Alice's whole hand makes 16: she cannot see 19, so she may push, escalate or give.
    alice = page(table, "alice")
    assert titles(alice) == {
        "Alice pushes (pays the difference)",
        "Alice escalates (everyone draws)",
        "Alice gives (leaves the conflict)",
    }
    up = next(f for f in alice.forms if f.title.startswith("Alice escalates"))
    assert [(f.choices, f.shown) for f in up.fields] == [
        (["melee", "guns"], ["melee (Clubs)", "guns (Spades)"])
    ]
    # A push of 4C + 3C: price 19 - 7 = 12, and trump fallout 10 (no Hearts in it).
    table.given(c.Push(conflict="c1", character="Alice", cards=["4C", "3C"]))
    owed = table.state.costs["alice"]
    first = owed[0]
    found = page(table, "alice")
    pay = next(f for f in found.forms if f.title.startswith("Alice pays"))
    cause = first.cause.replace("_", " ")
    assert pay.title == f"Alice pays {first.amount} ({cause}) in Tears or Sweat"
    assert pay.conflict == "c1"
    assert pay.path == "/night-terrors/payments"
    assert [(f.name, f.default) for f in pay.fields] == [
        ("blood", 0),
        ("sweat", 0),
        ("tears", first.amount),
    ]
    debts = ", ".join(f"owes {c.amount} ({c.cause.replace('_', ' ')})" for c in owed)
    assert panel(found, "conflict-c1").waiting == [f"Alice ({debts})"]
    assert titles(page(table, "bob")) == {"Bob gives (leaves the conflict)"}  # no raise yet
    table.given(
        c.Pay(character="Alice", sweat=owed[0].amount),
        c.Pay(character="Alice", tears=owed[1].amount),
    )
    assert not any(t.startswith("Alice pays") for t in titles(page(table, "alice")))
    assert panel(gm(table), "conflict-c1").waiting == ["Alice (raise)"]


def test_no_page_of_a_player_holds_another_hand(new: Tables) -> None:
    table = dealt(new).given(open_("guns", "Alice", "Bob"))
    steps = [
        draw("Alice", "7D", "8D", "9D", "10D", "AD"),
        draw("Bob", "4C", "6C", "8C", "9C"),
        raise_("Alice", "6D", "KD"),
        see("Bob", "7C", "5H"),
        raise_("Bob", "8C", "9C"),
    ]
    for step in [None, *steps]:
        if step is not None:
            table.given(step)
        hands = {k: set(ch.hand) for k, ch in table.state.characters.items()}
        for player, own in (("alice", "alice"), ("bob", "bob"), ("gm", "mort")):
            seen = page(table, player, "gm" if player == "gm" else "player")
            others = set().union(*(h for k, h in hands.items() if k != own))
            assert not cards_in(seen) & others, (player, step)
            assert hands[own] <= cards_in(seen), (player, step)  # its own hand, face up
            # Its own hand face up: above its conflict's table, or in a panel of its own.
            place = "conflict-c1" if own in table.state.conflicts["c1"].still_in else f"hand-{own}"
            faces = {card.face for card in panel(seen, place).cards if card.mine}
            assert {pretty(card) for card in hands[own]} == faces, (player, step)
        assert not cards_in(page(table, "carol", "observer")) & set().union(*hands.values())


def test_the_generic_reads_panel_tries_each_character_and_keeps_only_the_viewers(
    new: Tables,
) -> None:
    """The generic page's `own_reads` (for a ruleset without panels), on Night Terrors'
    `hand` read: each read refuses a hand that is not the viewer's, so alice gets hers only."""
    table = dealt(new)
    folded = campaign_state(table.store, "t")
    found = own_reads(folded, "alice", state_view(folded, "alice"))
    assert [p.title for p in found] == ["Hand of alice"]
    assert dict(found[0].facts)["cards"] == ", ".join(ALICE_SESSION)
    assert own_reads(folded, "observer:carol", state_view(folded, "observer:carol")) == []


def test_the_gm_plays_its_npc_and_may_abandon_a_stalled_conflict(new: Tables) -> None:
    table = dealt(new).given(
        open_("talk", "Mort", "Alice"),  # Diamonds
        draw("Mort", "6H", "7H", "8H", "9H"),
        draw("Alice", "4S", "5S", "6S", "7S"),
    )
    master = gm(table)
    assert {"Mort raises", "Abandon the conflict (nobody wins)"} <= titles(master)
    above = {card.face for card in panel(master, "conflict-c1").cards}
    assert above == {pretty(card) for card in table.who("mort").hand}
    assert not any(t.startswith("Alice") for t in titles(master))
    # Alice sees Mort's hand as one back with its size, and her own face up.
    row = panel(page(table, "alice"), "conflict-c1").grid.rows  # type: ignore[union-attr]
    assert row[1][0] == "Mort (J♣, GM)"
    assert [(card.face, card.note) for card in row[1][2]] == [(None, "8 cards")]
    table.given(c.Abandon(conflict="c1", reason="Mort's player left"))
    # Ended: still on the page with its outcome, and whoever took part may narrate.
    ended = panel(page(table, "alice"), "conflict-c1")
    assert ended.title == "Conflict c1 (ended)"
    assert ended.waiting == []
    assert titles(page(table, "alice")) == {"Alice narrates the outcome"}
    assert "Mort narrates the outcome" in titles(gm(table))
    assert "Start a scene (hands reset)" in titles(gm(table), None)


def test_the_narrate_form_of_an_ended_conflict_is_not_folded_away(new: Tables) -> None:
    """An ended conflict folds its story under its outcome; the form narrating it, which
    its winner may still send, stood inside the fold, out of sight (the browser test of a
    whole campaign could not fill it in): it comes after the fold."""
    from tablelog.http.page import _TEMPLATES, tab_icon, tab_title

    table = dealt(new).given(
        open_("talk", "Mort", "Alice"),
        draw("Mort", "6H", "7H", "8H", "9H"),
        draw("Alice", "4S", "5S", "6S", "7S"),
        c.Abandon(conflict="c1", reason="Mort's player left"),
    )
    found = page(table, "alice")
    assert panel(found, "conflict-c1").closed
    html = _TEMPLATES.get_template("table.html").render(
        page=found, texts=found.texts, fragment=True, tab_title=tab_title, tab_icon=tab_icon
    )
    assert _folded_forms(html) == []


def _folded_forms(html: str) -> list[str]:
    """The ids of the forms inside a closed conflict's fold (`details.closed-conflict`)."""
    from html.parser import HTMLParser

    folded: list[str] = []
    stack: list[bool] = []  # for each open <details>: whether it is a closed conflict's

    class Reader(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "details":
                stack.append(("class", "closed-conflict") in attrs)
            elif tag == "form" and any(stack):
                folded.append(dict(attrs).get("id") or "")

        def handle_endtag(self, tag: str) -> None:
            if tag == "details":
                stack.pop()

    Reader().feed(html)
    return folded
