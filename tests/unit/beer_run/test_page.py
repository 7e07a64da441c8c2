"""Beer Run's page hooks as a transcript (recorded dice): each phase offers its caller what
the round waits for from them, and a character killed in the effects still gets its form to
allocate the pips it kept (the rolls were simultaneous). Built as the service builds it."""

from __future__ import annotations

from tablelog.commands.access import Caller
from tablelog.commands.page import Page, page_of
from tablelog.projections.page import Sealed
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.storage import EventStore
from tests.unit.beer_run.table import Tables, allocate, character, goal, pool, roll
from tests.unit.beer_run.test_sealed import Purse


def page(store: EventStore, player: str, role: str = "player") -> Page:
    caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
    return page_of(store, "t", caller)


def titles(found: Page) -> list[str]:
    return [f.title for f in found.forms if f.conflict == "c1"]


def test_each_phase_offers_what_the_round_waits_for(new: Tables) -> None:
    table = new({"dice": "recorded"}).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Health:Body:d2"),
        character("Bob", "Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d6", player="gm"),
        c.OpenConflict(conflict="c1", sides={"heroes": ["Alice"], "thugs": ["Bob"]}),
    )
    store = table.store
    assert titles(page(store, "alice")) == ["State Alice's goal"]
    assert "State Bob's goal" in titles(page(store, "gm", "gm"))
    table.given(goal("Alice", "Bob", ability="Resolve"), goal("Bob", "Alice"))
    buy = next(f for f in page(store, "alice").forms if f.title == "Buy Alice's pool")
    assert [f.default for f in buy.fields if f.name == "base"] == ["body mind kit"]
    table.given(pool("Alice", "Body", "Mind", "Kit"), pool("Bob", "Body", "Resolve", "Kit"))
    assert titles(page(store, "alice")) == ["Roll Alice's pool"]
    # Bob's 8 beats Alice's 6 first: the upper hand, and two successes kept; Alice keeps one.
    table.given(roll("Alice", 6, 5, 1), roll("Bob", 8, 4, 2))
    assert titles(page(store, "alice")) == []  # the upper hand allocates first
    gm = page(store, "gm", "gm")
    assert "Bob: allocate 2 pip(s) off Alice's dice" in titles(gm)
    waiting = next(p for p in gm.panels if p.key == "conflict-c1").waiting
    assert waiting == ["Bob (pips)", "Alice (pips)"]
    table.given(allocate("Bob", "Alice", Health=2))  # Health d2 to 0: Alice dies
    assert table.state.characters["alice"].dead
    assert titles(page(store, "alice")) == ["Alice: allocate 1 pip(s) off Bob's dice"]
    table.given(allocate("Alice", "Bob", Resolve=1))
    # One side left standing: the conflict is over; it stays, as it ended, with no forms.
    assert table.state.conflicts["c1"].status == "ended"
    ended, characters = page(store, "gm", "gm").panels
    assert (ended.key, ended.closed, characters.key) == ("conflict-c1", True, "characters")
    assert ended.story[-1].startswith("The conflict ended: ")
    assert titles(page(store, "alice")) == []


def test_a_sealed_campaign_offers_sealed_pools_then_their_openings(new: Tables) -> None:
    table = new({"dice": "recorded", "sealed_plays": "true"}).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4"),
        character("Bob", "Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d6", player="gm"),
        c.OpenConflict(conflict="c1", sides={"heroes": ["Alice"], "thugs": ["Bob"]}),
        goal("Alice", "Bob"),
        goal("Bob", "Alice"),
    )
    store = table.store
    buy = next(f for f in page(store, "alice").forms if f.title == "Buy Alice's pool, sealed")
    assert buy.seals == Sealed(conflict="c1", round=1, side="alice", parts=["base", "extras"])
    assert buy.fixed == {"actor": "alice", "round": 1}
    alice, bob = Purse("alice", ["Body", "Mind", "Kit"]), Purse("bob", ["Body", "Resolve", "Kit"])
    table.given(alice.buy())
    assert titles(page(store, "alice")) == []  # Bob's pool is not in: nothing to open yet
    assert "Set the deadline for the openings" in titles(page(store, "gm", "gm"))
    table.given(bob.buy())
    (opening,) = [f for f in page(store, "alice").forms if f.opens]
    assert opening.title == "Open Alice's sealed pool"
    assert opening.opens is not None
    assert opening.opens.commitment == alice.commitment
    assert "Open Alice's sealed pool" not in titles(page(store, "gm", "gm"))
    table.given(c.SetPoolDeadline(conflict="c1", minutes=0))
    assert "Declare a sealed pool forfeit (deadline passed)" in titles(page(store, "gm", "gm"))
    table.given(alice.opening(), bob.opening())
    assert titles(page(store, "alice")) == ["Roll Alice's pool"]


# --- issue 29: characters made from the page; pips one number per ability ----------------


def test_a_character_is_created_from_the_page_with_its_dice_one_per_line(new: Tables) -> None:
    table = new({"categories": "Body,Mind"})
    store = table.store
    [own] = [f for f in page(store, "ann").forms if f.title == "Create your character"]
    fields = {f.name: f for f in own.fields}
    assert own.fixed == {"player": "ann"}
    assert "static" not in fields
    assert fields["abilities"].columns == ["name", "category", "size"]
    assert fields["abilities"].default == "Body: Body: d6\nMind: Mind: d6\nHealth: Body: d6"
    assert fields["intensity"].default == 10
    [gm] = [f for f in page(store, "gm", "gm").forms if f.title == "Create a character"]
    assert {"player", "static"} <= {f.name for f in gm.fields}
    assert gm.gm
    table.given(character("Ann", "Body:Body:d8", "Mind:Mind:d6"))
    assert not [f for f in page(store, "ann").forms if f.title == "Create your character"]


def test_pips_are_asked_as_one_number_per_ability(new: Tables) -> None:
    table = new({"dice": "recorded"}).given(
        character("Alice", "Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Health:Body:d2"),
        character("Bob", "Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d6", player="gm"),
        c.OpenConflict(conflict="c1", sides={"heroes": ["Alice"], "thugs": ["Bob"]}),
        goal("Alice", "Bob", ability="Resolve"),
        goal("Bob", "Alice"),
        pool("Alice", "Body", "Mind", "Kit"),
        pool("Bob", "Body", "Resolve", "Kit"),
        roll("Alice", 6, 5, 1),
        roll("Bob", 8, 4, 2),
    )
    gm = page(table.store, "gm", "gm")
    [pips] = [f for f in gm.forms if f.title == "Bob: allocate 2 pip(s) off Alice's dice"]
    assert [(f.name, f.kind, f.required) for f in pips.fields] == [
        ("pips.body", "number", False),
        ("pips.mind", "number", False),
        ("pips.kit", "number", False),
        ("pips.health", "number", False),
    ]
    assert pips.fields[-1].label == "pips off Alice's Health (d2)"
