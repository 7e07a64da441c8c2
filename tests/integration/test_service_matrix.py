"""The service's authority and hidden information, through a real `tablelog serve` over HTTP.

Who may do what: every command endpoint, as the GM, a player acting for its own character or
for another's, an observer and a caller without a token; a refused request answers 401/403 with
a JSON {"code", "message"} and appends nothing. Who may see what: with every card down but not
revealed (recorded and managed decks), no read of any caller (state, show, log, replay, export,
audit, hands, the live feed, its own write responses) shows a card that is another's.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tablelog.commands.endpoints import CORE, ruleset_endpoints
from tablelog.events.chain import event_hash
from tablelog.events.codec import decode, encode
from tablelog.rules import sealing
from tablelog.rulesets.improv.rules.cards import full_deck
from tests.support.server import MANY_CAMPAIGNS, admin, running_service

CALLERS = ("gm", "bob", "sue", "observer")
PLAYERS = {"bob": "kit", "sue": "diana"}  # player -> character (side)
GM_SIDES = ("riso", "goons")
HTTP_TIMEOUT_S = 15.0
FEED_DEADLINE_S = 8.0  # the longest a read of the live feed may take
LIVE_DEADLINE_S = 30.0  # the longest the feed is listened to while a table is played

_numbers = itertools.count(1)


# --- the service and its tables ------------------------------------------------------------


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    cwd: Path = tmp_path_factory.mktemp("service")
    with running_service(str(cwd / "tablelog.db"), cwd, *MANY_CAMPAIGNS) as url:
        yield url


@pytest.fixture(scope="module")
def client(service: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service, timeout=HTTP_TIMEOUT_S) as http:
        yield http


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


@dataclass
class Table:
    campaign: str
    tokens: dict[str, str]

    def headers(self, caller: str) -> dict[str, str]:
        return bearer(self.tokens.get(caller))

    def url(self, path: str) -> str:
        return f"/campaigns/{self.campaign}{path}"


def new_table(client: httpx.Client, prefix: str, options: dict[str, str] | None = None) -> Table:
    """A new campaign with players bob and sue and an observer, olga; tokens for each."""
    name = f"{prefix}-{next(_numbers)}"
    body = {"name": name, "ruleset": "improv", "options": options or {}}
    created = client.post("/campaigns", json=body, headers=admin(str(client.base_url)))
    assert created.status_code == 201, created.text
    assert created.json()["campaign"] == name
    table = Table(campaign=name, tokens={"gm": created.json()["token"]})
    for player, role, caller in (
        ("bob", "player", "bob"),
        ("sue", "player", "sue"),
        ("olga", "observer", "observer"),
    ):
        invited = client.post(
            table.url(f"/players/{player}/tokens"), json={"role": role}, headers=table.headers("gm")
        )
        assert invited.status_code == 201, invited.text
        table.tokens[caller] = invited.json()["token"]
    return table


def command(
    client: httpx.Client, table: Table, caller: str, path: str, body: dict[str, Any]
) -> dict[str, Any]:
    done = client.post(table.url(path), json=body, headers=table.headers(caller))
    assert done.status_code == 201, f"{caller} POST {path} {body}: {done.text}"
    result: dict[str, Any] = done.json()
    return result


def log_length(client: httpx.Client, table: Table) -> int:
    found = client.get(table.url("/log"), headers=table.headers("gm"))
    assert found.status_code == 200, found.text
    return len(found.json())


# A table is built by steps (caller, path, body), each of which must succeed; a body may be
# made from the campaign's name (a sealed play's commitment binds it).
Step = tuple[str, str, dict[str, Any] | Callable[[str], dict[str, Any]]]

CHARACTERS: list[Step] = [
    ("bob", "/improv/characters", {"player": "bob", "character": "Kit", "talents": ["Brawler"]}),
    ("sue", "/improv/characters", {"player": "sue", "character": "Diana", "talents": ["Sneak"]}),
]
SESSION: list[Step] = [*CHARACTERS, ("gm", "/sessions", {})]
# Scene awards: bob and sue then hold one story-token each.
OPENED: list[Step] = [
    *SESSION,
    ("gm", "/scenes", {"title": "The bar"}),
    ("bob", "/improv/awards", {"giver": "bob", "receiver": "sue"}),
    ("sue", "/improv/awards", {"giver": "sue", "receiver": "bob"}),
    ("gm", "/improv/conflicts", {"conflict": "c1", "extended": True, "rounds": 1}),
    ("gm", "/improv/conflicts/c1/stakes", {"side": "riso", "text": "riso keeps it", "gm": True}),
]
STAKED: list[Step] = [
    *OPENED,
    ("gm", "/improv/conflicts/c1/stakes", {"side": "goons", "text": "they hold", "gm": True}),
    ("bob", "/improv/conflicts/c1/stakes", {"side": "kit", "text": "kit wins", "opposes": "riso"}),
    ("sue", "/improv/conflicts/c1/stakes", {"side": "diana", "text": "out", "opposes": "goons"}),
]


def plays(goons: str) -> list[Step]:
    return [
        ("bob", "/improv/conflicts/c1/plays", {"side": "kit", "card": "10H"}),
        ("sue", "/improv/conflicts/c1/plays", {"side": "diana", "card": "9S"}),
        ("gm", "/improv/conflicts/c1/plays", {"side": "riso", "card": "8D"}),
        ("gm", "/improv/conflicts/c1/plays", {"side": "goons", "card": goons}),
    ]


# Sealed plays (option sealed_plays): each card sealed with a salt of its own.
SALTS = {"kit": b"\x01" * 32, "diana": b"\x02" * 32, "riso": b"\x03" * 32, "goons": b"\x04" * 32}
SEALED_CARDS = {"kit": "10H", "diana": "9S", "riso": "8D", "goons": "2C"}


def sealed_play(side: str) -> Callable[[str], dict[str, Any]]:
    def body(campaign: str) -> dict[str, Any]:
        card, salt = SEALED_CARDS[side], SALTS[side]
        digest = sealing.commitment(campaign, "c1", 1, side, card, salt).hex()
        return {"side": side, "commitment": digest, "round": 1}

    return body


def opening(side: str) -> dict[str, Any]:
    return {"side": side, "card": SEALED_CARDS[side], "salt": SALTS[side].hex()}


SEALED_PLAYS: list[Step] = [
    *STAKED,
    ("bob", "/improv/conflicts/c1/plays", sealed_play("kit")),
    ("sue", "/improv/conflicts/c1/plays", sealed_play("diana")),
    ("gm", "/improv/conflicts/c1/plays", sealed_play("riso")),
    ("gm", "/improv/conflicts/c1/plays", sealed_play("goons")),
]
SEALED_STAGES = ("sealed", "forfeit-due")
REVEAL: Step = ("gm", "/improv/conflicts/c1/reveals", {})
STAGES: dict[str, list[Step]] = {
    "fresh": [],
    "characters": CHARACTERS,
    "session": SESSION,
    "opened": OPENED,
    "staked": STAKED,
    "played": [*STAKED, *plays("2C")],
    # diana's 9S ties the goons' 9S exactly: a Hand of Fate waits.
    "tied": [*STAKED, *plays("9S"), REVEAL],
    "fated": [
        *STAKED,
        *plays("9S"),
        REVEAL,
        ("sue", "/improv/conflicts/c1/fate", {"side": "diana", "draw": "KS"}),
        ("gm", "/improv/conflicts/c1/fate", {"side": "goons", "draw": "2S"}),
    ],
    # The last (only) round revealed and settled: kit holds 10H, diana 9S as victory cards.
    "revealed": [*STAKED, *plays("2C"), REVEAL],
    "sealed": SEALED_PLAYS,
    # A deadline of 0 minutes: already passed, so the GM may declare a forfeit.
    "forfeit-due": [*SEALED_PLAYS, ("gm", "/improv/conflicts/c1/deadline", {"minutes": 0})],
}


def build(client: httpx.Client, stage: str) -> Table:
    options = {"sealed_plays": "true"} if stage in SEALED_STAGES else None
    table = new_table(client, f"matrix-{stage}", options)
    for caller, path, body in STAGES[stage]:
        command(client, table, caller, path, body(table.campaign) if callable(body) else body)
    return table


@pytest.fixture(scope="module")
def shared_tables(client: httpx.Client) -> Callable[[str], Table]:
    """One table per stage for refused requests: a refusal leaves it as it was."""
    tables: dict[str, Table] = {}

    def table_at(stage: str) -> Table:
        if stage not in tables:
            tables[stage] = build(client, stage)
        return tables[stage]

    return table_at


# --- who may do what -----------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    stage: str
    caller: str  # gm, bob, sue, observer, or none (no Authorization header)
    method: str
    path: str
    body: dict[str, Any] | None
    status: int
    codes: tuple[str, ...] = ()
    appends: bool = True  # an allowed request appends events (token routes may not)

    @property
    def id(self) -> str:
        what = json.dumps(self.body, separators=(",", ":")) if self.body else ""
        return f"{self.caller}-{self.method}-{self.path}{what}->{self.status}"


def may(stage: str, caller: str, path: str, body: dict[str, Any], **kw: Any) -> Row:
    return Row(stage, caller, kw.pop("method", "POST"), path, body, kw.pop("status", 201), **kw)


def may_not(
    stage: str,
    caller: str,
    path: str,
    body: dict[str, Any] | None,
    *codes: str,
    method: str = "POST",
) -> Row:
    return Row(stage, caller, method, path, body, 403, codes)


def outsiders(
    stage: str,
    path: str,
    body: dict[str, Any] | None,
    method: str = "POST",
    observer_codes: tuple[str, ...] = ("observer",),
) -> list[Row]:
    """An observer only reads (403 `observer`); no token is 401 `no-token`."""
    return [
        Row(stage, "observer", method, path, body, 403, observer_codes),
        Row(stage, "none", method, path, body, 401, ("no-token",)),
    ]


C1 = "/improv/conflicts/c1"
CHARACTER = {"player": "bob", "character": "Kit", "talents": ["Brawler"]}
TOKENS = "/players/{}/tokens"
# Invitations and revocations refuse an observer as a non-GM (today `gm-only`).
NOT_GM = ("gm-only", "observer")

ROWS: list[Row] = [
    # characters: a player creates its own; the GM may create one for a player
    may("fresh", "bob", "/improv/characters", CHARACTER),
    may("fresh", "gm", "/improv/characters", CHARACTER),
    may_not("fresh", "sue", "/improv/characters", CHARACTER, "not-yours"),
    *outsiders("fresh", "/improv/characters", CHARACTER),
    # sessions and scenes: the GM's
    may("characters", "gm", "/sessions", {}),
    may_not("characters", "bob", "/sessions", {}, "gm-only"),
    *outsiders("characters", "/sessions", {}),
    may("session", "gm", "/sessions/current/end", {}),
    may_not("session", "sue", "/sessions/current/end", {}, "gm-only"),
    *outsiders("session", "/sessions/current/end", {}),
    may("session", "gm", "/scenes", {"title": "Night"}),
    may_not("session", "bob", "/scenes", {"title": "Night"}, "gm-only"),
    *outsiders("session", "/scenes", {"title": "Night"}),
    may("opened", "gm", "/scenes/current/end", {}),
    may_not("opened", "sue", "/scenes/current/end", {}, "gm-only"),
    *outsiders("opened", "/scenes/current/end", {}),
    # conflicts: the GM opens, reveals, closes and abandons
    may("session", "gm", "/improv/conflicts", {}),
    may_not("session", "bob", "/improv/conflicts", {}, "gm-only"),
    *outsiders("session", "/improv/conflicts", {}),
    may("played", "gm", f"{C1}/reveals", {}),
    may_not("played", "bob", f"{C1}/reveals", {}, "gm-only"),
    may_not("played", "sue", f"{C1}/reveals", {}, "gm-only"),
    *outsiders("played", f"{C1}/reveals", {}),
    may("revealed", "gm", f"{C1}/close", {}),
    may_not("revealed", "bob", f"{C1}/close", {}, "gm-only"),
    *outsiders("revealed", f"{C1}/close", {}),
    may("played", "gm", f"{C1}/abandon", {"reason": "the fight never happens"}),
    may_not("played", "bob", f"{C1}/abandon", {"reason": "it bores me"}, "gm-only"),
    *outsiders("played", f"{C1}/abandon", {"reason": "it bores me"}),
    # stakes: GM stakes are the GM's, a character's stake its player's
    may("opened", "gm", f"{C1}/stakes", {"side": "goons", "text": "hold", "gm": True}),
    may_not("opened", "bob", f"{C1}/stakes", {"side": "goons", "text": "h", "gm": True}, "gm-only"),
    may("opened", "bob", f"{C1}/stakes", {"side": "kit", "text": "win", "opposes": "riso"}),
    may_not("opened", "bob", f"{C1}/stakes", {"side": "diana", "text": "x"}, "not-yours"),
    may_not("opened", "gm", f"{C1}/stakes", {"side": "kit", "text": "x"}, "not-yours"),
    *outsiders("opened", f"{C1}/stakes", {"side": "kit", "text": "win", "opposes": "riso"}),
    # plays: each side's card is its owner's
    may("staked", "bob", f"{C1}/plays", {"side": "kit", "card": "10H"}),
    may("staked", "gm", f"{C1}/plays", {"side": "riso", "card": "8D"}),
    may_not("staked", "bob", f"{C1}/plays", {"side": "diana", "card": "3C"}, "not-yours"),
    may_not("staked", "bob", f"{C1}/plays", {"side": "riso", "card": "3C"}, "gm-only"),
    may_not("staked", "gm", f"{C1}/plays", {"side": "kit", "card": "3C"}, "not-yours"),
    *outsiders("staked", f"{C1}/plays", {"side": "kit", "card": "10H"}),
    # bonuses: by the card's owner unless `by` names another character (an assist)
    may("played", "bob", f"{C1}/bonuses", {"on": "kit", "tokens": 1}),
    may("played", "bob", f"{C1}/bonuses", {"on": "kit", "by": "kit", "talent": "brawler"}),
    may(
        "played",
        "sue",
        f"{C1}/bonuses",
        {"on": "kit", "by": "diana", "talent": "sneak", "assist": "she trips riso"},
    ),
    may("played", "gm", f"{C1}/bonuses", {"on": "riso", "tokens": 1}),
    may_not("played", "sue", f"{C1}/bonuses", {"on": "kit", "tokens": 1}, "not-yours"),
    may_not("played", "sue", f"{C1}/bonuses", {"on": "kit", "by": "kit", "tokens": 1}, "not-yours"),
    may_not("played", "bob", f"{C1}/bonuses", {"on": "riso", "tokens": 1}, "gm-only"),
    may_not("played", "bob", f"{C1}/bonuses", {"on": "riso", "by": "gm", "tokens": 1}, "gm-only"),
    may_not("played", "bob", f"{C1}/bonuses", {"on": "kit", "by": "gm", "tokens": 1}, "gm-only"),
    may_not("played", "gm", f"{C1}/bonuses", {"on": "kit", "tokens": 1}, "not-yours"),
    may_not("played", "gm", f"{C1}/bonuses", {"on": "kit", "by": "kit", "tokens": 1}, "not-yours"),
    *outsiders("played", f"{C1}/bonuses", {"on": "kit", "tokens": 1}),
    # the Hand of Fate: each tied side draws for itself; the loser chooses
    may("tied", "sue", f"{C1}/fate", {"side": "diana", "draw": "KS"}),
    may("tied", "gm", f"{C1}/fate", {"side": "goons", "draw": "2S"}),
    may_not("tied", "bob", f"{C1}/fate", {"side": "diana", "draw": "KS"}, "not-yours"),
    may_not("tied", "gm", f"{C1}/fate", {"side": "diana", "draw": "KS"}, "not-yours"),
    may_not("tied", "sue", f"{C1}/fate", {"side": "goons", "draw": "2S"}, "gm-only"),
    *outsiders("tied", f"{C1}/fate", {"side": "diana", "draw": "KS"}),
    may("fated", "gm", f"{C1}/fate", {"side": "goons", "choice": "stay"}),
    may_not("fated", "sue", f"{C1}/fate", {"side": "goons", "choice": "stay"}, "gm-only"),
    *outsiders("fated", f"{C1}/fate", {"side": "goons", "choice": "stay"}),
    # gifts: a side's own victory cards
    may("revealed", "bob", f"{C1}/gifts", {"giver": "kit", "receiver": "diana", "card": "10H"}),
    may_not(
        "revealed",
        "sue",
        f"{C1}/gifts",
        {"giver": "kit", "receiver": "diana", "card": "10H"},
        "not-yours",
    ),
    may_not(
        "revealed",
        "gm",
        f"{C1}/gifts",
        {"giver": "kit", "receiver": "riso", "card": "10H"},
        "not-yours",
    ),
    may_not(
        "revealed",
        "bob",
        f"{C1}/gifts",
        {"giver": "riso", "receiver": "kit", "card": "8D"},
        "gm-only",
    ),
    *outsiders("revealed", f"{C1}/gifts", {"giver": "kit", "receiver": "diana", "card": "10H"}),
    # narration: for one's own side
    may("staked", "bob", f"{C1}/narrations", {"side": "kit", "text": "kit ducks"}),
    may("staked", "gm", f"{C1}/narrations", {"side": "riso", "text": "riso sneers"}),
    may_not("staked", "bob", f"{C1}/narrations", {"side": "diana", "text": "x"}, "not-yours"),
    may_not("staked", "sue", f"{C1}/narrations", {"side": "riso", "text": "x"}, "gm-only"),
    may_not("staked", "gm", f"{C1}/narrations", {"side": "kit", "text": "x"}, "not-yours"),
    *outsiders("staked", f"{C1}/narrations", {"side": "kit", "text": "kit ducks"}),
    # awards: the giver is the caller
    may("session", "bob", "/improv/awards", {"giver": "bob", "receiver": "sue"}),
    may_not("session", "bob", "/improv/awards", {"giver": "sue", "receiver": "bob"}, "not-yours"),
    may_not("session", "gm", "/improv/awards", {"giver": "bob", "receiver": "sue"}, "not-yours"),
    *outsiders("session", "/improv/awards", {"giver": "bob", "receiver": "sue"}),
    # spends: a player spends its own tokens, the GM the GM's
    may("staked", "bob", "/improv/redraws", {"player": "bob", "cards": ["3C"]}),
    may("staked", "gm", "/improv/redraws", {"player": "gm", "cards": ["3C"]}),
    may_not("staked", "bob", "/improv/redraws", {"player": "sue", "cards": ["3C"]}, "not-yours"),
    may_not("staked", "bob", "/improv/redraws", {"player": "gm", "cards": ["3C"]}, "gm-only"),
    may_not("staked", "gm", "/improv/redraws", {"player": "bob", "cards": ["3C"]}, "not-yours"),
    *outsiders("staked", "/improv/redraws", {"player": "bob", "cards": ["3C"]}),
    may("staked", "bob", "/improv/bribes", {"giver": "bob", "receiver": "sue"}),
    may("staked", "gm", "/improv/bribes", {"giver": "gm", "receiver": "bob"}),
    may_not("staked", "bob", "/improv/bribes", {"giver": "sue", "receiver": "bob"}, "not-yours"),
    may_not("staked", "bob", "/improv/bribes", {"giver": "gm", "receiver": "bob"}, "gm-only"),
    may_not("staked", "gm", "/improv/bribes", {"giver": "bob", "receiver": "sue"}, "not-yours"),
    *outsiders("staked", "/improv/bribes", {"giver": "bob", "receiver": "sue"}),
    # sealed plays: a side's owner opens its card; the GM sets the deadline and forfeits
    may("sealed", "bob", f"{C1}/openings", opening("kit")),
    may("sealed", "gm", f"{C1}/openings", opening("riso")),
    may_not("sealed", "sue", f"{C1}/openings", opening("kit"), "not-yours"),
    may_not("sealed", "gm", f"{C1}/openings", opening("kit"), "not-yours"),
    may_not("sealed", "bob", f"{C1}/openings", opening("riso"), "gm-only"),
    *outsiders("sealed", f"{C1}/openings", opening("kit")),
    may("sealed", "gm", f"{C1}/deadline", {"minutes": 60}),
    may_not("sealed", "bob", f"{C1}/deadline", {"minutes": 60}, "gm-only"),
    *outsiders("sealed", f"{C1}/deadline", {"minutes": 60}),
    may("forfeit-due", "gm", f"{C1}/forfeits", {"side": "kit"}),
    may_not("forfeit-due", "bob", f"{C1}/forfeits", {"side": "kit"}, "gm-only"),
    *outsiders("forfeit-due", f"{C1}/forfeits", {"side": "kit"}),
    # access: only the GM invites and revokes
    may("fresh", "gm", TOKENS.format("rick"), {"role": "player"}),
    may("fresh", "gm", TOKENS.format("ozzy"), {"role": "observer"}, appends=False),
    may_not("fresh", "bob", TOKENS.format("rick"), {"role": "player"}, "gm-only"),
    may_not("fresh", "bob", TOKENS.format("ozzy"), {"role": "observer"}, "gm-only"),
    *outsiders("fresh", TOKENS.format("rick"), {"role": "player"}, observer_codes=NOT_GM),
    may("fresh", "gm", TOKENS.format("bob"), None, method="DELETE", status=200, appends=True),
    may_not("fresh", "bob", TOKENS.format("sue"), None, "gm-only", method="DELETE"),
    may_not("fresh", "bob", TOKENS.format("bob"), None, "gm-only", method="DELETE"),
    *outsiders("fresh", TOKENS.format("bob"), None, "DELETE", observer_codes=NOT_GM),
]


def test_every_command_endpoint_is_in_the_matrix() -> None:
    # This matrix plays Improv campaigns; each other ruleset's service test covers its own.
    for endpoint in CORE + ruleset_endpoints("improv"):
        path = endpoint.path.replace("{conflict}", "c1")
        rows = [r for r in ROWS if (r.method, r.path) == ("POST", path)]
        assert {r.caller for r in rows} >= {"observer", "none"}, f"{path}: no outsider rows"
        assert any(r.status == 201 for r in rows), f"{path}: no allowed row"
        assert any(r.status == 403 and r.caller in ("gm", "bob", "sue") for r in rows), (
            f"{path}: no forbidden row for a player or the GM"
        )


def assert_refusal(response: httpx.Response, status: int, codes: tuple[str, ...]) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) >= {"code", "message"}, body
    assert body["code"] in codes, body
    assert isinstance(body["message"], str)
    assert body["message"].strip()
    if status == 401:
        assert response.headers.get("www-authenticate", "").lower().startswith("bearer")


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_who_may_do_what(
    row: Row, client: httpx.Client, shared_tables: Callable[[str], Table]
) -> None:
    table = build(client, row.stage) if row.status < 400 else shared_tables(row.stage)
    before = log_length(client, table)
    response = client.request(
        row.method, table.url(row.path), json=row.body, headers=table.headers(row.caller)
    )
    if row.status >= 400:
        assert_refusal(response, row.status, row.codes)
        assert log_length(client, table) == before, "a refused request appended events"
        return
    assert response.status_code == row.status, response.text
    after = log_length(client, table)
    assert after > before if row.appends else after == before


def test_a_token_acts_only_in_its_own_campaign(
    client: httpx.Client, shared_tables: Callable[[str], Table]
) -> None:
    mine, other = shared_tables("staked"), build(client, "staked")
    before = log_length(client, other)
    for caller, path, body in (
        ("gm", f"{C1}/reveals", {}),
        ("bob", f"{C1}/plays", {"side": "kit", "card": "10H"}),
    ):
        response = client.post(other.url(path), json=body, headers=mine.headers(caller))
        assert_refusal(response, 403, ("other-campaign",))
    for path in ("/state", "/log", "/improv/conflicts/c1", "/export?format=jsonl"):
        response = client.get(other.url(path), headers=mine.headers("bob"))
        assert_refusal(response, 403, ("other-campaign",))
    assert log_length(client, other) == before


def test_unknown_revoked_and_malformed_tokens_are_401(client: httpx.Client) -> None:
    table = build(client, "staked")
    before = log_length(client, table)
    play = {"side": "kit", "card": "10H"}
    url = table.url(f"{C1}/plays")
    assert_refusal(
        client.post(url, json=play, headers=bearer("not-a-token")), 401, ("unknown-token",)
    )
    basic = {"Authorization": f"Basic {table.tokens['bob']}"}
    assert_refusal(client.post(url, json=play, headers=basic), 401, ("no-token",))
    revoked = client.delete(table.url("/players/bob/tokens"), headers=table.headers("gm"))
    assert revoked.status_code == 200, revoked.text
    assert_refusal(
        client.post(url, json=play, headers=table.headers("bob")), 401, ("revoked-token",)
    )
    assert_refusal(
        client.get(table.url("/log"), headers=table.headers("bob")), 401, ("revoked-token",)
    )
    # The refusals appended nothing; the revoke itself is in the log (access.revoked).
    assert log_length(client, table) == before + 1


READ_PATHS = (
    "/state",
    "/log",
    "/replay",
    "/audit",
    "/verify",
    "/export?format=jsonl",
    "/export?format=markdown",
    "/improv/conflicts/c1",
    "/improv/hands/bob",
    "/events",
)


@pytest.mark.parametrize("path", READ_PATHS)
def test_every_read_needs_a_token(
    path: str, client: httpx.Client, shared_tables: Callable[[str], Table]
) -> None:
    table = shared_tables("played")
    assert_refusal(client.get(table.url(path)), 401, ("no-token",))


# --- who may see what ----------------------------------------------------------------------

# A card as JSON and text show it: a canonical code (10H, JK) or its pretty form (10♥, Joker).
_CARD = re.compile(r"(?<![0-9A-Za-z])(?:(10|[2-9JQKA])([CDHS♣♦♥♠])|(JK|Joker))(?![0-9A-Za-z])")
_SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, and in the JSON documents those strings hold."""
    if isinstance(value, str):
        yield value
        if value[:1] in "{[":
            try:
                inner = json.loads(value)
            except ValueError:
                return
            yield from _strings(inner)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def documents(text: str) -> list[Any]:
    """A body as JSON values: one document, JSON Lines, or (neither) the text itself."""
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    try:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError:
        return [text]


