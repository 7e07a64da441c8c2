"""Bid & Challenge's page hooks as a transcript, built as the service builds them (`page_of`,
whose core tries each action's probe against the rules): each phase of a round offers each
caller what the round waits for from them, and nothing else; the panels show the scene in
the ruleset's own terms for the GM, each player and an observer."""

from __future__ import annotations

from tablelog.commands.access import Caller
from tablelog.commands.page import Page, page_of
from tablelog.projections.page import Card, Panel
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.views import VIEWS
from tablelog.storage import EventStore
from tests.unit.bid_and_challenge.table import (
    RECORDED,
    SCENE,
    Tables,
    bid,
    challenge,
    pass_,
    power,
    push,
    roll,
    seated,
)

ROLES = {"gm": "gm", "watcher": "observer"}


def page(store: EventStore, player: str) -> Page:
    role = ROLES.get(player, "player")
    caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
    return page_of(store, "t", caller)


def titles(store: EventStore, player: str, conflict: str | None = SCENE) -> list[str]:
    return [f.title for f in page(store, player).forms if f.conflict == conflict]


def panel(found: Page, key: str) -> Panel:
    return next(p for p in found.panels if p.key == key)


def cards_of(found: Panel) -> list[Card]:
    assert found.grid is not None
    return [
        card for row in found.grid.rows for cell in row if isinstance(cell, list) for card in cell
    ]


def test_each_phase_offers_what_the_round_waits_for(new: Tables) -> None:
    table = new(RECORDED).given(seated())
    store = table.store
    # Nobody has a Discard yet: the rules refuse a restore, so its form is not offered.
    assert titles(store, "anna") == [
        "Anna bids: define a detail",
        "Anna bids: strike a card",
        "Anna bids: create a universe card",
        "Anna passes",
    ]
    assert titles(store, "ben") == titles(store, "cara") == []
    assert titles(store, "gm") == ["Pass for Anna", "End the scene"]
    assert page(store, "watcher").forms == []
    assert panel(page(store, "gm"), "conflict-s1").waiting == ["Anna (anna): bid or pass"]

    table.given(bid("Anna", "Brawn", "Sword"))
    # The offer goes counter-clockwise: Cara first. Her Deck is empty; the universe deck
    # is not, so she may still challenge.
    waiting = panel(page(store, "anna"), "conflict-s1").waiting
    assert waiting == ["Cara (cara): challenge or pass", "Ben (ben): challenge or pass"]
    assert titles(store, "cara") == ["Cara challenges", "Cara passes the challenge"]
    assert titles(store, "anna") == titles(store, "ben") == []
    assert titles(store, "gm") == ["Pass the challenge for Cara"]  # mid-round: no end
    form = next(f for f in page(store, "cara").forms if f.title == "Cara challenges")
    assert [f.choices for f in form.fields if f.name == "universe"] == [["storm", "crowd"]]

    table.given(pass_("Cara"), challenge("Ben", "Dodge", universe=["Storm"]))
    assert titles(store, "anna") == ["Anna pushes"]
    assert titles(store, "ben") == []
    record = next(f for f in page(store, "gm").forms if f.conflict == SCENE)
    assert record.title == "Record the dice (no push)"
    assert [f.label.split(",")[0] for f in record.fields] == ["Anna's 2 faces", "Ben's 2 faces"]

    table.given(push("Anna", "QuickWits"))
    assert titles(store, "anna") == []
    assert titles(store, "gm") == ["Record the dice"]
    assert panel(page(store, "ben"), "conflict-s1").waiting == ["GM: record the dice rolled"]

    table.given(roll([4, 2, 1], [5, 6]))  # Ben wins; QuickWits goes to Anna's Discard
    # Round 2, Ben active: now a Discard holds a card, so a restore is offered too.
    assert titles(store, "ben") == [
        "Ben bids: define a detail",
        "Ben bids: strike a card",
        "Ben bids: restore cards",
        "Ben bids: create a universe card",
        "Ben passes",
        "Ben narrates round 1 (won)",
    ]
    restore = next(f for f in page(store, "ben").forms if f.title == "Ben bids: restore cards")
    assert restore.fixed == {"active": "ben", "cards": [], "power": {"type": "restore"}}
    assert [f.choices for f in restore.fields if f.name == "power.target"] == [["anna"]]
    assert [f.choices for f in restore.fields if f.name == "power.cards"] == [["quickwits"]]
    found = panel(page(store, "watcher"), "conflict-s1")
    assert "  ben (challenger) rolls 5+6+1 = 12" in found.lines


