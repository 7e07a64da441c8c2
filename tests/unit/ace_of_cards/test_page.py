"""The Ace of Cards' page hooks as a transcript, built as the service builds it (`page_of`):
each Ace's player sees its own hand face up and the other's as card backs, an observer
sees backs only and is offered nothing, the GM runs the table; the forms follow the play
(a Trap Card after an enemy's action, a roll for a Check called, High or Low after a
critical, a discard owed), and the panels say who the table waits for."""

from __future__ import annotations

import msgspec

from tablelog.commands.access import Caller
from tablelog.commands.page import Form, Page, page_of
from tablelog.projections.page import Card, Panel
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.storage import EventStore
from tests.unit.ace_of_cards.table import VECTOR_TYPES, Table, Tables, ace, open_

KIT_HAND = ["3C", "4C", "5C", "6C", "JK1"]
RIN_HAND = ["1D", "2D", "3D", "4D", "5D"]


def page(store: EventStore, player: str, role: str = "player") -> Page:
    caller = Caller(campaign="t", player=player, role=role, digest=f"digest-{player}")
    return page_of(store, "t", caller)


def titles(found: Page) -> list[str]:
    return [f.title for f in found.forms]


def panel(found: Page, key: str) -> Panel:
    return next(p for p in found.panels if p.key == key)


def hand_cells(found: Page) -> dict[str, list[Card]]:
    """Each party member's Hand cell of the conflict's grid."""
    grid = panel(found, "conflict-c1").grid
    assert grid is not None
    column = grid.header.index("Hand")
    cells = {str(row[0]).split(" (")[0]: row[column] for row in grid.rows}
    return {name: cell for name, cell in cells.items() if isinstance(cell, list)}


def two_aces(new: Tables) -> Table:
    table = new()
    table.shuffle.deck(*KIT_HAND).deck(*RIN_HAND)
    return table.given(
        ace("Kit", magic_cards=2, trap_card=1),
        ace("Rin", magic_cards=1, mulligan=1),
        open_(["Kit", "Rin"], ["Goblin", "Ogre"]),
    )


def test_each_player_sees_its_own_hand_and_only_backs_of_the_other(new: Tables) -> None:
    store = two_aces(new).store
    kit = page(store, "kit")
    assert [card.face for card in panel(kit, "hand-kit").cards] == ["3♣", "4♣", "5♣", "6♣", "Joker"]
    assert not any(p.key == "hand-rin" for p in kit.panels)
    cells = hand_cells(kit)
    assert [card.face for card in cells["Kit"]] == ["3♣", "4♣", "5♣", "6♣", "Joker"]
    assert all(card.mine for card in cells["Kit"])
    assert [card.face for card in cells["Rin"]] == [None] * 5
    # Nothing of Rin's hand anywhere in Kit's page: not a panel, not a form's choice.
    seen = msgspec.json.encode(kit).decode()
    assert "♦" not in seen
    assert not any(card in seen for card in RIN_HAND)
    rin = page(store, "rin")
    assert [card.face for card in hand_cells(rin)["Kit"]] == [None] * 5
    assert "♣" not in msgspec.json.encode(rin).decode()


def test_an_observer_sees_backs_only_and_is_offered_nothing(new: Tables) -> None:
    watcher = page(two_aces(new).store, "watcher", "observer")
    assert all(card.face is None for cell in hand_cells(watcher).values() for card in cell)
    assert not any(p.key.startswith("hand-") for p in watcher.panels)
    assert watcher.forms == []
    seen = msgspec.json.encode(watcher).decode()
    assert not any(card in seen for card in KIT_HAND + RIN_HAND)


def test_the_gm_runs_the_table_and_sees_no_hand(new: Tables) -> None:
    gm = page(two_aces(new).store, "gm", "gm")
    assert all(card.face is None for cell in hand_cells(gm).values() for card in cell)
    assert titles(gm) == [
        "End the session",
        "Start a scene",
        "Create a character",
        "Set a skill level",
        "Adjust a character's HP",
        "Adjust a character's MP",
        "An enemy acts",
        "Call a Check",
        "End the conflict (every card put away)",
    ]
    assert all(form.gm for form in gm.forms)
    # Kit and Rin are both fighting: no one is left to open another conflict with.
    assert "Open a conflict" not in titles(gm)