def cards_in(text: str) -> set[str]:
    """The cards a body shows, as canonical codes."""
    found: set[str] = set()
    for piece in [text, *(s for d in documents(text) for s in _strings(d))]:
        for match in _CARD.finditer(piece):
            rank, suit, joker = match.groups()
            found.add("JK" if joker else rank + _SUIT_LETTER.get(suit, suit))
    return found


def test_cards_in_reads_codes_and_pretty_forms_but_not_hashes() -> None:
    line = json.dumps({"card": "10H", "hash": "ab10c0ffee", "text": "kit 10♥=13, Q♠ and a Joker"})
    assert cards_in(json.dumps({"line": line, "id": "c1", "n": "CDHS"})) == {"10H", "QS", "JK"}
    assert cards_in("riso plays a card face down (??) #10 KIT") == set()


@dataclass(frozen=True)
class Seen:
    label: str
    status: int
    text: str


@dataclass
class Hidden:
    """A table played to the brink of a reveal, and everything each caller saw of it."""

    mode: str
    table: Table
    owned: dict[str, set[str]]  # owner (gm, bob, sue) -> every card it held or played
    played: dict[str, str]  # side -> its face-down card in round 1
    before: dict[str, list[Seen]] = field(default_factory=dict)  # caller -> before the reveal
    after: dict[str, list[Seen]] = field(default_factory=dict)  # caller -> after the reveal
    public_after: set[str] = field(default_factory=set)  # cards the reveal made public
    # Sides that played blind from the top of a managed deck: nobody's card until the
    # reveal, the GM's neither.
    blind: set[str] = field(default_factory=set)

    def owner(self, side: str) -> str:
        """Who may see the side's face-down card before the reveal ("nobody": blind)."""
        return "nobody" if side in self.blind else _owner(side)


