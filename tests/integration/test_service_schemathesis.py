"""Schemathesis against a real `tablelog serve`: no request the OpenAPI document describes, valid
or not, with the GM's token, a player's or none, gets a server error (5xx), and none that is
refused (4xx) changes the log: every campaign's head and every token stay as they were.

Each operation is fuzzed on a campaign of its own with some play in it (recorded and managed
decks), the `campaign` path parameter pinned to it (a random campaign is only ever 403) and the
other path parameters drawn from real names as well as random ones. Generation is derandomized:
the same requests every run.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.schemas import BaseSchema

from tablelog.http.app import create_app
from tests.support.server import MANY_CAMPAIGNS, admin, running_service

HTTP_TIMEOUT_S = 10.0
FEED_TIMEOUT_S = 0.3  # the live feed never ends: schemathesis reads it this long at most
Examples = dict[GenerationMode, int]
FULL: Examples = {GenerationMode.POSITIVE: 6, GenerationMode.NEGATIVE: 3}
LIGHT: Examples = {GenerationMode.POSITIVE: 4, GenerationMode.NEGATIVE: 2}
FEED_EXAMPLES: Examples = {GenerationMode.POSITIVE: 3, GenerationMode.NEGATIVE: 2}
FEED = "GET /campaigns/{campaign}/events"
MAX_SEQ = 2**63 - 1  # a seq is a signed 64-bit integer in the database


def _operations() -> list[str]:
    """The operations of the service's OpenAPI document, built here for parametrizing (the
    served document must list the same)."""
    document = create_app("unused.db").openapi_schema.to_schema()
    return [
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    ]


OPERATIONS = _operations()
_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def service(fuzz_dir: Path) -> Iterator[str]:
    # Unknown tokens are sent on purpose here: the sign-in limit has tests of its own.
    options = (*MANY_CAMPAIGNS, "--auth-failures", "100000")
    with running_service(str(fuzz_dir / "tablelog.db"), fuzz_dir, *options) as url:
        yield url


def heads(db: Path) -> list[tuple[Any, ...]]:
    """What a refused request must leave as it was: every head, every token."""
    with closing(sqlite3.connect(db)) as conn, conn:
        campaigns = conn.execute("SELECT name, head_seq, head_hash FROM campaigns ORDER BY name")
        tokens = conn.execute("SELECT token_hash, revoked_at FROM access_tokens ORDER BY 1")
        return [*campaigns.fetchall(), *tokens.fetchall()]


@pytest.fixture(scope="module")
def api(service: str) -> BaseSchema:
    return schemathesis.openapi.from_url(f"{service}/schema/openapi.json")


@pytest.fixture(scope="module")
def client(service: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service, timeout=HTTP_TIMEOUT_S) as http:
        yield http


def test_the_service_publishes_every_operation(api: BaseSchema) -> None:
    published = [result.ok().label for result in api.get_all_operations()]
    assert published == OPERATIONS
    assert any(label.endswith("/plays") for label in published)


def campaign_with_play(client: httpx.Client, mode: str) -> tuple[str, dict[str, str]]:
    """A campaign with players bob and sue and an observer; an extended conflict c1 whose
    first round is revealed and whose second has a card down; the tokens of each."""
    name = f"fuzz-{mode}-{next(_numbers)}"
    created = client.post(
        "/campaigns",
        json={"name": name, "ruleset": "improv", "options": {"deck_mode": mode}},
        headers=admin(str(client.base_url)),
    )
    assert created.status_code == 201, created.text
    tokens = {"gm": created.json()["token"]}
    for player, role in (("bob", "player"), ("sue", "player"), ("olga", "observer")):
        invited = client.post(
            f"/campaigns/{name}/players/{player}/tokens",
            json={"role": role},
            headers={"Authorization": f"Bearer {tokens['gm']}"},
        )
        assert invited.status_code == 201, invited.text
        tokens[player] = invited.json()["token"]

    def do(who: str, path: str, body: dict[str, Any], may_refuse: bool = False) -> None:
        done = client.post(
            f"/campaigns/{name}{path}",
            json=body,
            headers={"Authorization": f"Bearer {tokens[who]}"},
        )
        expected = (201, 422) if may_refuse else (201,)
        assert done.status_code in expected, f"{who} {path} {body}: {done.text}"

    def card(who: str, recorded: str) -> dict[str, Any]:
        if mode == "recorded":
            return {"card": recorded}
        if who == "gm":
            return {"from_deck": True}
        found = client.get(
            f"/campaigns/{name}/improv/hands/{who}",
            headers={"Authorization": f"Bearer {tokens[who]}"},
        )
        assert found.status_code == 200, found.text
        return {"card": found.json()["cards"][0]}

    c1 = "/improv/conflicts/c1"
    do("bob", "/improv/characters", {"player": "bob", "character": "Kit", "talents": ["Brawler"]})
    do("sue", "/improv/characters", {"player": "sue", "character": "Diana", "talents": ["Sneak"]})
    do("gm", "/sessions", {})
    do("gm", "/scenes", {"title": "The bar"})
    do("bob", "/improv/awards", {"giver": "bob", "receiver": "sue"})
    do("gm", "/improv/conflicts", {"conflict": "c1", "extended": True, "rounds": 2})
    do("gm", f"{c1}/stakes", {"side": "riso", "text": "riso keeps the bar", "gm": True})
    do("bob", f"{c1}/stakes", {"side": "kit", "text": "kit throws him out", "opposes": "riso"})
    do("sue", f"{c1}/stakes", {"side": "diana", "text": "diana gets out", "opposes": "riso"})
    do("bob", f"{c1}/plays", {"side": "kit", **card("bob", "10H")})
    do("sue", f"{c1}/plays", {"side": "diana", **card("sue", "3C")})
    do("gm", f"{c1}/plays", {"side": "riso", **card("gm", "8D")})
    do("sue", f"{c1}/bonuses", {"on": "diana", "tokens": 1})
    do("gm", f"{c1}/reveals", {})
    do("bob", f"{c1}/narrations", {"side": "kit", "text": "kit ducks"})
    # Managed cards may tie exactly: then the Hand of Fate waits and round 2 cannot begin.
    do("bob", f"{c1}/plays", {"side": "kit", **card("bob", "QS")}, may_refuse=mode == "managed")
    return name, tokens


# Path parameters other than `campaign`: a real name, the default conflict, or a random value.
PINNED: dict[str, list[str | None]] = {
    "conflict": ["c1", "~", "c9", None],
    "player": ["rick", "bob", "olga", None],  # never the GM: its revoked token ends the run
    "who": ["bob", "sue", "gm", "olga", None],
}
# Body fields likewise: real sides, people and cards reach the rules, random ones stop early.
SIDES = ["kit", "diana", "riso", "gm", "bob", "sue", None]
BODY: dict[str, list[Any]] = {
    "side": SIDES,
    "on": SIDES,
    "by": SIDES,
    "giver": SIDES,
    "receiver": SIDES,
    "player": ["bob", "sue", "gm", None],
    "card": ["10H", "QS", "JK", "3C", None],
    "cards": [["10H"], ["QS", "3C"], None],
}


def declared_fields(api: BaseSchema, path: str, method: str) -> set[str] | None:
    """The properties the operation's JSON body declares, when it is an object schema. The
    document does not say `additionalProperties: false`, yet the service refuses unknown fields
    (422): without them, generated bodies get past the body check to the rules."""
    operation = api.raw_schema["paths"][path][method.lower()]
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    schema = content.get("schema", {})
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        schema = api.raw_schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    properties = schema.get("properties")
    return set(properties) if isinstance(properties, dict) else None


@dataclass
class Target:
    """Where and as whom one operation is fuzzed, and what came back."""

    api: BaseSchema
    base_url: str
    db: Path
    label: str
    headers: dict[str, str]
    campaign: str
    sent: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def feed(self) -> bool:
        return self.label == FEED


def tidy(case: Any, declared: set[str] | None) -> None:
    """Drop what the document allows but the service refuses before any rule: body fields it
    does not declare, and a random If-Match (the document does not say it is a seq)."""
    if isinstance(case.body, dict) and declared is not None:
        for name in set(case.body) - declared:
            del case.body[name]
    if case.headers:
        case.headers.pop("If-Match", None)


def fuzz_mode(target: Target, mode: GenerationMode, count: int) -> None:
    method, path = target.label.split(" ", 1)
    operation = target.api[path][method]
    declared = declared_fields(target.api, path, method)
    fixed = {"campaign": target.campaign} if "{campaign}" in path else {}

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(mode, path_parameters=fixed), data=st.data())
    def run(case: Any, data: st.DataObject) -> None:
        for name, choices in PINNED.items():
            if case.path_parameters and name in case.path_parameters:
                chosen = data.draw(st.sampled_from(choices), label=name)
                if chosen is not None:
                    case.path_parameters[name] = chosen
                elif name == "player" and case.path_parameters[name] == "gm":
                    case.path_parameters[name] = "rick"
        if mode.is_positive and data.draw(st.booleans(), label="tidy"):
            tidy(case, declared)
        if isinstance(case.body, dict):
            for name, choices in BODY.items():
                if name in case.body:
                    chosen = data.draw(st.sampled_from(choices), label=name)
                    if chosen is not None:
                        case.body[name] = chosen
        before = heads(target.db)
        response = case.call(
            base_url=target.base_url,
            headers=target.headers,
            timeout=FEED_TIMEOUT_S if target.feed else HTTP_TIMEOUT_S,
        )
        target.sent += 1
        if response.status_code >= 500:
            target.failures.append(
                f"{response.status_code} {response.text[:300]!r}\n"
                f"    {case.as_curl_command(headers=target.headers)}"
            )
        elif response.status_code >= 400 and heads(target.db) != before:
            target.failures.append(
                f"{response.status_code} changed the log: {response.text[:300]!r}\n"
                f"    {case.as_curl_command(headers=target.headers)}"
            )

    try:
        run()
    except Unsatisfiable:
        # Nothing in the operation can be made invalid (no parameters, no body).
        if mode.is_positive:
            raise


def fuzz(target: Target, examples: Examples) -> None:
    """Send the operation's positive and negative examples, counting them and each 5xx."""
    for mode, count in (FEED_EXAMPLES if target.feed else examples).items():
        fuzz_mode(target, mode, count)


