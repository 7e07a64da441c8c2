"""The play-by-post service end to end: a real `tablelog serve` (uvicorn on a free 127.0.0.1
port) over SQLite and PostgreSQL, played through the CLI client and checked over raw HTTP.

Each player holds a token of its own and acts only for its own character; the GM runs the
table. What comes back through `--server` must be what local mode prints for the same
database (cli.md, "Playing through the service"). Every read of the live feed is bounded by a
read timeout and a deadline, so no test here can hang.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from tablelog.commands.endpoints import all_endpoints
from tablelog.storage.schema import access_tokens
from tests.e2e.transcript import TOKEN, ok, refused, run
from tests.support.server import admin, admin_token, running_service

# --- the service under test ------------------------------------------------------------------


@dataclass(frozen=True)
class Service:
    """A running service, the database behind it, and the directory the CLI runs in."""

    url: str
    db: str
    cwd: Path

    def client(self, token: str | None, *args: str) -> subprocess.CompletedProcess[str]:
        """`tablelog --server URL --access-token TOKEN ARGS...`: the CLI as a client."""
        auth = ("--access-token", token) if token is not None else ()
        return run(self.cwd, "--server", self.url, *auth, *args)

    def local(self, *args: str) -> subprocess.CompletedProcess[str]:
        """`tablelog --db DB ARGS...`: local mode on the service's own database."""
        return run(self.cwd, "--db", self.db, *args)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Service]:
    """`tablelog serve` over a SQLite file in tmp_path, or over a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        db = str(tmp_path / "tablelog.db")
    else:
        db = request.getfixturevalue("pg_target")
        # $ tablelog --db URL db upgrade   (a server is migrated explicitly)
        ok(run(tmp_path, "--db", db, "db", "upgrade"))
    with running_service(db, tmp_path) as url:
        yield Service(url=url, db=db, cwd=tmp_path)


def log_count(service: Service, token: str) -> int:
    """How many events `tablelog log --json` shows through the service."""
    return len(ok(service.client(token, "log", "--json")).splitlines())


# --- 1. the bar fight, played by three players and a GM, each with their own token -----------

# rules/improv.md §9, as tablelog/commands/demo.py writes it (SETUP, OPENING, ROUND_1..3,
# MAIN_ENDING): who types it, then what they type after `tablelog --server URL --access-token`.
BAR_FIGHT: list[tuple[str, str]] = [
    # SETUP: each player makes its own protagonist; Susan and Bob award tokens before the fight.
    ("bob", "improv character bob Kit --talent Brawler"),
    ("richard", "improv character richard Jason --talent Protector"),
    ("susan", "improv character susan Diana --talent Marksman"),
    ("gm", "session start"),
    ("gm", 'scene start "Riso\'s bar"'),
    ("susan", "improv award susan bob"),
    ("bob", "improv award bob richard"),
    # OPENING
    ("gm", "improv open --id fight --extended --rounds 3"),
    ("gm", 'improv stake fight Riso "Riso shoots Vinny and gets away" --gm'),
    ("gm", 'improv stake fight Goons "The goons grab Vinny" --gm'),
    ("bob", 'improv stake fight Kit "Kit captures Riso" --opposes Riso'),
    ("richard", 'improv stake fight Jason "Jason keeps Vinny safe" --opposes Riso'),
    ("susan", 'improv stake fight Diana "Diana holds off the goons" --opposes Goons'),
    # ROUND_1
    ("bob", "improv play fight Kit JK"),
    ("gm", "improv play fight Riso QD"),
    ("richard", "improv play fight Jason 8S"),
    ("gm", "improv play fight Goons KS --from-deck"),
    ("susan", "improv play fight Diana 3C"),
    ("gm", "improv reveal fight"),
    ("susan", 'improv narrate fight Diana "Diana warns the patrons to get down."'),
    ("bob", 'improv narrate fight Kit "Kit charges past the goons at Riso."'),
    # ROUND_2
    ("bob", "improv play fight Kit AH"),
    ("gm", "improv play fight Riso AC"),
    ("richard", "improv play fight Jason 9C"),
    ("gm", "improv play fight Goons 4D --from-deck"),
    ("susan", "improv play fight Diana JH"),
    ("richard", "improv bonus fight --on Jason --talent Protector"),
    ("susan", "improv bonus fight --on Diana --talent Marksman"),
    ("gm", "improv bonus fight --on Riso --token --count 1"),
    ("bob", "improv bonus fight --on Kit --token --count 1"),
    ("gm", "improv reveal fight"),
    ("bob", "improv award bob susan --conflict fight"),
    # ROUND_3
    ("bob", "improv play fight Kit 10H"),
    ("gm", "improv play fight Riso 9C"),
    ("richard", "improv play fight Jason 10S"),
    ("gm", "improv play fight Goons 2D --from-deck"),
    ("susan", "improv play fight Diana JD"),
    ("richard", "improv bonus fight --on Jason --token --count 1"),
    ("richard", "improv bonus fight --on Jason --talent Protector"),
    ("bob", "improv bonus fight --on Kit --talent Brawler"),
    ("susan", "improv bonus fight --on Diana --token --count 1"),
    ("gm", "improv bonus fight --on Riso --token --count 2"),
    ("gm", "improv reveal fight"),
    # MAIN_ENDING
    ("richard", "improv give fight Jason Kit 10S"),
    (
        "richard",
        'improv narrate fight Jason "A flying wood chip cuts Jason above the eye; '
        'he loses hold of Vinny." --final',
    ),
    ("gm", "improv give fight Goons Riso KS"),
    ("gm", 'improv narrate fight Goons "The two remaining goons rush at Diana." --final'),
    ("susan", "improv give fight Diana Kit JH"),
    (
        "susan",
        'improv narrate fight Diana "Diana kicks one goon down and covers the other, '
        'shouting to Kit." --final',
    ),
    (
        "gm",
        'improv narrate fight Riso "Riso steps into the open and shoots Vinny in the chest." '
        "--final",
    ),
    (
        "bob",
        "improv narrate fight Kit \"Kit tackles Riso: 'You just gunned down a man in front of "
        "three agents.'\" --final",
    ),
    ("susan", "improv award susan richard --conflict fight"),
    ("richard", "improv award richard bob --conflict fight"),
    ("gm", "improv close fight"),
]

PLAYERS = ("susan", "bob", "richard")
FINAL_BEATS = [["kit", "riso"], ["riso", "jason"], ["diana", "goons"]]


def test_the_bar_fight_played_through_the_service(service: Service) -> None:
    # $ tablelog --server URL campaign create bar-fight --ruleset improv --json
    # $   (--access-token: the admin token `tablelog serve` printed on its first start)
    made = service.client(
        admin_token(service.url), "campaign", "create", "bar-fight", "--ruleset", "improv", "--json"
    )
    created = json.loads(ok(made))
    assert created["campaign"] == "bar-fight"
    assert TOKEN.fullmatch(created["token"])
    tokens = {"gm": created["token"]}
    # $ tablelog --server URL --access-token GM invite PLAYER --json   (one token each)
    for player in PLAYERS:
        invited = json.loads(ok(service.client(tokens["gm"], "invite", player, "--json")))
        assert TOKEN.fullmatch(invited["token"])
        tokens[player] = invited["token"]
    assert len(set(tokens.values())) == 4, "every token is new"

    for who, line in BAR_FIGHT:
        out = ok(service.client(tokens[who], *shlex.split(line)))
        assert out.strip(), f"{who}: `{line}` printed nothing"

    # The table through the service (GM token) is the table local mode folds from the same
    # database: after the close every card is face up, so nothing is hidden from the GM.
    remote = json.loads(ok(service.client(tokens["gm"], "state", "--json")))
    local = json.loads(ok(service.local("state", "--json")))
    assert remote == local
    fight = remote["conflicts"]["fight"]
    assert fight["status"] == "closed"
    assert fight["beats"] == FINAL_BEATS
    assert remote["tokens"]["gm"] == 8

    # $ tablelog --server URL --access-token GM verify
    ok(service.client(tokens["gm"], "verify"))

    # The same fight written by `tablelog demo` in a directory of its own: the game agrees.
    # (The logs differ legitimately: invitations add player_joined events and actors differ.)
    demo_dir = service.cwd / "demo"
    demo_dir.mkdir()
    ok(run(demo_dir, "demo"))
    reference = json.loads(ok(run(demo_dir, "state", "--json")))
    for key in ("conflicts", "tokens", "talents"):
        assert remote[key] == reference[key], key

    # Same output as local mode, for reads of the same database (nothing is hidden any more;
    # log lines carry times, so whole lines are compared).
    for read in (
        ["improv", "show", "fight"],
        ["improv", "show", "fight", "--json"],
        ["log"],
        ["audit"],
    ):
        through = ok(service.client(tokens["gm"], *read))
        assert through.strip(), read
        assert through.splitlines() == ok(service.local(*read)).splitlines(), read
    # TABLELOG_SERVER and TABLELOG_TOKEN do what --server and --access-token do; after the
    # close a player's view of the log is the whole log.
    env = {"TABLELOG_SERVER": service.url, "TABLELOG_TOKEN": tokens["susan"]}
    lines = ok(run(service.cwd, "log", "--json", env=env)).splitlines()
    assert lines == ok(service.local("log", "--json")).splitlines()
    assert not any(json.loads(line).get("redacted") for line in lines)


# --- 2. refusals through the client: exit 1, one sentence, nothing appended ------------------


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_campaign(http: httpx.Client, name: str) -> str:
    """POST /campaigns: the GM's token."""
    made = http.post(
        "/campaigns", json={"name": name, "ruleset": "improv"}, headers=admin(str(http.base_url))
    )
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