def read_feed(
    base: str,
    table: Table,
    caller: str,
    until: Callable[[int], bool],
    after: int = 0,
    deadline_s: float = FEED_DEADLINE_S,
) -> list[str]:
    """The feed's `data` lines for a caller, from seq `after` (the `after` parameter) until
    `until(last seq)` holds or `deadline_s` passes; after a quiet second it reconnects with
    Last-Event-ID."""
    lines: list[str] = []
    last = after
    deadline = time.monotonic() + deadline_s
    timeout = httpx.Timeout(5.0, read=1.0)
    resume: dict[str, str] = {}
    while not until(last) and time.monotonic() < deadline:
        headers = table.headers(caller) | resume
        params = {} if resume else {"after": after}
        try:
            with httpx.stream(
                "GET", base + table.url("/events"), params=params, headers=headers, timeout=timeout
            ) as response:
                assert response.status_code == 200, response.read()
                assert response.headers["content-type"].startswith("text/event-stream")
                for line in response.iter_lines():
                    if line.startswith("data:"):
                        lines.append(line.removeprefix("data:").strip())
                    elif line.startswith("id:"):
                        last = int(line.removeprefix("id:").strip())
                    elif not line and until(last):
                        break  # a whole message ended and the feed is complete
                    if time.monotonic() > deadline:
                        break
        except httpx.ReadTimeout:
            pass  # quiet: check `until` and the deadline, then resume after `last`
        resume = {"Last-Event-ID": str(last)}
    return lines