def test_a_character_to_choose_is_shown_by_its_name(new: Tables) -> None:
    """Issue 29's campaign in a browser: the GM's and the players' character choices showed
    the keys the commands take ("kit"); they show each name as typed, and send the key."""
    store = two_aces(new).store
    for who, role, titled in (
        ("gm", "gm", ["Set a skill level", "Adjust a character's HP", "Call a Check"]),
        ("kit", "player", ["Set a skill level", "Call a Check"]),
    ):
        forms = {f.title: f for f in page(store, who, role).forms}
        for title in titled:
            field = next(f for f in forms[title].fields if f.name == "character")
            names = ["Kit", "Rin"] if role == "gm" else ["Kit"]
            assert field.shown == names, (who, title)
            assert field.choices == [name.lower() for name in names], (who, title)


def test_a_player_is_offered_what_its_aces_may_do_now(new: Tables) -> None:
    table = two_aces(new)
    store = table.store
    assert titles(page(store, "kit")) == [
        "Set a skill level",  # its own Ace's, as the GM's
        "Kit acts",
        "Magic Cards: Kit resolves a set",
        "Call a Check",
    ]
    magic = next(f for f in page(store, "kit").forms if f.title.startswith("Magic Cards"))
    assert magic.fixed == {"character": "kit"}
    fields = {f.name: f for f in magic.fields}
    assert fields["mp"].label == "MP spent: 10 to 20, 1 card per 5"  # SL 2
    assert fields["mp"].kind == "number"
    assert fields["cards"].choices == KIT_HAND
    assert fields["targets"].choices == ["goblin", "ogre"]
    assert fields["jokers"].kind == "pairs"  # Kit holds a joker
    # Its example is made of Kit's own cards: one naming a card Kit does not hold (once
    # `JK1=5H`) reads as a card of the table, and its code is another Ace's hand's too.
    assert fields["jokers"].label == "each joker as a card (JK1=3C: played as 3♣)"
    # Rin has Mulligan (SL 1) and no Trap Card.
    assert "Mulligan: Rin discards and draws as many" in titles(page(store, "rin"))
    waiting = panel(page(store, "rin"), "conflict-c1").waiting
    assert waiting == ["Kit (no action yet)", "Rin (no action yet)"]

    table.given(c.TakeAction(conflict="c1", actor="Goblin", text="rushes Kit"))
    assert "Trap Card: Kit names a suit" in titles(page(store, "kit"))
    assert "Trap Card: Rin names a suit" not in titles(page(store, "rin"))
    waiting = panel(page(store, "rin"), "conflict-c1").waiting
    assert "Kit (may answer a1 with a Trap Card)" in waiting
    # The deck's bottom card is the second joker: a hit, and a free spell follows.
    table.given(c.TrapCard(conflict="c1", character="Kit", suit="hearts"))
    waiting = panel(page(store, "rin"), "conflict-c1").waiting
    assert "Kit (may answer a1 with a Trap Card)" not in waiting
    assert "Kit (free spell after the Trap Card)" in waiting
    assert "Kit's free spell (Trap Card hit)" in titles(page(store, "kit"))
    assert "Trap Card: Kit names a suit" not in titles(page(store, "kit"))

    table.shuffle.dice(7, 7)
    table.given(
        c.CallCheck(conflict="c1", character="Kit", kind="accuracy", dice=[8, 10], dl=9, damage=5)
    )
    kit = titles(page(store, "kit"))
    assert "Double or Nothing on Kit's check k1" in kit
    assert "Roll Kit's check k1 (d8 + d10, DL 9)" in kit
    assert "Kit (roll check k1)" in panel(page(store, "gm", "gm"), "conflict-c1").waiting
    assert not any("k1" in title for title in titles(page(store, "rin")))

    table.given(c.RollCheck(conflict="c1", check="k1"))  # 7 and 7: a critical
    kit = titles(page(store, "kit"))
    assert "High or Low: Kit draws 1 card" in kit
    assert not any("check k1" in title for title in kit)
    table.given(c.HighOrLowDraw(conflict="c1", character="Kit"))
    # A discard is owed: it is all Kit may do with its cards until then.
    kit_page = page(store, "kit")
    assert [t for t in titles(kit_page) if t.startswith(("Magic", "High", "Trap"))] == [
        "High or Low: Kit discards 1 card"
    ]
    discard = next(f for f in kit_page.forms if f.title.startswith("High or Low"))
    assert discard.fields[0].choices == table.pile("Kit").hand
    assert "Kit (High or Low: discard 1)" in panel(kit_page, "conflict-c1").waiting