def invite(http: httpx.Client, campaign: str, gm: str, player: str, role: str = "player") -> str:
    path = f"/campaigns/{campaign}/players/{player}/tokens"
    made = http.post(path, json={"role": role}, headers=bearer(gm))
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


def write(http: httpx.Client, campaign: str, path: str, body: dict[str, Any], token: str) -> int:
    """One command over HTTP, which must be accepted: the seq it reached."""
    made = http.post(f"/campaigns/{campaign}{path}", json=body, headers=bearer(token))
    assert made.status_code == 201, made.text
    seq: int = made.json()["seq"]
    return seq


def read_log(http: httpx.Client, campaign: str, token: str) -> list[dict[str, Any]]:
    got = http.get(f"/campaigns/{campaign}/log", headers=bearer(token))
    assert got.status_code == 200, got.text
    items: list[dict[str, Any]] = got.json()
    return items


def test_refusals_through_the_client(service: Service) -> None:
    # The table is laid over HTTP (quicker); the refusals go through the CLI client.
    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        gm = new_campaign(http, "heist")
        bob, susan = invite(http, "heist", gm, "bob"), invite(http, "heist", gm, "susan")
        carol = invite(http, "heist", gm, "carol", role="observer")
        write(http, "heist", "/improv/characters", {"player": "bob", "character": "Kit"}, bob)
        write(http, "heist", "/improv/characters", {"player": "susan", "character": "Jason"}, susan)
        count = log_count(service, gm)

        def refused_through(token: str, line: str, code: str) -> str:
            """`tablelog --server URL --access-token TOKEN LINE`: refused with CODE, no event."""
            sentence = refused(service.client(token, *shlex.split(line)))
            assert sentence.startswith(f"{code}: "), sentence
            assert len(read_log(http, "heist", gm)) == count, f"`{line}` appended"
            return sentence

        # A player runs the GM's part.
        refused_through(bob, "session start", "gm-only")
        write(http, "heist", "/sessions", {}, gm)
        write(http, "heist", "/improv/conflicts", {"conflict": "c1"}, gm)
        stakes = "/improv/conflicts/c1/stakes"
        write(http, "heist", stakes, {"side": "Riso", "gm": True, "text": "Riso gets away"}, gm)
        write(http, "heist", stakes, {"side": "Kit", "opposes": "Riso", "text": "Kit stops"}, bob)
        write(http, "heist", stakes, {"side": "Jason", "opposes": "Riso", "text": "Me too"}, susan)
        count = len(read_log(http, "heist", gm))

        # Local-only commands are refused with --server (the export file exists and is valid).
        export = service.cwd / "heist.jsonl"
        export.write_bytes(http.get("/campaigns/heist/export", headers=bearer(gm)).content)
        for line in ("demo", f"import {export}", "db upgrade"):
            refused_through(gm, line, "local-only")

        # A player invites (the GM's part).
        refused_through(susan, "invite dave", "gm-only")
        # A player acts for another's character; the GM acts for a player's side.
        sentence = refused_through(bob, "improv play c1 Jason 8S", "not-yours")
        assert "bob" in sentence, sentence
        assert "susan" in sentence, sentence
        refused_through(gm, "improv play c1 Kit 8S", "not-yours")
        # An observer writes.
        refused_through(carol, "improv play c1 Kit 8S", "observer")
        # A token the service never issued.
        refused_through("x" * 43, "improv play c1 Kit 8S", "unknown-token")

        plays = "/improv/conflicts/c1/plays"
        write(http, "heist", plays, {"side": "Kit", "card": "5H"}, bob)
        write(http, "heist", plays, {"side": "Jason", "card": "9C"}, susan)
        write(http, "heist", plays, {"side": "Riso", "card": "QD"}, gm)
        count = len(read_log(http, "heist", gm))

        # A rule violation: the GM's limit in a simple conflict with 2 players is 1 + 2 = 3
        # tokens. The same sentence as local mode gives on the same database.
        line = "improv bonus c1 --on Riso --token --count 4"
        through = refused_through(gm, line, "gm-token-limit")
        assert "3" in through, through
        assert "4" in through, through
        assert through == refused(service.local(*shlex.split(line)))
        assert len(read_log(http, "heist", gm)) == count

        # Revoked: the GM revokes bob; bob's next command is refused, susan's token still works.
        assert "bob" in ok(service.client(gm, "revoke", "bob"))
        count += 1  # the revoke itself is logged (access.revoked)
        refused_through(bob, 'improv narrate c1 Kit "Kit waits."', "revoked-token")
        ok(service.client(susan, "improv", "narrate", "c1", "Jason", "Jason waits."))
        count += 1
        assert log_count(service, gm) == count