def reads_of(client: httpx.Client, table: Table, caller: str) -> list[Seen]:
    paths = [
        "/state",
        "/state?at=1",
        "/improv/conflicts/c1",
        "/improv/conflicts/~",
        "/log",
        "/log?conflict=c1",
        "/replay",
        "/replay?conflict=c1",
        "/audit",
        "/audit?conflict=c1",
        "/verify",
        "/export?format=jsonl",
        "/export?format=markdown",
        "/export?format=bbcode",
        "/export?format=discord",
        "/export?format=markdown&conflict=c1",
        "/export?format=discord&session=1",
        *(f"/improv/hands/{who}" for who in ("gm", "bob", "sue")),
    ]
    head = log_length(client, table)
    paths.append(f"/state?at={head}")
    seen = []
    for path in paths:
        response = client.get(table.url(path), headers=table.headers(caller))
        seen.append(Seen(f"GET {path}", response.status_code, response.text))
    # A what-if plays on from the head (closing the conflict, on a scratch copy).
    close = {"command": "Close", "fields": {"conflict": "c1"}}
    body = {"at": head, "commands": [close]}
    response = client.post(table.url("/whatif"), json=body, headers=table.headers(caller))
    seen.append(Seen("POST /whatif", response.status_code, response.text))
    return seen


