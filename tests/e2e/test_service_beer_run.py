"""Beer Run through the play-by-post service: a real `tablelog serve` on 127.0.0.1, over SQLite
and PostgreSQL, played with the CLI client (`--server URL --access-token TOKEN`) and raw HTTP.

Who may do what (tablelog/rulesets/beer_run/rules/cast.py): a player acts only for its own
characters, the GM runs the table (open, difficulty pools, end) and acts for its NPCs, an
observer only reads. What each may see (tablelog/rulesets/beer_run/views/visibility.py): a bought
pool is its owner's alone until it is rolled, so nobody buys a pool knowing another's; its
price too, so the buyer's Intensity as shown to others leaves it out until then.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.transcript import TOKEN, ok, refused, run
from tests.support.server import admin, admin_token, running_service


@dataclass(frozen=True)
class Service:
    url: str
    db: str
    cwd: Path

    def client(self, token: str | None, *args: str) -> subprocess.CompletedProcess[str]:
        """`tablelog --server URL --access-token TOKEN ARGS...`."""
        auth = ("--access-token", token) if token is not None else ()
        return run(self.cwd, "--server", self.url, *auth, *args)

    def local(self, *args: str) -> subprocess.CompletedProcess[str]:
        """`tablelog --db DB ARGS...`: the operator's own view of the same database."""
        return run(self.cwd, "--db", self.db, *args)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Service]:
    if request.param == "sqlite":
        db = str(tmp_path / "tablelog.db")
    else:
        db = request.getfixturevalue("pg_target")
        ok(run(tmp_path, "--db", db, "db", "upgrade"))
    with running_service(db, tmp_path) as url:
        yield Service(url=url, db=db, cwd=tmp_path)


@pytest.fixture
def sqlite_service(tmp_path: Path) -> Iterator[Service]:
    db = str(tmp_path / "tablelog.db")
    with running_service(db, tmp_path) as url:
        yield Service(url=url, db=db, cwd=tmp_path)