# --- 3. the HTTP API directly: If-Match, Idempotency-Key, auth, bodies, OpenAPI -------------


def test_http_conditions_retries_auth_and_bodies(service: Service) -> None:
    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        gm = new_campaign(http, "vault")
        bob, susan = invite(http, "vault", gm, "bob"), invite(http, "vault", gm, "susan")
        write(http, "vault", "/improv/characters", {"player": "bob", "character": "Kit"}, bob)
        write(http, "vault", "/improv/characters", {"player": "susan", "character": "Jason"}, susan)

        def events() -> int:
            return len(read_log(http, "vault", gm))

        def post(path: str, body: dict[str, Any], token: str | None, **headers: str) -> Any:
            auth = bearer(token) if token is not None else {}
            return http.post(f"/campaigns/vault{path}", json=body, headers={**auth, **headers})

        # If-Match: a stale seq is refused (409) and appends nothing; the current one writes.
        seq = read_log(http, "vault", gm)[-1]["seq"]
        before = events()
        stale = post("/sessions", {}, gm, **{"If-Match": str(seq - 1)})
        assert stale.status_code == 409, stale.text
        assert stale.json()["code"] == "concurrency-conflict"
        assert events() == before
        fresh = post("/sessions", {}, gm, **{"If-Match": str(seq)})
        assert fresh.status_code == 201, fresh.text
        assert fresh.json()["seq"] == seq + 1
        assert events() == before + 1

        # Idempotency-Key: a retry returns the first response and appends once.
        before = events()
        key = {"Idempotency-Key": "scene-vault-1"}
        first = post("/scenes", {"title": "The vault"}, gm, **key)
        assert first.status_code == 201, first.text
        written = len(first.json()["events"])
        assert written == 1
        again = post("/scenes", {"title": "The vault"}, gm, **key)
        assert again.status_code == 201, again.text
        assert again.json() == first.json()
        assert events() == before + written
        # The same key for a different request is refused, and appends nothing.
        other = post("/scenes", {"title": "The roof"}, gm, **key)
        assert other.status_code == 422, other.text
        assert other.json()["code"] == "key-reused"
        assert events() == before + written
        # An award retried by its giver lands once: susan gets one token, not two.
        before = events()
        key = {"Idempotency-Key": "award-bob-susan"}
        first = post("/improv/awards", {"giver": "bob", "receiver": "susan"}, bob, **key)
        assert first.status_code == 201, first.text
        again = post("/improv/awards", {"giver": "bob", "receiver": "susan"}, bob, **key)
        assert (again.status_code, again.json()) == (201, first.json())
        assert events() == before + len(first.json()["events"])
        state = http.get("/campaigns/vault/state", headers=bearer(gm)).json()
        assert state["tokens"]["players"]["susan"] == 1

        # Who is calling: no token is 401, another campaign's token 403; nothing appended.
        before = events()
        anonymous = post("/scenes/current/end", {}, None)
        assert anonymous.status_code == 401, anonymous.text
        assert http.get("/campaigns/vault/state").status_code == 401
        unknown = post("/scenes/current/end", {}, "y" * 43)
        assert (unknown.status_code, unknown.json()["code"]) == (401, "unknown-token")
        stranger = new_campaign(http, "elsewhere")
        forbidden = post("/scenes/current/end", {}, stranger)
        assert forbidden.status_code == 403, forbidden.text
        assert http.get("/campaigns/vault/state", headers=bearer(stranger)).status_code == 403
        assert events() == before

        # Tokens are random and stored only as SHA-256 digests, never as issued.
        rows = stored_tokens(service.db)
        digests = {row["token_hash"] for row in rows}
        for token in (gm, bob, susan, stranger):
            assert hashlib.sha256(token.encode()).hexdigest() in digests
            assert not any(token in str(value) for row in rows for value in row.values())

        # An invalid body: an unknown field, a wrong type, a missing field.
        for path, body in (
            ("/scenes/current/end", {"bogus": 1}),
            ("/improv/characters", {"player": "bob", "character": 5}),
            ("/improv/awards", {"giver": "bob"}),
        ):
            bad = post(path, body, gm)
            assert bad.status_code == 422, (path, body, bad.text)
            assert bad.json()["code"] == "invalid-body", bad.text
        assert events() == before

        # The OpenAPI document lists every command's path.
        schema = http.get("/schema/openapi.json")
        assert schema.status_code == 200
        paths = schema.json()["paths"]
        for endpoint in all_endpoints():
            path = "/campaigns/{campaign}" + endpoint.path
            assert "post" in paths.get(path, {}), path
        assert "post" in paths["/campaigns/{campaign}/improv/conflicts/{conflict}/plays"]
        assert "get" in paths["/campaigns/{campaign}/events"]