def hand(client: httpx.Client, table: Table, who: str) -> list[str]:
    found = client.get(table.url(f"/improv/hands/{who}"), headers=table.headers(who))
    assert found.status_code == 200, found.text
    cards: list[str] = found.json()["cards"]
    return cards


def own_card(client: httpx.Client, table: Table, caller: str, side: str) -> str:
    shown = client.get(table.url("/improv/conflicts/c1"), headers=table.headers(caller))
    assert shown.status_code == 200, shown.text
    card: str = shown.json()["view"]["rounds"][0]["plays"][side]["card"]
    assert card, f"{caller} cannot see its own card on {side}"
    return card


@pytest.fixture(scope="module", params=["recorded", "managed"])
def hidden(request: pytest.FixtureRequest, service: str, client: httpx.Client) -> Hidden:
    mode: str = request.param
    table = new_table(client, f"hidden-{mode}", {"deck_mode": mode})
    owned: dict[str, set[str]] = {"gm": set(), "bob": set(), "sue": set()}
    writes: dict[str, list[Seen]] = {c: [] for c in CALLERS}
    blind: set[str] = set()

    def do(caller: str, path: str, body: dict[str, Any]) -> None:
        result = command(client, table, caller, path, body)
        writes[caller].append(Seen(f"POST {path}", 201, json.dumps(result, ensure_ascii=False)))

    # Each caller listens to the live feed while the table plays.
    final: list[int] = []  # the head once everything is down
    with ThreadPoolExecutor(max_workers=len(CALLERS)) as pool:
        live: dict[str, Future[list[str]]] = {
            caller: pool.submit(
                read_feed,
                service,
                table,
                caller,
                lambda last: bool(final) and last >= final[0],
                deadline_s=LIVE_DEADLINE_S,
            )
            for caller in CALLERS
        }
        for caller, path, body in CHARACTERS:
            do(caller, path, body)
        do("gm", "/sessions", {})
        do("bob", "/improv/awards", {"giver": "bob", "receiver": "sue"})
        do("gm", "/improv/conflicts", {"conflict": "c1"})
        do("gm", f"{C1}/stakes", {"side": "riso", "text": "riso keeps it", "gm": True})
        do("gm", f"{C1}/stakes", {"side": "goons", "text": "they hold", "gm": True})
        do("bob", f"{C1}/stakes", {"side": "kit", "text": "kit wins", "opposes": "riso"})
        do("sue", f"{C1}/stakes", {"side": "diana", "text": "out", "opposes": "goons"})
        if mode == "recorded":
            # Recorded redraws name the cards redrawn: the spender's alone, forever.
            do("sue", "/improv/redraws", {"player": "sue", "cards": ["3D"]})
            do("gm", "/improv/redraws", {"player": "gm", "cards": ["KC"]})
            played = {"kit": "10H", "diana": "9C", "riso": "QD", "goons": "5S"}
            owned["sue"].add("3D")
            owned["gm"].add("KC")
            for side, card in played.items():
                do(
                    "gm" if side in GM_SIDES else _player_of(side),
                    f"{C1}/plays",
                    {"side": side, "card": card},
                )
        else:
            for who in owned:
                owned[who].update(hand(client, table, who))
            redrawn = hand(client, table, "sue")[0]
            do("sue", "/improv/redraws", {"player": "sue", "cards": [redrawn]})
            owned["sue"].update(hand(client, table, "sue"))
            do("bob", f"{C1}/plays", {"side": "kit", "card": hand(client, table, "bob")[0]})
            do("sue", f"{C1}/plays", {"side": "diana", "card": hand(client, table, "sue")[0]})
            do("gm", f"{C1}/plays", {"side": "riso", "card": hand(client, table, "gm")[0]})
            do("gm", f"{C1}/plays", {"side": "goons", "from_deck": True})
            played = {
                side: own_card(client, table, "gm" if side in GM_SIDES else _player_of(side), side)
                for side in ("kit", "diana", "riso")
            }
            blind = {"goons"}  # from the top of the GM deck: nobody's until the reveal
        final.append(log_length(client, table))
        feeds = {
            caller: future.result(timeout=LIVE_DEADLINE_S + 10) for caller, future in live.items()
        }
    for caller, lines in feeds.items():
        seqs = [json.loads(line)["seq"] for line in lines]
        assert seqs == list(range(1, final[0] + 1)), f"{caller}'s live feed: {seqs}"

    hidden = Hidden(mode=mode, table=table, owned=owned, played=played, blind=blind)
    for caller in CALLERS:
        replayed = read_feed(service, table, caller, lambda last: last >= final[0])
        hidden.before[caller] = [
            *writes[caller],
            *reads_of(client, table, caller),
            Seen("GET /events (live)", 200, "\n".join(feeds[caller])),
            Seen("GET /events?after=0", 200, "\n".join(replayed)),
        ]
    revealed = client.post(table.url(f"{C1}/reveals"), json={}, headers=table.headers("gm"))
    assert revealed.status_code == 201, revealed.text
    for side in blind:  # known now: a secret everyone's reads before the reveal must not hold
        played[side] = own_card(client, table, "gm", side)
        owned.setdefault("nobody", set()).add(played[side])
    head = log_length(client, table)
    for caller in CALLERS:
        hidden.after[caller] = [
            *reads_of(client, table, caller),
            Seen(
                "GET /events",
                200,
                "\n".join(read_feed(service, table, caller, lambda last: last >= head)),
            ),
        ]
    gm_log = client.get(table.url("/log"), headers=table.headers("gm")).json()
    for item in gm_log:
        event = json.loads(item["line"])
        if event["type"] in (
            "improv.round_revealed",
            "improv.fate_card_drawn",
            "improv.fate_resolved",
        ):
            hidden.public_after |= cards_in(json.dumps(event["payload"]))
    assert set(played.values()) <= hidden.public_after
    return hidden