def test_managed_dice_the_active_player_rolls_or_pushes(new: Tables) -> None:
    table = new().given(seated(), bid("Anna", "Brawn"), pass_("Cara"), challenge("Ben", "Dodge"))
    store = table.store
    assert titles(store, "anna") == ["Anna pushes", "Roll the dice (no push)"]
    assert titles(store, "ben") == []
    assert titles(store, "gm") == ["Roll the dice (no push)"]
    table.given(push("Anna"))
    assert titles(store, "anna") == ["Roll the dice"]


def test_panels_for_the_gm_each_player_and_an_observer(new: Tables) -> None:
    table = new(RECORDED).given(
        seated(), bid("Anna", "Brawn", "Sword"), pass_("Cara"), challenge("Ben", "Dodge")
    )
    store = table.store
    pages = {who: page(store, who) for who in ("gm", "anna", "ben", "cara", "watcher")}
    for who, found in pages.items():
        keys = [p.key for p in found.panels]
        own = [k for k in keys if k.startswith("deck-")]
        assert own == ([f"deck-{who}"] if who in ("anna", "ben", "cara") else []), who
        scene = panel(found, "conflict-s1")
        assert ("phase", "push (optional), then the roll") in scene.facts
        assert ("seating (clockwise)", "Anna → Ben → Cara") in scene.facts
        # Cards in Play are face up for everyone (nothing in this ruleset is hidden); only
        # the viewer's own are marked as theirs.
        committed = cards_of(scene)
        assert [c.face for c in committed] == ["Brawn 1d6+2", "Sword 1d6+1", "Dodge 1d6+1"]
        assert [c.mine for c in committed] == [who == "anna"] * 2 + [who == "ben"], who
    grid = panel(pages["cara"], "conflict-s1").grid
    assert grid is not None
    assert grid.header == ["Seat", "Flow / Deck", "This round", "In Play", "Roll"]
    assert [row[:3] for row in grid.rows] == [
        ["Anna (anna)", "3 / 3", "bids"],
        ["Ben (ben)", "2 / 2", "challenges"],
        ["Cara (cara)", "2 / 0", "passed the challenge"],
    ]
    deck = panel(pages["anna"], "deck-anna")
    assert [c.face for c in deck.cards] == ["QuickWits 1d6", "Persuade 1d6+1", "Body 1d6"]
    assert ("Play", "Brawn 1d6+2, Sword 1d6+1") in deck.facts
    assert "Your deck: Ben" not in str(pages["anna"].panels)
    assert panel(pages["cara"], "deck-cara").lines == [
        "Cara's Deck is empty: it may still challenge."
    ]
    # Face up for all because the ruleset's visibility (the service's filter) hides no
    # field of any event from anyone: the panels show what the views give.
    state = table.state
    for envelope in table.log():
        for who in ("gm", "anna", "ben", "cara", "observer:watcher"):
            assert list(VIEWS.hidden_fields(envelope.event(), who, state)) == [], envelope.type
    assert panel(pages["watcher"], "universe") == panel(pages["gm"], "universe")