Campaign = tuple[str, dict[str, str]]


@pytest.fixture(scope="module")
def shared(client: httpx.Client) -> Callable[[str, str], Campaign]:
    """One campaign per (run, deck mode), for reads and for callers that change little."""
    made: dict[tuple[str, str], Campaign] = {}

    def campaign(run: str, mode: str) -> Campaign:
        if (run, mode) not in made:
            made[run, mode] = campaign_with_play(client, mode)
        return made[run, mode]

    return campaign


def writes(label: str) -> bool:
    return label.startswith(("POST /campaigns/{campaign}/", "DELETE /campaigns/{campaign}/"))


RUNS = [
    pytest.param("gm", "recorded", FULL, id="gm-recorded"),
    pytest.param("gm", "managed", FULL, id="gm-managed"),
    pytest.param("bob", "recorded", LIGHT, id="bob-recorded"),
    pytest.param(None, "recorded", LIGHT, id="no-token"),
]


@pytest.mark.parametrize("label", OPERATIONS)
@pytest.mark.parametrize(("caller", "mode", "examples"), RUNS)
def test_no_request_gets_a_server_error(
    api: BaseSchema,
    service: str,
    fuzz_dir: Path,
    client: httpx.Client,
    shared: Callable[[str, str], Campaign],
    caller: str | None,
    mode: str,
    examples: Examples,
    label: str,
) -> None:
    # The GM's writes each get a fresh campaign: one ended session would starve the rest.
    run = caller or "no-token"
    fresh = caller == "gm" and writes(label)
    campaign, tokens = campaign_with_play(client, mode) if fresh else shared(run, mode)
    headers = {} if caller is None else {"Authorization": f"Bearer {tokens[caller]}"}
    target = Target(
        api=api,
        base_url=service,
        db=fuzz_dir / "tablelog.db",
        label=label,
        headers=headers,
        campaign=campaign,
    )
    fuzz(target, examples)
    assert target.sent > 0
    assert target.failures == [], "server errors:\n" + "\n".join(target.failures)