def test_an_ended_conflict_stays_with_its_outcome_and_no_forms(new: Tables) -> None:
    table = two_aces(new)
    table.given(
        c.UseMagicCards(
            conflict="c1", character="Kit", mp=20, cards=KIT_HAND[:4], set="magic-flush"
        ),
        c.EndConflict(conflict="c1"),
    )
    kit = page(table.store, "kit")
    ended = panel(kit, "conflict-c1")
    assert ended.title == "Conflict c1 (ended)"
    assert any("Magic Flush 43 fire to goblin, ogre" in line for line in ended.lines)
    assert [t for t in titles(kit) if "Kit" in t] == []
    assert "Open a conflict" in titles(page(table.store, "gm", "gm"))


def test_the_gms_npc_ace_is_the_gms_hand_and_to_play(new: Tables) -> None:
    table = new()
    table.shuffle.deck(*KIT_HAND).deck(*RIN_HAND)
    table.given(
        ace("Kit", magic_cards=1),
        c.CreateCharacter(player="gm", character="Nyx", hp=30, mp=30),
        c.BuildDeck(character="Nyx", suit_types=VECTOR_TYPES, benefit="hp"),
        c.SetSkillLevel(character="Nyx", skill="magic-cards", sl=1),
        open_(["Kit", "Nyx"], ["Goblin"]),
    )  # fmt: skip
    gm = page(table.store, "gm", "gm")
    assert [card.face for card in panel(gm, "hand-nyx").cards] == ["1♦", "2♦", "3♦", "4♦", "5♦"]
    assert [card.face for card in hand_cells(gm)["Kit"]] == [None] * 5
    # 1D-5D, 15 MP at most (3 cards): no set Nyx can pay for matches an effect; said at once.
    nyx = "Magic Cards: Nyx resolves a set (no set of this hand matches an effect)"
    assert {"Nyx acts", nyx} <= set(titles(gm))
    assert not any("Kit" in title for title in titles(gm))
    kit = page(table.store, "kit")
    assert [card.face for card in hand_cells(kit)["Nyx"]] == [None] * 5
    assert "♦" not in msgspec.json.encode(kit).decode()
    assert not any("Nyx" in title for title in titles(kit))


def test_a_new_campaign_offers_the_gm_a_start(new: Tables) -> None:
    table = new()
    gm = page(table.store, "gm", "gm")
    assert [p.key for p in gm.panels] == ["characters"]
    assert titles(gm) == ["End the session", "Start a scene", "Create a character"]
    # A player sets up its own character: the character, then its deck, then its skills.
    assert titles(page(table.store, "bob")) == ["Create your character"]


# --- issue 26: a set matching no effect, a Magic Pair's free attack, the class's Skills ------


def form(found: Page, title: str) -> Form:
    return next(f for f in found.forms if f.title == title)