def stored_tokens(db: str) -> list[dict[str, Any]]:
    """The access_tokens rows, read straight from the service's database."""
    engine = create_engine(db if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(select(access_tokens))]
    finally:
        engine.dispose()


RETRIES = 8


def test_concurrent_retries_with_one_idempotency_key_get_the_first_response(
    service: Service,
) -> None:
    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        gm = new_campaign(http, "race")
        bob = invite(http, "race", gm, "bob")
        write(http, "race", "/improv/characters", {"player": "bob", "character": "Kit"}, bob)
        write(http, "race", "/sessions", {}, gm)
        for attempt in range(5):  # the race is timing-dependent: a few tries, each bounded
            before = len(read_log(http, "race", gm))
            headers = {**bearer(gm), "Idempotency-Key": f"scene-{attempt}"}
            answers = at_once(service.url, "/campaigns/race/scenes", {"title": "Ta"}, headers)
            assert len(read_log(http, "race", gm)) == before + 1
            refusals = [a.text for a in answers if a.status_code != 201]
            assert not refusals, refusals
            assert len({a.text for a in answers}) == 1
            write(http, "race", "/scenes/current/end", {}, gm)


def at_once(
    url: str, path: str, body: dict[str, Any], headers: dict[str, str]
) -> list[httpx.Response]:
    """RETRIES identical POSTs, released together (each bounded by its timeouts)."""
    start = threading.Barrier(RETRIES)

    def send(_: int) -> httpx.Response:
        with httpx.Client(base_url=url, timeout=30.0) as own:
            start.wait(timeout=10)
            return own.post(path, json=body, headers=headers)

    with ThreadPoolExecutor(RETRIES) as pool:
        return list(pool.map(send, range(RETRIES)))