@pytest.mark.parametrize("at", [MAX_SEQ + 1, 82279907116700401664])
def test_replay_at_beyond_the_largest_seq_is_refused_not_a_server_error(
    client: httpx.Client, shared: Callable[[str, str], Campaign], at: int
) -> None:
    campaign, tokens = shared("gm", "recorded")
    headers = {"Authorization": f"Bearer {tokens['gm']}"}
    state = client.get(f"/campaigns/{campaign}/state", params={"at": at}, headers=headers)
    assert (state.status_code, state.json()["code"]) == (422, "bad-seq")
    replay = client.get(f"/campaigns/{campaign}/replay", params={"at": at}, headers=headers)
    assert replay.status_code == 422, replay.text
    assert replay.json()["code"] == "bad-seq"


# Bodies nested deeper than any the service takes: past the JSON decoder's own recursion limit
# (`"[" * 100000`), and just past the service's (33 levels).
DEEP = {
    "decoder-limit": b"[" * 100_000 + b"]" * 100_000,
    "service-limit": b'{"a": ' + b"[" * 33 + b"]" * 33 + b"}",
}
WITH_BODY = [label for label in OPERATIONS if label.startswith("POST ")]


@pytest.mark.parametrize("body", list(DEEP), ids=list(DEEP))
@pytest.mark.parametrize("label", WITH_BODY)
def test_a_deeply_nested_body_is_refused_in_one_sentence(
    client: httpx.Client,
    fuzz_dir: Path,
    shared: Callable[[str, str], Campaign],
    label: str,
    body: str,
) -> None:
    """Every JSON endpoint: 422 `bad-json` for a signed-in caller, 401 or 403 for anyone else
    (the token is checked before the body is read); never a 5xx; nothing written."""
    campaign, tokens = shared("gm", "recorded")
    path = label.split(" ", 1)[1].replace("{campaign}", campaign)
    for name, value in (("conflict", "c1"), ("player", "rick"), ("who", "bob")):
        path = path.replace("{" + name + "}", value)
    callers: list[tuple[str | None, int]] = [
        (tokens["gm"], 422),
        (tokens["bob"], 422),
        (None, 401),
        ("y" * 43, 401),
    ]
    if path == "/campaigns":  # creation takes the admin token; a campaign's is refused
        callers[:2] = [(admin(str(client.base_url))["Authorization"][7:], 422), (tokens["gm"], 403)]
    for token, expected in callers:
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        before = heads(fuzz_dir / "tablelog.db")
        answer = client.post(path, content=DEEP[body], headers=headers)
        assert answer.status_code == expected, (token == tokens["gm"], answer.text)
        assert set(answer.json()) == {"code", "message"}, answer.text
        if expected == 422:
            assert answer.json()["code"] == "bad-json"
        assert heads(fuzz_dir / "tablelog.db") == before