def _player_of(side: str) -> str:
    return next(player for player, character in PLAYERS.items() if character == side)


def secrets_of_others(hidden: Hidden, caller: str) -> set[str]:
    """Cards the caller may not see before the reveal: every other owner's, less those the
    caller holds itself (a second deck may hold the same code)."""
    others = set().union(*(cards for owner, cards in hidden.owned.items() if owner != caller))
    return others - hidden.owned.get(caller, set())


def leaks(seen: list[Seen], secret: set[str]) -> list[str]:
    return [
        f"{s.label} ({s.status}) shows {sorted(cards_in(s.text) & secret)}"
        for s in seen
        if cards_in(s.text) & secret
    ]


@pytest.mark.parametrize("caller", CALLERS)
def test_no_caller_sees_another_owners_card_before_the_reveal(hidden: Hidden, caller: str) -> None:
    secret = secrets_of_others(hidden, caller)
    assert secret, "the table holds no card to hide"
    assert leaks(hidden.before[caller], secret) == []
    # The search does find cards: each owner sees its own face-down cards.
    seen = set().union(*(cards_in(s.text) for s in hidden.before[caller]))
    mine = {card for side, card in hidden.played.items() if hidden.owner(side) == caller}
    assert mine <= seen
    assert (caller == "observer") is (not mine)


