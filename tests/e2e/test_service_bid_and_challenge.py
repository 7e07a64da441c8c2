"""Bid & Challenge through the play-by-post service: a real `tablelog serve` on 127.0.0.1, over
SQLite and PostgreSQL, played with the CLI client (`--server URL --access-token TOKEN`) and raw
HTTP: BC-1 and BC-2 of rules/bid-and-challenge.md as one scene.

Who may do what (tablelog/rulesets/bid_and_challenge/rules/cast.py): a player acts only for its own
character (its deck, asking for a scene, bid, pass, challenge, push, and with managed dice the
roll of its own bid); the GM runs the universe deck, deaths and the end of a scene, records
the faces of a roll with recorded dice (they are both sides' faces), and may register a deck,
open a scene, pass and roll for anyone so that a silent player never blocks the table; an
observer only reads. Nothing is hidden in this game: every reader sees every card and roll.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.e2e.test_service_beer_run import Service, Table, service  # noqa: F401 (fixture)
from tests.e2e.transcript import ok, refused
from tests.support.server import admin_token

BC = "bid-and-challenge"
S1 = f"/{BC}/conflicts/s1"


def deck(player: str, name: str, flow: int, *specs: str) -> dict[str, Any]:
    cards = [{"name": s.split(":")[0], "value": s.split(":")[1]} for s in specs]
    return {"player": player, "character": name, "flow": flow, "cards": cards}


ANNA = ("Brawn:1d6+2", "Sword:1d6+1", "QuickWits:1d6", "Persuade:1d6+1", "Body:1d6")
BEN = ("Dodge:1d6+1", "Sneak:1d6", "Mind:1d6")


def test_a_scene_through_the_service(service: Service) -> None:  # noqa: F811
    created = json.loads(
        ok(
            service.client(
                admin_token(service.url),
                *("campaign", "create", "keep", "-r", BC, "-o", "dice=recorded", "--json"),
            )
        )
    )
    gm = created["token"]
    tokens = {
        p: json.loads(ok(service.client(gm, "invite", p, "--json")))["token"]
        for p in ("anna", "ben", "cara")
    }
    olga = json.loads(ok(service.client(gm, "invite", "olga", "--role", "observer", "--json")))[
        "token"
    ]
    anna, ben, cara = tokens["anna"], tokens["ben"], tokens["cara"]

    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        table = Table(http, "keep", gm)
        # Decks: each player its own; the GM may register one for a player; the universe is
        # the GM's.
        table.refuse(anna, f"/{BC}/decks", deck("ben", "Ben", 2, *BEN), 403, "not-yours")
        table.write(anna, f"/{BC}/decks", deck("anna", "Anna", 3, *ANNA))
        table.write(ben, f"/{BC}/decks", deck("ben", "Ben", 2, *BEN))
        table.write(gm, f"/{BC}/decks", deck("cara", "Cara", 2))
        storm = {"card": {"name": "Storm", "value": "1d6"}}
        table.refuse(anna, f"/{BC}/universe", storm, 403, "gm-only")
        table.write(gm, f"/{BC}/universe", storm)
        table.refuse(olga, f"/{BC}/decks", deck("olga", "Eve", 1), 403, "observer")
        ok(service.client(gm, "session", "start"))

        # Anna asks for the scene through the CLI client; the observer may not.
        opening = ("open", "anna", "ben", "cara", "--asked-by", "anna")
        assert refused(service.client(olga, BC, *opening)).startswith("observer:")
        assert "scene s1 starts" in ok(service.client(anna, BC, *opening))

        # BC-1: Anna bids (only she may), Cara passes, Ben challenges within the bid's count.
        gate = {"type": "detail", "detail": "gate-open", "text": "The gate stands open"}
        bid = {
            "active": "anna",
            "description": "I force the gate",
            "cards": ["Brawn", "Sword"],
            "power": gate,
        }
        message = table.refuse(ben, f"{S1}/bids", bid, 403, "not-yours")
        assert message == "ben may not bid for this character: it belongs to anna"
        table.refuse(gm, f"{S1}/bids", bid, 403, "not-yours")
        over = {**bid, "cards": ["Brawn", "Sword", "Body", "Persuade"]}
        assert table.refuse(anna, f"{S1}/bids", over, 422, "flow-limit") == (
            "bid commits 4 cards but anna's Flow is 3"
        )
        table.write(anna, f"{S1}/bids", bid)
        table.refuse(ben, f"{S1}/passes", {"player": "cara"}, 403, "not-yours")
        table.write(cara, f"{S1}/passes", {"player": "cara"})
        wide = {
            "challenger": "ben",
            "description": "No",
            "cards": ["Dodge", "Sneak"],
            "universe": ["Storm"],
        }
        assert table.refuse(ben, f"{S1}/challenges", wide, 422, "challenge-limit") == (
            "challenger may commit at most 2 cards (the bid's count); got 3"
        )
        challenge = {**wide, "description": "The storm slams the gate", "cards": ["Dodge"]}
        table.write(ben, f"{S1}/challenges", challenge)
        push = {"active": "anna", "description": "I wedge it", "cards": ["QuickWits"]}
        table.refuse(ben, f"{S1}/pushes", push, 403, "not-yours")
        table.write(anna, f"{S1}/pushes", push)
        faces = {"active_faces": [4, 2, 1], "challenger_faces": [5, 6]}
        # Recorded dice: one roll carries both sides' faces, so neither side records it (Anna
        # would be choosing Ben's dice); the GM records what the table rolled.
        for player in (anna, ben):
            assert table.refuse(player, f"{S1}/rolls", faces, 403, "gm-only").startswith(
                "only the GM may do this"
            )
        table.write(gm, f"{S1}/rolls", faces)
        # The winner narrates: Ben's player only (not Anna, nor the GM, who acts for its own
        # characters), once.
        words = {"player": "ben", "text": "The gate slams on Anna's fingers"}
        table.refuse(anna, f"{S1}/narrations", words, 403, "not-yours")
        table.refuse(gm, f"{S1}/narrations", words, 403, "not-yours")
        table.write(ben, f"{S1}/narrations", words)
        assert table.refuse(ben, f"{S1}/narrations", words, 422, "narrated-twice") == (
            "ben has narrated round 1 of scene s1 already; a round is narrated once"
        )

        # BC-2: Ben strikes Sword; Anna challenges; the GM rolls for a silent Ben.
        strike = {"type": "strike", "target": "anna", "cards": ["Sword"]}
        table.write(
            ben,
            f"{S1}/bids",
            {"active": "ben", "description": "Into the moat", "cards": ["Sneak"], "power": strike},
        )
        table.write(
            anna,
            f"{S1}/challenges",
            {"challenger": "anna", "description": "No", "cards": ["Persuade"]},
        )
        table.write(gm, f"{S1}/rolls", {"active_faces": [6], "challenger_faces": [5]})

        # Every reader sees the same: the observer too.
        shown = table.get(olga, S1)["view"]
        assert shown["beats"] == [["ben", "anna"], ["ben", "anna"]]
        assert shown["rounds"][0]["rolls"]["active"]["total"] == 10
        assert shown["rounds"][1]["rule"] == "ben 6 ties anna 6: ties go to the active player"
        assert shown["rounds"][0]["narration"] == words
        state = table.get(cara, "/state")
        assert state["characters"]["anna"]["discard"] == ["sword", "quickwits"]
        # Cara's Deck is empty: the turn passes over her.
        assert state["conflicts"]["s1"]["waiting_for"] == "anna to bid or pass"
        assert table.get(olga, "/audit")["ok"] is True
        post = http.get(
            "/campaigns/keep/export",
            params={"format": "discord"},
            headers={"Authorization": f"Bearer {olga}"},
        ).text
        assert "ben 12 beats anna 10" in post
        assert "The gate slams on Anna" in post
        # The GM may end the scene between rounds; a player may not.
        table.refuse(cara, f"{S1}/end", {}, 403, "gm-only")
        table.write(gm, f"{S1}/end", {"reason": "the keep burns"})
        assert table.log(olga)[-1]["type"] == "bc.scene_ended"
        schema = http.get("/schema/openapi.json").json()
        assert (
            "/campaigns/{campaign}/bid-and-challenge/conflicts/{conflict}/challenges"
            in schema["paths"]
        )