@dataclass(frozen=True)
class Table:
    """One campaign over raw HTTP: POSTs under /campaigns/NAME, reads as a given token."""

    http: httpx.Client
    campaign: str
    gm: str  # the GM's token: counts the events after a refusal

    def post(self, token: str, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(
            f"/campaigns/{self.campaign}{path}",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )

    def write(self, token: str, path: str, body: dict[str, Any]) -> None:
        made = self.post(token, path, body)
        assert made.status_code == 201, made.text

    def refuse(self, token: str, path: str, body: dict[str, Any], status: int, code: str) -> str:
        """The POST is refused with STATUS and {"code": CODE, "message": ...}; nothing appended."""
        before = len(self.log(self.gm))
        made = self.post(token, path, body)
        assert made.status_code == status, (path, body, made.status_code, made.text)
        answer = made.json()
        assert set(answer) == {"code", "message"}, answer
        assert answer["code"] == code, answer
        assert answer["message"], answer
        assert len(self.log(self.gm)) == before, f"{path} {body} appended"
        message: str = answer["message"]
        return message

    def get(self, token: str, path: str) -> Any:
        got = self.http.get(
            f"/campaigns/{self.campaign}{path}", headers={"Authorization": f"Bearer {token}"}
        )
        assert got.status_code == 200, got.text
        return got.json()

    def log(self, token: str) -> list[dict[str, Any]]:
        """`/log` as TOKEN sees it: each item's JSON line, parsed."""
        return [json.loads(item["line"]) for item in self.get(token, "/log")]


def character(player: str, name: str, *specs: str) -> dict[str, Any]:
    abilities = []
    for spec in specs:
        ability, category, size = spec.split(":")
        abilities.append({"name": ability, "category": category, "size": size})
    return {"player": player, "character": name, "abilities": abilities}


ALICE = ("Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Brawl:Body:d10", "Health:Body:d6")
BOB = ("Body:Body:d8", "Mind:Mind:d8", "Kit:Kit:d6", "Resolve:Mind:d6", "Health:Body:d8")
GOON = ("Body:Body:d6", "Mind:Mind:d4", "Kit:Kit:d4", "Health:Body:d4")
C1 = "/beer-run/conflicts/c1"


def pool_events(events: list[dict[str, Any]], actor: str) -> list[dict[str, Any]]:
    return [
        e for e in events if e["type"] == "br.pool_assembled" and e["payload"]["actor"] == actor
    ]


def hidden(event: dict[str, Any]) -> bool:
    payload = event["payload"]
    values = [payload[k] for k in ("dice", "extras", "intensity_cost", "salt")]
    return event.get("redacted") is True and values == [None, None, None, None]


def test_a_round_through_the_service(service: Service) -> None:
    # $ tablelog --server URL campaign create pub -r beer-run -o dice=recorded --json
    created = json.loads(
        ok(
            service.client(
                admin_token(service.url),
                "campaign",
                "create",
                "pub",
                "-r",
                "beer-run",
                "-o",
                "dice=recorded",
                "--json",
            )
        )
    )
    assert (created["campaign"], created["ruleset"]) == ("pub", "beer-run")
    gm = created["token"]
    # $ tablelog --server URL --access-token GM invite PLAYER --json
    ann = json.loads(ok(service.client(gm, "invite", "ann", "--json")))["token"]
    bert = json.loads(ok(service.client(gm, "invite", "bert", "--json")))["token"]
    assert TOKEN.fullmatch(ann)
    assert TOKEN.fullmatch(bert)

    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        table = Table(http, "pub", gm)
        made = http.post(
            "/campaigns/pub/players/olga/tokens",
            json={"role": "observer"},
            headers={"Authorization": f"Bearer {gm}"},
        )
        assert made.status_code == 201, made.text
        olga = made.json()["token"]

        # Characters: each player its own, the GM its NPC.
        table.refuse(ann, "/beer-run/characters", character("bert", "Bob", *BOB), 403, "not-yours")
        table.write(ann, "/beer-run/characters", character("ann", "Alice", *ALICE))
        table.write(bert, "/beer-run/characters", character("bert", "Bob", *BOB))
        table.write(gm, "/beer-run/characters", character("gm", "Goon", *GOON))
        table.refuse(olga, "/beer-run/characters", character("olga", "Eve", *GOON), 403, "observer")

        # Only the GM opens a conflict.
        sides = {"sides": {"heroes": ["alice"], "thugs": ["bob", "goon"]}}
        table.refuse(ann, "/beer-run/conflicts", sides, 403, "gm-only")
        table.refuse(olga, "/beer-run/conflicts", sides, 403, "observer")
        table.write(gm, "/beer-run/conflicts", sides)

        # Goals: each for its own character (the GM for its NPC only).
        alice_goal = {
            "actor": "alice",
            "text": "Bob backs down",
            "against": "bob",
            "ability": "Resolve",
        }
        bob_goal = {"actor": "bob", "text": "Alice is beaten", "against": "alice"}
        table.refuse(ann, f"{C1}/goals", bob_goal, 403, "not-yours")
        table.refuse(gm, f"{C1}/goals", alice_goal, 403, "not-yours")
        table.refuse(olga, f"{C1}/goals", alice_goal, 403, "observer")
        table.write(ann, f"{C1}/goals", alice_goal)
        table.write(bert, f"{C1}/goals", bob_goal)
        goon_goal = {
            "actor": "goon",
            "text": "Trip Alice",
            "kind": "helping",
            "ally": "bob",
            "die": "d6",
        }
        table.write(gm, f"{C1}/goals", goon_goal)
        # $ tablelog --server URL --access-token BERT beer-run goal c1 alice ...  (not his)
        line = refused(service.client(bert, "beer-run", "goal", "c1", "alice", "I give up"))
        assert line == "not-yours: bert may not declare this character's goal: it belongs to ann"

        # The GM's difficulty pool against the helper: d2 x4, two become the target d6.
        table.refuse(bert, f"{C1}/difficulty", {"against": "goon", "replace": 2}, 403, "gm-only")
        table.write(gm, f"{C1}/difficulty", {"against": "goon", "replace": 2})
        table.write(gm, f"{C1}/pools", {"actor": "goon", "base": ["Body", "Mind", "Kit"]})
        # Goon [6,4,3] + pad 1 against [6,4,2,1]: ties, then 3>2: one success, the upper hand.
        roll = {"actor": "goon", "values": [6, 4, 3], "difficulty": [4, 6, 1, 2]}
        table.refuse(bert, f"{C1}/rolls", roll, 403, "gm-only")  # difficulty faces: the GM's
        table.write(gm, f"{C1}/rolls", roll)

        # $ tablelog --server URL --access-token ANN beer-run pool c1 alice ... --extra Brawl
        ok(
            service.client(
                ann, "beer-run", "pool", "c1", "alice", "Body", "Mind", "Kit", "-x", "Brawl"
            )
        )

        # --- alice's pool is bought, bob's is not: only ann sees it, and its price -----------
        # $ tablelog --server URL --access-token BERT log --json
        lines = ok(service.client(bert, "log", "--json")).splitlines()
        bert_log = [json.loads(line) for line in lines]
        (alice_pool,) = pool_events(bert_log, "alice")
        assert hidden(alice_pool), alice_pool
        assert "brawl" not in json.dumps(alice_pool)
        for token in (gm, olga):
            (seen,) = pool_events(table.log(token), "alice")
            assert hidden(seen), seen
        (own,) = pool_events(table.log(ann), "alice")
        assert not own.get("redacted")
        assert own["payload"]["intensity_cost"] == 2
        assert own["payload"]["extras"] == 1
        assert [d["name"] for d in own["payload"]["dice"]] == ["body", "mind", "kit", "brawl"]
        assert len(own["payload"]["salt"]) == 32
        # $ tablelog --server URL --access-token BERT state --json
        bert_state = json.loads(ok(service.client(bert, "state", "--json")))
        assert bert_state["characters"]["alice"]["intensity"] == 10  # not yet 10 - 2
        for token in (gm, olga):
            assert table.get(token, "/state")["characters"]["alice"]["intensity"] == 10
        assert table.get(ann, "/state")["characters"]["alice"]["intensity"] == 8
        # $ tablelog --server URL --access-token BERT beer-run show c1 --json
        shown = json.loads(ok(service.client(bert, "beer-run", "show", "c1", "--json")))
        assert shown["rounds"][0]["pools"]["alice"] == {"dice": None, "extras": None, "cost": None}
        for token in (gm, olga):
            shown_to = table.get(token, C1)
            assert "  pool alice: bought, hidden until rolled" in shown_to["lines"]
            view = shown_to["view"]
            assert view["rounds"][0]["pools"]["alice"] == {
                "dice": None,
                "extras": None,
                "cost": None,
            }
        assert table.get(ann, C1)["view"]["rounds"][0]["pools"]["alice"]["cost"] == 2

        # bob's pool: Body d8, Mind d8, Kit d6 and the d6 situation die Goon earned for him.
        table.write(bert, f"{C1}/pools", {"actor": "bob", "base": ["Body", "Mind", "Kit"]})
        (bob_pool,) = pool_events(table.log(ann), "bob")
        assert hidden(bob_pool), bob_pool
        assert table.get(ann, "/state")["characters"]["bob"]["intensity"] == 10

        # A rule violation is 422 with {"code", "message"}, and appends nothing.
        bad = {"actor": "bob", "values": [9, 4, 6, 1]}
        message = table.refuse(bert, f"{C1}/rolls", bad, 422, "bad-value")
        assert message == "value 9 is impossible on a d8"
        alice_roll = {"actor": "alice", "values": [7, 5, 3, 2]}
        table.refuse(bert, f"{C1}/rolls", alice_roll, 403, "not-yours")

        # BR-2 with the situation die as bob's 4th: [7,5,3,2] against [7,6,4,1].
        table.write(ann, f"{C1}/rolls", alice_roll)
        # alice has rolled: her pool is everyone's now, bob's still his own.
        (alice_pool,) = pool_events(table.log(bert), "alice")
        assert not alice_pool.get("redacted")
        assert alice_pool["payload"]["intensity_cost"] == 2
        assert hidden(pool_events(table.log(ann), "bob")[0])
        table.write(bert, f"{C1}/rolls", {"actor": "bob", "values": [7, 4, 6, 1]})

        # Effects: the upper hand (bob) first; each allocates only for its own character.
        alice_pips = {"by": "alice", "against": "bob", "pips": {"Resolve": 1}}
        bob_pips = {"by": "bob", "against": "alice", "pips": {"Health": 2}}
        table.refuse(ann, f"{C1}/allocations", alice_pips, 422, "upper-hand-first")
        table.refuse(gm, f"{C1}/allocations", bob_pips, 403, "not-yours")
        table.write(bert, f"{C1}/allocations", bob_pips)  # Health d6 -> d4
        table.write(ann, f"{C1}/allocations", alice_pips)  # Resolve d6 -> d5

        # --- every pool rolled: everything is visible to everyone -----------------------------
        for token in (gm, ann, bert, olga):
            events = table.log(token)
            assert not [e["seq"] for e in events if e.get("redacted")], token
            view = table.get(token, C1)["view"]
            pools = view["rounds"][0]["pools"]
            assert (pools["alice"]["cost"], pools["bob"]["cost"]) == (2, 1), token
            assert [d["size"] for d in pools["bob"]["dice"]] == [8, 8, 6, 6], token
            people = table.get(token, "/state")["characters"]
            assert (people["alice"]["intensity"], people["bob"]["intensity"]) == (8, 9), token
            assert people["alice"]["abilities"]["health"]["size"] == 4, token
            assert people["bob"]["abilities"]["resolve"]["size"] == 5, token
        (compared,) = [c for c in view["rounds"][0]["comparisons"] if c["b"] != "difficulty"]
        assert (compared["upper_hand"], compared["kept"]) == ("bob", {"alice": 1, "bob": 2})

        # Only the GM ends the conflict.
        table.refuse(ann, f"{C1}/end", {"result": "Alice walks"}, 403, "gm-only")
        # $ tablelog --server URL --access-token GM beer-run end c1 --result ...
        ok(service.client(gm, "beer-run", "end", "c1", "--result", "Bob flees into the night"))
        remote = table.get(gm, "/state")
        assert remote["conflicts"]["c1"]["status"] == "ended"
        assert remote["conflicts"]["c1"]["result"] == "Bob flees into the night"
    # Nothing is hidden any more: the GM's state is the operator's.
    assert json.loads(ok(service.local("state", "--json"))) == remote


# --- small tables laid over HTTP: a recorded helping roll, and two known bugs ------------------


def new_table(http: httpx.Client, name: str) -> Table:
    """POST /campaigns: a recorded-dice Beer Run campaign and its GM's token."""
    made = http.post(
        "/campaigns",
        json={"name": name, "ruleset": "beer-run", "options": {"dice": "recorded"}},
        headers=admin(str(http.base_url)),
    )
    assert made.status_code == 201, made.text
    return Table(http, name, made.json()["token"])


def alice_pool_hidden_from_the_gm(http: httpx.Client) -> Table:
    """ann's alice (with an extra Brawl d10, 2 Intensity) and the GM's bob have bought their
    pools; neither has rolled. The GM sees alice's Intensity as 10 and none of her dice."""
    table = new_table(http, "probe")
    made = http.post(
        "/campaigns/probe/players/ann/tokens",
        json={"role": "player"},
        headers={"Authorization": f"Bearer {table.gm}"},
    )
    assert made.status_code == 201, made.text
    ann = made.json()["token"]
    table.write(ann, "/beer-run/characters", character("ann", "Alice", *ALICE))
    table.write(table.gm, "/beer-run/characters", character("gm", "Bob", *BOB))
    table.write(table.gm, "/beer-run/conflicts", {"sides": {"heroes": ["alice"], "thugs": ["bob"]}})
    table.write(ann, f"{C1}/goals", {"actor": "alice", "text": "Bob backs down"})
    table.write(table.gm, f"{C1}/goals", {"actor": "bob", "text": "Alice is beaten"})
    alice = {"actor": "alice", "base": ["Body", "Mind", "Kit"], "extras": ["Brawl"]}
    table.write(ann, f"{C1}/pools", alice)
    table.write(table.gm, f"{C1}/pools", {"actor": "bob", "base": ["Body", "Mind", "Kit"]})
    assert table.get(table.gm, "/state")["characters"]["alice"]["intensity"] == 10
    (pool,) = pool_events(table.log(table.gm), "alice")
    assert hidden(pool), pool
    return table


def test_a_refused_roll_tells_the_gm_nothing_of_a_hidden_pool(sqlite_service: Service) -> None:
    with httpx.Client(base_url=sqlite_service.url, timeout=30.0) as http:
        table = alice_pool_hidden_from_the_gm(http)
        probe = table.post(
            table.gm, f"{C1}/rolls", {"actor": "alice", "values": [1], "difficulty": [1]}
        )
        assert probe.status_code in (403, 422), probe.text
        assert "d10" not in probe.text, probe.text
        assert "4 dice" not in probe.text, probe.text


def test_a_refused_intensity_change_tells_the_gm_nothing_of_a_hidden_price(
    sqlite_service: Service,
) -> None:
    with httpx.Client(base_url=sqlite_service.url, timeout=30.0) as http:
        table = alice_pool_hidden_from_the_gm(http)
        probe = table.post(table.gm, "/beer-run/intensity", {"character": "alice", "delta": -9})
        assert probe.status_code == 422, probe.text
        assert "has 8" not in probe.json()["message"], probe.text


def test_a_recorded_helping_roll_needs_the_difficulty_faces(sqlite_service: Service) -> None:
    with httpx.Client(base_url=sqlite_service.url, timeout=30.0) as http:
        table = new_table(http, "helped")
        gm = table.gm
        table.write(gm, "/beer-run/characters", character("gm", "Alice", *ALICE))
        table.write(gm, "/beer-run/characters", character("gm", "Cara", *GOON))
        table.write(gm, "/beer-run/characters", character("gm", "Bob", *BOB))
        sides = {"sides": {"heroes": ["alice", "cara"], "thugs": ["bob"]}}
        table.write(gm, "/beer-run/conflicts", sides)
        help_goal = {"actor": "cara", "text": "Distract Bob", "kind": "helping", "ally": "alice"}
        table.write(gm, f"{C1}/goals", {**help_goal, "die": "d8"})
        table.write(gm, f"{C1}/goals", {"actor": "alice", "text": "Bob backs down"})
        table.write(
            gm, f"{C1}/goals", {"actor": "bob", "text": "Alice is beaten", "against": "alice"}
        )
        table.write(gm, f"{C1}/difficulty", {"against": "cara", "replace": 3})
        table.write(gm, f"{C1}/pools", {"actor": "cara", "base": ["Body", "Mind", "Kit"]})
        # Cara's faces only: the difficulty pool's were never given.
        before = len(table.log(gm))
        made = table.post(gm, f"{C1}/rolls", {"actor": "cara", "values": [6, 4, 3]})
        assert made.status_code == 422, made.text
        assert set(made.json()) == {"code", "message"}, made.text
        assert "--difficulty" in made.json()["message"], made.text
        assert len(table.log(gm)) == before
        # With them, the roll is taken: both pools' faces stored as recorded from the table.
        roll = {"actor": "cara", "values": [6, 4, 3], "difficulty": [8, 3, 1, 2]}
        table.write(gm, f"{C1}/rolls", roll)
        rolled = [e["payload"] for e in table.log(gm) if e["type"] == "br.pool_rolled"]
        assert [[f["value"] for f in p["results"]] for p in rolled] == [[6, 4, 3], [8, 3, 1, 2]]
        assert [(p["difficulty"], p["generated"]) for p in rolled] == [
            (False, False),
            (True, False),
        ]