@pytest.mark.parametrize("caller", CALLERS)
def test_after_the_reveal_only_the_played_cards_become_public(hidden: Hidden, caller: str) -> None:
    secret = secrets_of_others(hidden, caller) - hidden.public_after
    if hidden.mode == "recorded":
        expected = {"gm": {"3D"}, "bob": {"3D", "KC"}, "sue": {"KC"}, "observer": {"3D", "KC"}}
        assert secret == expected[caller]
    assert leaks(hidden.after[caller], secret) == []


def _view(seen: list[Seen], label: str) -> Any:
    found = next(s for s in seen if s.label == label)
    assert found.status == 200, found.text
    return json.loads(found.text)


def _owner(side: str) -> str:
    return "gm" if side in GM_SIDES else _player_of(side)


@pytest.mark.parametrize("caller", CALLERS)
def test_show_nulls_every_face_down_card_but_the_callers_own(hidden: Hidden, caller: str) -> None:
    rounds = _view(hidden.before[caller], "GET /improv/conflicts/c1")["view"]["rounds"]
    plays = rounds[0]["plays"]
    assert set(plays) == set(hidden.played)
    for side, card in hidden.played.items():
        if hidden.owner(side) == caller:
            assert plays[side]["card"] == card
        else:
            assert plays[side]["card"] is None, f"{caller} sees {side}'s {plays[side]['card']}"
            assert plays[side]["total"] is None
    lines = _view(hidden.before[caller], "GET /log")
    for item in lines:
        event = json.loads(item["line"])
        if event["type"] == "improv.card_played":
            side = event["payload"]["side"]
            mine = hidden.owner(side) == caller
            assert event["payload"]["card"] == (hidden.played[side] if mine else None)
            assert event.get("redacted", False) is not mine


