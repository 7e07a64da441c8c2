"""A campaign set up from the page alone, for every ruleset: on a real service (in this
process), a GM and two players signed in with links create the characters (or register the
decks) and start a session and a conflict with nothing but the forms their pages offer them,
each sent as page.js sends it (tests/support/page_forms.py). A name of several words typed
on its own line (a talent, a card) stays one."""

from __future__ import annotations

from pathlib import Path

from tests.support.page_forms import service_of


def test_improv_is_set_up_from_the_page(tmp_path: Path) -> None:
    with service_of(tmp_path, "heist", "improv") as service:
        gm = service.seat("heist", "gina", "gm")
        bob, sue = service.seat("heist", "bob"), service.seat("heist", "sue")
        # Before any protagonist: the GM may create one (the players who joined suggested),
        # a player its own; nobody may start a session yet.
        assert set(gm.forms()) == {"Create a protagonist"}
        assert set(bob.forms()) == {"Create your protagonist"}
        gm.does(
            "Create a protagonist",
            player="bob",
            character="Kit",
            talents="Sharp eyes\n  Brawler \n\n",
        )
        sue.does("Create your protagonist", character="Diana", talents="Fast talker")
        talents = gm.state()["talents"]["kit"]["by_talent"]
        assert list(talents) == ["brawler", "sharp eyes"]
        assert "Create your protagonist" not in bob.forms()
        gm.does("Start a session")
        gm.does("Open a conflict", conflict="c1")
        gm.does("Set a GM stake", side="Riso", text="Riso keeps the bar")
        bob.does("Set Kit's stake", text="Kit gets the ledger", opposes="riso")
        assert "Play a card face down" in bob.forms()


def test_night_terrors_is_set_up_from_the_page(tmp_path: Path) -> None:
    with service_of(tmp_path, "dark", "night-terrors") as service:
        gm = service.seat("dark", "gina", "gm")
        bob, sue = service.seat("dark", "bob"), service.seat("dark", "sue")
        gm.does("Create a character", player="bob", character="Alice", card="KS")
        sue.does("Create your character", character="Bea", card="QH")
        gm.does("Create a character", player="gm", character="Thing", card="JC")
        gm.does("Start a session (hands dealt)")
        bob.does("Open a conflict", aggressor="alice", others="bea", kind="talk")
        assert "Alice raises" in bob.forms()


def test_bid_and_challenge_is_set_up_from_the_page(tmp_path: Path) -> None:
    with service_of(tmp_path, "keep", "bid-and-challenge") as service:
        gm = service.seat("keep", "gina", "gm")
        bob, sue = service.seat("keep", "bob"), service.seat("keep", "sue")
        assert "Register your character's deck" in bob.forms()
        # The GM registers bob's deck as the form offers it (a starting deck to edit) ...
        gm.does("Register a character's deck", player="bob", character="Anna")
        # ... and sue her own, one card per line, a card's name of several words kept whole.
        sue.does(
            "Register your character's deck",
            character="Ben",
            flow="2",
            cards="Dodge: 1d6\nOld Rope: 1d6+1\n",
        )
        anna, ben = gm.state()["characters"].values()
        assert anna["deck"] == ["brawn", "quick wits", "sword"]
        assert ben["cards"]["old rope"] == {"name": "Old Rope", "value": "1d6+1"}
        assert "Register your character's deck" not in sue.forms()
        gm.does("Start a session")
        bob.does("Start a scene", requested_by="anna", premise="The gate")
        bob.does(
            "Anna bids: define a detail",
            description="I force the gate",
            cards="Quick Wits\nSword",
            power__detail="gate-open",
            power__text="The gate stands open",
        )
        sue.does("Ben challenges", description="The rope snaps", cards="Old Rope")
        assert "Anna pushes" in bob.forms()


def test_ace_of_cards_is_set_up_from_the_page(tmp_path: Path) -> None:
    with service_of(tmp_path, "aces", "ace-of-cards") as service:
        gm = service.seat("aces", "gina", "gm")
        bob, sue = service.seat("aces", "bob"), service.seat("aces", "sue")
        bob.does("Create your character", character="Kit")
        bob.does("Take the Ace of Cards class for Kit (its deck)", benefit="mp")
        bob.does("Set a skill level", character="kit", skill="magic-cards", sl="2")
        gm.does("Create a character", player="sue", character="Rin", hp="35", mp="40")
        sue.does(
            "Take the Ace of Cards class for Rin (its deck)",
            suit_types__clubs="ice",
            suit_types__hearts="fire",
        )
        kit, rin = (gm.state()["characters"][k] for k in ("kit", "rin"))
        assert (kit["max_mp"], kit["skills"]["magic_cards"]) == (40, 2)
        assert rin["suit_types"] == {"C": "ice", "D": "earth", "H": "fire", "S": "air"}
        assert not [t for t in bob.forms() if t.startswith(("Create", "Take"))]
        gm.does("Start a session")
        gm.does("Open a conflict", party="kit rin", enemies="Goblin", conflict="c1")
        assert "Kit acts" in bob.forms()


def test_beer_run_is_set_up_from_the_page(tmp_path: Path) -> None:
    with service_of(tmp_path, "run", "beer-run") as service:
        gm = service.seat("run", "gina", "gm")
        bob = service.seat("run", "bob")
        # The dice are offered one per category and the health ability, to edit.
        offered = bob.forms()["Create your character"].inputs["abilities"].value
        assert offered.split("\n") == ["Body: Body: d6", "Mind: Mind: d6", "Kit: Kit: d6",
                                       "Health: Body: d6"]  # fmt: skip
        bob.does(
            "Create your character",
            character="Alice",
            abilities="Body: Body: d8\nMind: Mind: d6\nKit: Kit: d4\nHealth: Body: d6",
        )
        gm.does("Create a character", player="gm", character="Bouncer")
        alice = gm.state()["characters"]["alice"]
        assert {k: a["size"] for k, a in alice["abilities"].items()} == {
            "body": 8, "mind": 6, "kit": 4, "health": 6
        }  # fmt: skip
        assert "Create your character" not in bob.forms()
        gm.does("Start a session")
        # The sides are offered as the players' characters against the GM's.
        gm.does("Open a conflict", conflict="c1")
        bob.does("State Alice's goal", text="Get past the door", against="bouncer")
        assert "State Bouncer's goal" in gm.forms()