# --- 4. the live feed (server-sent events), always bounded ----------------------------------

READ_TIMEOUT_S = 3.0
FEED_DEADLINE_S = 10.0
FEED = httpx.Timeout(10.0, read=READ_TIMEOUT_S)


@dataclass
class Message:
    id: int | None = None
    event: str | None = None
    data: list[str] = field(default_factory=list)

    @property
    def body(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads("\n".join(self.data))
        return value


def read_feed(response: httpx.Response, want: int) -> list[Message]:
    """Up to `want` messages from an open SSE response; stops at the deadline, or when the
    service is quiet for READ_TIMEOUT_S (each read is bounded by the client's read timeout)."""
    messages: list[Message] = []
    current = Message()
    deadline = time.monotonic() + FEED_DEADLINE_S
    try:
        for line in response.iter_lines():
            if line == "":
                if current.data:
                    messages.append(current)
                current = Message()
                if len(messages) >= want:
                    break
            elif not line.startswith(":"):  # a comment is a heartbeat
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "id":
                    current.id = int(value)
                elif name == "event":
                    current.event = value
                elif name == "data":
                    current.data.append(value)
            if time.monotonic() > deadline:
                break
    except httpx.ReadTimeout:
        pass
    return messages


def test_the_live_feed_streams_resumes_and_hides_face_down_cards(service: Service) -> None:
    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        gm = new_campaign(http, "feed")
        bob = invite(http, "feed", gm, "bob")
        write(http, "feed", "/improv/characters", {"player": "bob", "character": "Kit"}, bob)
        write(http, "feed", "/sessions", {}, gm)
        write(http, "feed", "/improv/conflicts", {"conflict": "c1"}, gm)
        stakes, plays = "/improv/conflicts/c1/stakes", "/improv/conflicts/c1/plays"
        write(http, "feed", stakes, {"side": "Riso", "gm": True, "text": "Riso gets away"}, gm)
        head = write(http, "feed", stakes, {"side": "Kit", "opposes": "Riso", "text": "No"}, bob)

        def listen(token: str, last_seen: int) -> Any:
            headers = {**bearer(token), "Last-Event-ID": str(last_seen)}
            return http.stream("GET", "/campaigns/feed/events", headers=headers, timeout=FEED)

        with http.stream("GET", "/campaigns/feed/events", timeout=FEED) as anonymous:
            assert anonymous.status_code == 401

        # bob listens from the head; the GM and bob append on another connection.
        with listen(bob, head) as feed:
            assert feed.status_code == 200
            assert feed.headers["content-type"].startswith("text/event-stream")
            gm_play = write(http, "feed", plays, {"side": "Riso", "card": "QD"}, gm)
            bob_play = write(http, "feed", plays, {"side": "Kit", "card": "5H"}, bob)
            got = read_feed(feed, want=2)
        assert [m.id for m in got] == [gm_play, bob_play] == [head + 1, head + 2]
        assert [m.body["seq"] for m in got] == [gm_play, bob_play]
        assert [m.body["type"] for m in got] == ["improv.card_played"] * 2
        # The GM's face-down card is hidden from bob; bob's own card is not.
        hidden = got[0].body
        assert hidden["payload"]["card"] is None, hidden
        assert hidden["redacted"] is True, hidden
        assert got[1].body["payload"]["card"] == "5H"
        assert not got[1].body.get("redacted")

        # The GM's own feed shows the GM's card (and hides bob's).
        with listen(gm, gm_play - 1) as feed:
            mine = read_feed(feed, want=2)
        assert [m.id for m in mine] == [gm_play, bob_play]
        assert mine[0].body["payload"]["card"] == "QD"
        assert mine[1].body["payload"]["card"] is None

        reveal = write(http, "feed", "/improv/conflicts/c1/reveals", {}, gm)

        # Resuming after N gives only the events after N.
        with listen(bob, bob_play) as feed:
            after = read_feed(feed, want=reveal - bob_play)
        assert [m.id for m in after] == list(range(bob_play + 1, reveal + 1))
        assert "improv.round_revealed" in [m.body["type"] for m in after]

        # After the reveal the GM's card is face up for bob too.
        with listen(bob, gm_play - 1) as feed:
            again = read_feed(feed, want=1)
        assert [m.id for m in again] == [gm_play]
        assert again[0].body["payload"]["card"] == "QD"
        assert not again[0].body.get("redacted")