@pytest.mark.parametrize("caller", CALLERS)
def test_after_the_reveal_every_caller_sees_every_played_card(hidden: Hidden, caller: str) -> None:
    plays = _view(hidden.after[caller], "GET /improv/conflicts/c1")["view"]["rounds"][0]["plays"]
    assert {side: p["card"] for side, p in plays.items()} == hidden.played
    assert all(p["total"] is not None for p in plays.values())
    shown = {
        json.loads(i["line"])["payload"]["side"]: json.loads(i["line"])["payload"]["card"]
        for i in _view(hidden.after[caller], "GET /log")
        if json.loads(i["line"])["type"] == "improv.card_played"
    }
    assert shown == hidden.played


@pytest.mark.parametrize("caller", CALLERS)
def test_a_hand_is_read_by_its_owner_only(hidden: Hidden, caller: str) -> None:
    for when in (hidden.before, hidden.after):
        for who in ("gm", "bob", "sue"):
            found = next(s for s in when[caller] if s.label == f"GET /improv/hands/{who}")
            body = json.loads(found.text)
            if hidden.mode == "recorded":
                assert (found.status, body["code"]) == (422, "not-managed")
            elif who == caller:
                assert found.status == 200
                assert set(body["cards"]) <= hidden.owned[who]
            else:
                assert (found.status, body["code"]) == (403, "not-yours"), found.text


@pytest.mark.parametrize("caller", CALLERS)
def test_a_what_if_never_plays_on_from_a_hidden_card(hidden: Hidden, caller: str) -> None:
    # Before the reveal every caller faces a face-down card not its own (and managed decks
    # always hold hands): refused. An observer only reads.
    whatif = next(s for s in hidden.before[caller] if s.label == "POST /whatif")
    code = "observer" if caller == "observer" else "whatif-hidden"
    assert (whatif.status, json.loads(whatif.text)["code"]) == (403, code), whatif.text
    after = next(s for s in hidden.after[caller] if s.label == "POST /whatif")
    if caller == "observer" or hidden.mode == "managed":
        assert after.status == 403, after.text
    else:
        assert after.status == 200, after.text  # everything down is revealed now


def _events(seen: list[Seen]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every log line a caller saw (log, export jsonl, feeds, write responses)."""
    for s in seen:
        for document in documents(s.text):
            for text in _strings(document):
                if text.startswith('{"campaign"'):
                    event = json.loads(text)
                    yield s.label, event
            if isinstance(document, dict) and "event_id" in document and "payload" in document:
                yield s.label, document


@pytest.mark.parametrize("caller", CALLERS)
def test_no_caller_sees_a_deck_order_or_another_hands_draws(hidden: Hidden, caller: str) -> None:
    counted: set[str] = set()
    for label, event in _events(hidden.before[caller] + hidden.after[caller]):
        payload = event["payload"]
        if event["type"] == "improv.deck_shuffled":
            assert payload["order"] is None, f"{label}: {caller} sees a deck's order"
            counted.add(label)
        drawn = event["type"] in ("improv.cards_drawn", "improv.cards_discarded")
        if drawn and payload["owner"] != caller:
            assert payload["cards"] is None, f"{label}: {caller} sees {payload['owner']}'s"
    if hidden.mode == "managed":
        assert {"GET /log", "GET /export?format=jsonl", "GET /events (live)"} <= counted


@pytest.mark.parametrize("caller", ["bob", "observer"])
def test_a_redacted_line_does_not_give_away_its_card_through_its_hash(
    hidden: Hidden, caller: str
) -> None:
    found: dict[str, str] = {}
    for item in _view(hidden.before[caller], "GET /log"):
        line = json.loads(item["line"])
        if line["type"] != "improv.card_played" or line["payload"]["card"] is not None:
            continue
        for candidate in dict.fromkeys(full_deck()):
            payload = encode(
                decode(
                    line["type"],
                    line["schema_version"],
                    # The best guess at a hidden salt is none at all.
                    json.dumps({**line["payload"], "card": candidate, "salt": ""}).encode(),
                )
            )
            digest = event_hash(
                prev_hash=bytes.fromhex(line["prev_hash"]),
                campaign=line["campaign"],
                seq=line["seq"],
                event_id=line["event_id"],
                type=line["type"],
                schema_version=line["schema_version"],
                actor=line["actor"],
                recorded_at=line["recorded_at"],
                payload=payload,
            )
            if digest.hex() == line["hash"]:
                found[line["payload"]["side"]] = candidate
    assert found == {}, f"{caller} recovers face-down cards from their hashes: {found}"


def test_the_feed_is_bounded_and_filtered_when_it_resumes(service: str, hidden: Hidden) -> None:
    # Resuming after the first plays gives the rest only, still filtered for the caller.
    table = hidden.table
    head = len(_view(hidden.after["gm"], "GET /log"))
    lines = read_feed(service, table, "bob", lambda last: last >= head, after=head - 3)
    assert [json.loads(x)["seq"] for x in lines] == [head - 2, head - 1, head]
    assert cards_in("\n".join(lines)) & (hidden.owned["gm"] - hidden.public_after) == set()
