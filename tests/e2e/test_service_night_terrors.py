"""Night Terrors through the play-by-post service: a real `tablelog serve` on 127.0.0.1 over
SQLite, played with raw HTTP and the CLI client (`--server URL --access-token TOKEN`).

Who may do what (tablelog/rulesets/night_terrors/rules/cast.py): a player acts only for its own
character; the GM runs the table, opens conflicts and records draws (it deals); an observer
only reads. What each may see (tablelog/rulesets/night_terrors/views/visibility.py): a hand is its
player's alone (the GM sees draws it records); the deck's order is nobody's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.test_service_beer_run import Service, Table
from tests.e2e.transcript import ok, refused
from tests.support.server import admin_token, running_service

C1 = "/night-terrors/conflicts/c1"


def draw(who: str, *cards: str) -> dict[str, Any]:
    return {"character": who, "cards": list(cards)}


def test_a_conflict_through_the_service(tmp_path: Path) -> None:
    db = str(tmp_path / "tablelog.db")
    with running_service(db, tmp_path) as url:
        service = Service(url=url, db=db, cwd=tmp_path)
        created = json.loads(
            ok(
                service.client(
                    admin_token(url),
                    *("campaign", "create", "night", "-r", "night-terrors"),
                    *("-o", "deck=recorded", "--json"),
                )
            )
        )
        gm = created["token"]
        ann = json.loads(ok(service.client(gm, "invite", "ann", "--json")))["token"]
        ben = json.loads(ok(service.client(gm, "invite", "ben", "--json")))["token"]
        olga = json.loads(ok(service.client(gm, "invite", "olga", "--role", "observer", "--json")))[
            "token"
        ]
        with httpx.Client(base_url=url, timeout=30.0) as http:
            table = Table(http, "night", gm)
            alice = {"player": "ann", "character": "Alice", "card": "KS"}
            table.refuse(ben, "/night-terrors/characters", alice, 403, "not-yours")
            table.write(ann, "/night-terrors/characters", alice)
            table.write(
                gm,
                "/night-terrors/characters",
                {**alice, "player": "ben", "character": "Bob", "card": "QH"},
            )
            table.refuse(olga, "/night-terrors/characters", alice, 403, "observer")
            ok(service.client(gm, "session", "start"))
            table.write(gm, "/night-terrors/draws", draw("Alice", "6D", "KS", "2C", "3C"))
            table.write(gm, "/night-terrors/draws", draw("Bob", "7C", "5H", "2D", "3D"))
            opened = {"aggressor": "Alice", "others": ["Bob"], "kind": "guns"}
            table.refuse(ben, "/night-terrors/conflicts", opened, 403, "not-yours")
            table.write(ann, "/night-terrors/conflicts", opened)
            table.write(gm, "/night-terrors/draws", draw("Alice", "4C", "5C", "6C", "8C", "9C"))
            table.write(gm, "/night-terrors/draws", draw("Bob", "2H", "3H", "4H", "6H"))

            # Hands: Ben sees his own, never Ann's; the observer sees neither.
            as_ben = table.get(ben, "/state")["characters"]
            assert as_ben["bob"]["hand"] == ["7C", "5H", "2D", "3D", "2H", "3H", "4H", "6H"]
            assert as_ben["alice"]["hand"] is None
            assert as_ben["alice"]["hand_size"] == 9
            drawn = [e for e in table.log(ben) if e["type"] == "nt.cards_drawn"]
            cards = {e["payload"]["character_id"]: e["payload"]["cards"] for e in drawn}
            assert cards["alice"] is None
            assert cards["bob"] == ["2H", "3H", "4H", "6H"]
            assert table.get(olga, "/state")["characters"]["bob"]["hand"] is None
            assert table.get(ben, "/night-terrors/hands/bob")["cards"][:2] == ["7C", "5H"]
            peek = http.get(
                "/campaigns/night/night-terrors/hands/alice",
                headers={"Authorization": f"Bearer {ben}"},
            )
            assert (peek.status_code, peek.json()["code"]) == (403, "not-yours")
            line = refused(service.client(ben, "night-terrors", "hand", "Alice"))
            assert line == "not-yours: Alice's hand is visible to its player only"

            # NT-1 over HTTP: Ann raises 6D + KS; Ben sees 7C + 5H and pays 6 Blood.
            table.refuse(
                ben, f"{C1}/raises", {"character": "Alice", "cards": ["6D", "KS"]}, 403, "not-yours"
            )
            table.refuse(
                ann,
                f"{C1}/raises",
                {"character": "Alice", "cards": ["6D", "KS", "2C"]},
                422,
                "nt-raise-shape",
            )
            table.write(ann, f"{C1}/raises", {"character": "Alice", "cards": ["6D", "KS"]})
            message = table.refuse(
                ben, f"{C1}/sees", {"character": "Bob", "cards": ["7C"]}, 422, "nt-does-not-meet"
            )
            assert message == (
                "7 does not meet the raise of 12; your hand can meet it: play more cards, or give"
            )
            table.refuse(
                gm, f"{C1}/sees", {"character": "Bob", "cards": ["7C", "5H"]}, 403, "not-yours"
            )
            # The CLI as the service's client: same command, same output.
            saw = ok(service.client(ben, "night-terrors", "see", "c1", "Bob", "7C", "5H"))
            assert "Bob pays 6 (trump fallout) under Spades: blood 6" in saw
            assert table.get(ann, "/state")["characters"]["bob"]["blood"] == 14
            line = refused(service.client(ann, "night-terrors", "raise", "c1", "Alice", "2C", "3C"))
            assert line == "nt-not-your-raise: it is Bob's raise"
            # Only the GM abandons a conflict (one a quiet player would hold open).
            quit_ = {"reason": "I would rather not"}
            table.refuse(ann, f"{C1}/abandon", quit_, 403, "gm-only")
            table.refuse(olga, f"{C1}/abandon", quit_, 403, "observer")
            table.write(ben, f"{C1}/gives", {"character": "Bob"})
            shown = table.get(olga, "/night-terrors/conflicts/c1")["view"]
            assert (shown["status"], shown["winners"]) == ("ended", ["alice"])
            table.write(ann, f"{C1}/narrations", {"character": "Alice", "text": "Mine."})
            # Ann opens c2, and Ben's player goes quiet before anyone draws: the GM ends it.
            ok(service.client(ann, "night-terrors", "open", "Alice", "Bob", "--type", "talk"))
            left = ok(
                service.client(
                    gm, *("night-terrors", "abandon", "c2", "--reason", "Ben has gone quiet")
                )
            )
            assert "conflict c2 is abandoned, nobody wins (the GM abandoned it: Ben has" in left
            shown = table.get(olga, "/night-terrors/conflicts/c2")["view"]
            assert (shown["status"], shown["winners"]) == ("ended", [])
            ok(service.client(gm, "scene", "start"))  # the campaign moves on
