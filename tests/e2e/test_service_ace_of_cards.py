"""Ace of Cards through the play-by-post service: a real `tablelog serve` on 127.0.0.1, over
SQLite and PostgreSQL, played with the CLI client (`--server URL --access-token TOKEN`) and
raw HTTP, with a managed deck (tablelog shuffles and draws).

Who may do what (tablelog/rulesets/ace_of_cards/rules/cast.py): a player plays only its own
Ace's cards and Checks; the GM runs the table (open, end, HP and MP changes) and acts for the
enemies; an observer only reads. What each may see (projections/ace_of_cards/visibility.py):
while the conflict is open a deck's order is nobody's, a hand (and every card drawn) its
player's alone; played cards are public; once the conflict ends everything is open.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.e2e.test_service_beer_run import Service, Table, service  # noqa: F401
from tests.e2e.transcript import ok, refused
from tests.support.server import admin_token

C1 = "/ace-of-cards/conflicts/c1"
TYPES = {"clubs": "fire", "diamonds": "earth", "hearts": "ice", "spades": "air"}


def two_cards(hand: list[str]) -> dict[str, Any]:
    """A Magic Cards body for 10 MP from `hand`: two cards of different values when there
    are (no effect, confirmed: `anyway`), else a Magic Pair (its type chosen from the first
    card's suit)."""
    plain = [card for card in hand if not card.startswith("JK")]
    for a in plain:
        for b in plain:
            if a[0] != b[0]:
                return {"character": "kit", "mp": 10, "cards": [a, b], "anyway": True}
    kind = TYPES[{"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[plain[0][1]]]
    return {"character": "kit", "mp": 10, "cards": plain[:2], "damage_type": kind}


def redacted(event: dict[str, Any], *fields: str) -> bool:
    return event.get("redacted") is True and all(event["payload"][f] is None for f in fields)


def test_a_conflict_through_the_service(service: Service) -> None:  # noqa: F811
    created = json.loads(
        ok(
            service.client(
                admin_token(service.url),
                "campaign",
                "create",
                "duelists",
                "-r",
                "ace-of-cards",
                "--json",
            )
        )
    )
    gm = created["token"]
    ann = json.loads(ok(service.client(gm, "invite", "ann", "--json")))["token"]
    bert = json.loads(ok(service.client(gm, "invite", "bert", "--json")))["token"]
    olga = json.loads(ok(service.client(gm, "invite", "olga", "--role", "observer", "--json")))[
        "token"
    ]

    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        table = Table(http, "duelists", gm)
        kit = {"player": "ann", "character": "Kit", "hp": 40, "mp": 35}
        table.refuse(bert, "/ace-of-cards/characters", kit, 403, "not-yours")
        table.write(ann, "/ace-of-cards/characters", kit)
        table.write(
            bert,
            "/ace-of-cards/characters",
            {"player": "bert", "character": "Lea", "hp": 45, "mp": 30},
        )
        for who, token in (("Kit", ann), ("Lea", bert)):
            table.write(
                token,
                "/ace-of-cards/decks",
                {"character": who, "suit_types": TYPES, "benefit": "mp"},
            )
            table.write(
                token, "/ace-of-cards/skills", {"character": who, "skill": "magic-cards", "sl": 1}
            )
        table.write(
            ann, "/ace-of-cards/skills", {"character": "Kit", "skill": "trap-card", "sl": 1}
        )
        table.write(  # a Skill of the class, taken before it is used (class_skills=taken)
            bert,
            "/ace-of-cards/skills",
            {"character": "Lea", "skill": "double-or-nothing", "sl": 1},
        )
        table.refuse(
            ann,
            "/ace-of-cards/skills",
            {"character": "Lea", "skill": "mulligan", "sl": 1},
            403,
            "not-yours",
        )

        body = {"party": ["Kit", "Lea"], "enemies": ["Goblin"]}
        table.refuse(ann, "/ace-of-cards/conflicts", body, 403, "gm-only")
        table.refuse(olga, "/ace-of-cards/conflicts", body, 403, "observer")
        table.write(gm, "/ace-of-cards/conflicts", body)

        # --- hidden information ------------------------------------------------------------
        for token in (ann, bert, gm, olga):
            for event in table.log(token):
                if event["type"] == "ac.deck_shuffled":  # face down: nobody's
                    assert redacted(event, "order", "salt"), event
        draws = {
            e["payload"]["character_id"]: e for e in table.log(ann) if e["type"] == "ac.cards_drawn"
        }
        assert not draws["kit"].get("redacted")
        assert redacted(draws["lea"], "cards", "salt")
        for token in (gm, olga):
            seen = [e for e in table.log(token) if e["type"] == "ac.cards_drawn"]
            assert all(redacted(e, "cards") for e in seen)
        kit_view = table.get(ann, C1)["view"]["aces"]
        assert len(kit_view["kit"]["hand"]) == 5
        assert kit_view["lea"]["hand"] is None
        assert kit_view["lea"]["hand_size"] == 5
        assert kit_view["kit"]["deck_order"] is None  # not even its own
        assert table.get(gm, "/state")["characters"]["kit"]["cards"]["hand"] is None
        # A what-if through the service cannot play on from what the caller may not see.
        # (hides: decks face down and hands not all yours)

        # $ tablelog --server URL --access-token ANN ace-of-cards hand Kit --json
        own = json.loads(ok(service.client(ann, "ace-of-cards", "hand", "Kit", "--json")))
        assert own["cards"] == kit_view["kit"]["hand"]
        line = refused(service.client(bert, "ace-of-cards", "hand", "Kit"))
        assert line == "not-yours: Kit's hand is ann's to see only"
        refused(service.client(gm, "ace-of-cards", "hand", "Kit"))

        # --- play: refusals and permissions ------------------------------------------------
        hand = kit_view["kit"]["hand"]
        magic = two_cards(hand)
        table.refuse(bert, f"{C1}/magic-cards", magic, 403, "not-yours")
        table.refuse(gm, f"{C1}/magic-cards", magic, 403, "not-yours")
        message = table.refuse(ann, f"{C1}/magic-cards", {**magic, "mp": 12}, 422, "mp-step")
        assert message == "12 MP is not a multiple of 5"
        missing = next(c for c in ("1C", "2C", "3C", "4C", "5C", "6C") if c not in hand)
        message = table.refuse(
            ann,
            f"{C1}/magic-cards",
            {**magic, "cards": [magic["cards"][0], missing]},
            422,
            "card-not-there",
        )
        assert message == f"card {missing} is not in hand"
        table.write(ann, f"{C1}/magic-cards", magic)
        used = [e for e in table.log(olga) if e["type"] == "ac.magic_cards_used"]
        assert used[0]["payload"]["cards"] == magic["cards"]  # played face up: public

        # Trap Card over the CLI client: the GM records the goblin's action first.
        line = refused(service.client(ann, "ace-of-cards", "trap", "c1", "Kit", "hearts"))
        assert line.startswith("no-trigger: Trap Card needs a resolved action by an enemy")
        line = refused(service.client(ann, "ace-of-cards", "act", "c1", "Goblin", "bites"))
        assert line.startswith("gm-only:")
        ok(service.client(gm, "ace-of-cards", "act", "c1", "Goblin", "bites"))
        ok(service.client(ann, "ace-of-cards", "trap", "c1", "Kit", "hearts"))
        shown = json.loads(ok(service.client(bert, "ace-of-cards", "show", "c1", "--json")))
        assert len(shown["aces"]["kit"]["discard"]) == 3  # the set's 2 and the trap's card
        assert shown["aces"]["kit"]["hand"] is None

        # A Check: called and rolled by its player (managed dice), the roll stored.
        ok(
            service.client(
                bert,
                "ace-of-cards",
                "check",
                "c1",
                "Lea",
                "--kind",
                "clock",
                "--dice",
                "d10,d10",
                "--dl",
                "10",
                "--double",
            )
        )
        line = refused(service.client(ann, "ace-of-cards", "roll", "c1", "k1"))
        assert line == "not-yours: ann may not roll this character's Check: it belongs to bert"
        ok(service.client(bert, "ace-of-cards", "roll", "c1", "k1"))
        rolled = [e for e in table.log(olga) if e["type"] == "ac.check_rolled"]
        assert len(rolled[0]["payload"]["dice"]) == 2

        # --- the end: everything open ------------------------------------------------------
        table.refuse(ann, f"{C1}/end", {}, 403, "gm-only")
        table.write(gm, f"{C1}/end", {})
        for event in table.log(olga):
            assert not event.get("redacted"), event
        audit = table.get(olga, "/audit")
        assert audit["ok"] is True, audit