def test_the_gm_plays_its_own_character_and_runs_the_table(new: Tables) -> None:
    table = new(RECORDED).given(
        c.RegisterDeck(
            player="gm", character="Ogre", flow=2, cards=[c.CardSpec(name="Club", value="1d6+2")]
        ),
        c.RegisterDeck(player="dee", character="Dee", flow=1, cards=[]),
    )
    store = table.store
    gm = page(store, "gm")
    assert [p.key for p in gm.panels if p.key.startswith("deck-")] == ["deck-ogre"]
    controls = [f.title for f in gm.forms]
    assert "Start a session" in controls
    assert "Start a scene" in controls
    # Dee's Deck is empty: she may die for good (the rules say so, and only of her).
    kill = next(f for f in gm.forms if f.title == "A character dies for good")
    assert [f.choices for f in kill.fields if f.name == "character"] == [["dee"]]
    # A player may ask for a scene in its own character's name only.
    start = next(f for f in page(store, "dee").forms if f.title == "Start a scene")
    assert [f.choices for f in start.fields if f.name == "requested_by"] == [["dee"]]
    table.given(c.OpenScene(seating=["Ogre", "Dee"], requested_by="Ogre", conflict=SCENE))
    assert titles(store, "gm")[:2] == ["Ogre bids: define a detail", "Ogre bids: strike a card"]
    assert titles(store, "dee") == []
    table.given(
        c.Bid(
            conflict=SCENE,
            active="Ogre",
            description="I smash",
            cards=["Club"],
            power=power("detail", detail="wall-down", text="The wall is down"),
        )
    )
    # Dee is asked; her Deck and the universe deck are empty: she can only pass. The GM
    # may pass for her, so a silent player does not block the table.
    assert titles(store, "dee") == ["Dee passes the challenge"]
    assert titles(store, "gm") == ["Pass the challenge for Dee"]
    table.given(pass_("Dee"))  # unchallenged: the bid succeeds, the detail is defined
    details = panel(page(store, "watcher"), "details")
    assert details.grid is not None
    assert details.grid.rows == [["wall-down", "The wall is down", "ogre", SCENE]]


def test_with_challenger_power_a_challenge_may_name_a_power(new: Tables) -> None:
    table = new({"challenger_power": "true"}).given(seated(), bid("Anna", "Brawn"))
    store = table.store
    assert titles(store, "cara") == [
        "Cara challenges",
        "Cara challenges: define a detail",
        "Cara challenges: strike a card",
        "Cara challenges: create a universe card",
        "Cara passes the challenge",
    ]
    strike = next(f for f in page(store, "cara").forms if f.title.endswith("strike a card"))
    assert strike.fixed == {"challenger": "cara", "power": {"type": "strike"}}
    assert [f.name for f in strike.fields][-2:] == ["power.target", "power.cards"]
    # Without the option the challenger's win is narrative only: no power forms.
    plain = new().given(seated(), bid("Anna", "Brawn"))
    assert titles(plain.store, "cara") == ["Cara challenges", "Cara passes the challenge"]


# --- issue 29: decks registered from the page ------------------------------------------


def test_a_deck_is_registered_from_the_page_by_the_gm_or_its_player(new: Tables) -> None:
    table = new()
    table.given(
        c.RegisterDeck(
            player="anna", character="Anna", flow=3, cards=[c.CardSpec(name="Brawn", value="1d6")]
        )
    )
    store = table.store
    [gm] = [f for f in page(store, "gm").forms if f.title == "Register a character's deck"]
    fields = {f.name: f for f in gm.fields}
    assert gm.gm
    assert "anna" in fields["player"].choices
    assert "gm" in fields["player"].choices
    # The cards one per line, as `name: value`: a card's name of several words stays whole.
    assert (fields["cards"].kind, fields["cards"].columns) == ("lines", ["name", "value"])
    assert "Quick Wits: 1d6" in str(fields["cards"].default)
    # A player registers its own while it has no living character; anna has Anna.
    [ben] = [f for f in page(store, "ben").forms if f.title == "Register your character's deck"]
    assert ben.fixed == {"player": "ben"}
    assert "player" not in {f.name for f in ben.fields}
    assert not [f for f in page(store, "anna").forms if f.path == "/bid-and-challenge/decks"]
    assert page(store, "watcher").forms == []


def test_cards_are_asked_one_per_line_in_a_bid(new: Tables) -> None:
    table = new().given(*seated())
    bids = [f for f in page(table.store, "anna").forms if f.title.startswith("Anna bids")]
    assert bids
    assert all(f.kind == "lines" for form in bids for f in form.fields if f.name == "cards")


def test_the_characters_table_has_four_columns_to_fit_a_phone(new: Tables) -> None:
    """Six columns (name, player, Flow, Deck, Play, Discard) were cut off on a 360-px phone,
    Play and Discard out of sight: the player and Flow go beside the name."""
    table = new(RECORDED).given(seated(), bid("Anna", "Brawn", "Sword"))
    grid = panel(page(table.store, "ben"), "characters").grid
    assert grid is not None
    assert grid.header == ["Character", "Deck", "Play", "Discard"]
    assert grid.rows[0] == [
        "Anna (anna), Flow 3",
        "QuickWits 1d6, Persuade 1d6+1, Body 1d6",
        "Brawn 1d6+2, Sword 1d6+1",
        "—",
    ]