def test_the_magic_cards_form_says_a_set_matching_no_effect_is_spent_for_nothing(
    new: Tables,
) -> None:
    table = two_aces(new)
    magic = form(page(table.store, "kit"), "Magic Cards: Kit resolves a set")
    (anyway,) = [f for f in magic.fields if f.name == "anyway"]
    assert anyway.kind == "flag"
    assert anyway.label == (
        "play it anyway if this set matches no effect (its MP and cards spent for nothing)"
    )
    # Sent unticked, such a set is refused before anything is spent, and the form shows why.
    refused = table.refuse(
        c.UseMagicCards(conflict="c1", character="Kit", mp=10, cards=["3C", "5C"]), "no-effect"
    )
    assert refused.message.startswith("this set matches no effect: 3C 5C would spend 10 MP")


def test_the_magic_pair_offers_its_free_attack_until_the_next_action(new: Tables) -> None:
    table = new()
    table.shuffle.deck("3C", "3D", "5H", "6S", "JK1")
    table.given(ace("Kit", magic_cards=1), open_(["Kit"], ["Goblin", "Ogre"]))
    title = "Magic Pair: Kit's free attack (an Accuracy Check)"
    assert title not in titles(page(table.store, "kit"))
    table.given(
        c.UseMagicCards(
            conflict="c1", character="Kit", mp=10, cards=["3C", "3D"], damage_type="earth"
        )
    )
    kit = page(table.store, "kit")
    attack = form(kit, title)
    assert attack.conflict == "c1"
    assert attack.fixed == {"character": "kit", "kind": "accuracy", "free_attack": True}
    asked = ["dice", "dl", "modifier", "damage", "target", "double"]
    assert [f.name for f in attack.fields] == asked
    assert "Kit (Magic Pair: its free attack)" in panel(kit, "conflict-c1").waiting
    table.given(c.TakeAction(conflict="c1", actor="Goblin", text="bites"))
    assert title not in titles(page(table.store, "kit"))


def test_double_or_nothing_and_high_or_low_are_offered_once_taken(new: Tables) -> None:
    table = new({"dice": "recorded"})
    table.shuffle.deck(*KIT_HAND)
    table.given(
        ace("Kit", magic_cards=1, double_or_nothing=0, high_or_low=0),
        open_(["Kit"], ["Goblin"]),
        c.CallCheck(conflict="c1", character="Kit", kind="accuracy", dice=[8, 10], dl=9),
    )
    assert "Double or Nothing on Kit's check k1" not in titles(page(table.store, "kit"))
    table.given(c.SetSkillLevel(character="Kit", skill="double-or-nothing", sl=1))
    assert "Double or Nothing on Kit's check k1" in titles(page(table.store, "kit"))
    table.given(c.RollCheck(conflict="c1", check="k1", values=[7, 7]))
    assert "High or Low: Kit draws 1 card" not in titles(page(table.store, "kit"))
    skills = form(page(table.store, "gm", "gm"), "Set a skill level")
    (skill,) = [f for f in skills.fields if f.name == "skill"]
    assert {"double-or-nothing", "high-or-low"} <= set(skill.choices)


# --- issue 29: a character, its deck and skills from the page --------------------------


def test_a_player_sets_up_its_own_ace_from_the_page_and_the_gm_anyones(new: Tables) -> None:
    table = new()
    table.given(c.CreateCharacter(player="bob", character="Kit", hp=40, mp=35))
    store = table.store
    deck = "Take the Ace of Cards class for Kit (its deck)"
    assert titles(page(store, "bob")) == [deck]
    built = form(page(store, "bob"), deck)
    suits = {f.name: f.default for f in built.fields if f.name.startswith("suit_types.")}
    assert suits == {
        "suit_types.clubs": "fire",
        "suit_types.diamonds": "earth",
        "suit_types.hearts": "ice",
        "suit_types.spades": "air",
    }
    assert built.fixed == {"character": "kit"}
    assert not built.gm
    assert deck in titles(page(store, "gm", "gm"))
    assert titles(page(store, "sue")) == ["Create your character"]  # not Kit's deck
    table.given(c.BuildDeck(character="Kit", suit_types=VECTOR_TYPES, benefit="hp"))
    assert titles(page(store, "bob")) == ["Set a skill level"]
    skill = form(page(store, "bob"), "Set a skill level")
    assert [f.choices for f in skill.fields if f.name == "character"] == [["kit"]]
