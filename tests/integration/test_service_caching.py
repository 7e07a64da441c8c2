"""No shared cache may hand one caller's answer to another (issue 25): every GET route of the
service's OpenAPI document, walked against a real `tablelog serve` with its path parameters
filled from demo campaigns of every ruleset, answers with `Cache-Control: no-store` and a
`Vary` naming Authorization and Cookie, for a valid token and for none, whatever the status
(the live feed's headers too). The routes come from the served document, so a new GET route
is walked the day it is added; one whose path parameters this test cannot fill fails it by
name. The web page's routes, which the document leaves out, are walked from the app's own
route table; only the static assets under /assets stay cacheable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tablelog import rulesets
from tablelog.commands.access import grant
from tablelog.commands.database import opened
from tablelog.commands.demo import write_demo
from tablelog.http.app import create_app
from tests.support.server import running_service

HTTP_TIMEOUT_S = 15.0
FEED = "/campaigns/{campaign}/events"
PLACEHOLDER = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")  # `{seq}` or the route table's `{seq:int}`


@dataclass(frozen=True)
class Demo:
    """A ruleset's demo campaign, its state as the GM sees it and the tokens of its GM and of
    the player of its first character (whose hand that player may see), if it has one."""

    campaign: str
    state: dict[str, Any]
    tokens: dict[str, str]


def _first(values: Any) -> str:
    names = list(values)  # a state's map (conflicts, characters) or list
    assert names, "the demo has none"
    return str(names[0])


# Real values for each path parameter, from the demo of the route's ruleset.
FILL: dict[str, Callable[[Demo], str]] = {
    "campaign": lambda demo: demo.campaign,
    "conflict": lambda demo: _first(demo.state["conflicts"]),
    "seq": lambda demo: str(demo.state["seq"]),
    "character": lambda demo: _first(demo.state["characters"]),
    # A hand's owner: a character, or (Improv's managed decks) the caller, here the GM.
    "who": lambda demo: _first(demo.state["characters"]) if "characters" in demo.state else "gm",
    "path": lambda _demo: "openapi.json",  # the OpenAPI plugin's /schema/{path}
    "player": lambda _demo: "gm",  # a seat's contact
    "token": lambda _demo: "an-unsubscribe-token-no-mail-carried",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("caching")


@pytest.fixture(scope="module")
def tokens(home: Path) -> dict[str, tuple[str, str]]:
    """Every ruleset's demo written into one database: ruleset -> (campaign, GM token)."""
    made = {}
    with opened(str(home / "tablelog.db"), create=True) as store:
        for ruleset in rulesets.names():
            campaign = write_demo(store, ruleset=ruleset)[0].campaign
            made[ruleset] = (campaign, grant(store, campaign, "gm", "gm").token)
    return made


@pytest.fixture(scope="module")
def service(home: Path, tokens: dict[str, tuple[str, str]]) -> Iterator[str]:
    with running_service(str(home / "tablelog.db"), home) as url:
        yield url


@pytest.fixture(scope="module")
def client(service: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service, timeout=HTTP_TIMEOUT_S) as http:
        yield http


@pytest.fixture(scope="module")
def demos(home: Path, client: httpx.Client, tokens: dict[str, tuple[str, str]]) -> dict[str, Demo]:
    found = {}
    for ruleset, (campaign, token) in tokens.items():
        state = client.get(f"/campaigns/{campaign}/state", headers=bearer(token))
        assert state.status_code == 200, state.text
        callers = {"the GM": token}
        characters = state.json().get("characters", {})
        if isinstance(characters, dict) and characters:
            player = next(iter(characters.values()))["player"]
            with opened(str(home / "tablelog.db")) as store:
                callers[f"player {player}"] = grant(store, campaign, player).token
        found[ruleset] = Demo(campaign=campaign, state=state.json(), tokens=callers)
    return found


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def demo_for(path: str, demos: dict[str, Demo]) -> Demo:
    """The demo of the ruleset a route belongs to (`/campaigns/{campaign}/beer-run/...`),
    else the first ruleset's."""
    parts = path.split("/")
    if len(parts) > 3 and parts[1] == "campaigns" and parts[3] in rulesets.names():
        return demos[parts[3]]
    return demos[rulesets.names()[0]]


def filled(path: str, demos: dict[str, Demo]) -> tuple[str, Demo]:
    """`path` with each parameter replaced by a real value; fails naming the route and the
    parameter it cannot fill."""
    demo = demo_for(path, demos)

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in FILL:
            pytest.fail(f"GET {path}: no value for its path parameter {{{name}}}; add it to FILL")
        return FILL[name](demo)

    return PLACEHOLDER.sub(value, path), demo


def private(response: httpx.Response) -> str | None:
    """What is wrong with a response's caching headers, if anything."""
    cache, vary = response.headers.get("cache-control"), response.headers.get("vary")
    varies = {v.strip().lower() for v in (vary or "").split(",")}
    if cache != "no-store" or not {"authorization", "cookie"} <= varies:
        return f"{response.status_code} Cache-Control={cache!r} Vary={vary!r}"
    return None


def walk(client: httpx.Client, paths: list[str], demos: dict[str, Demo]) -> list[str]:
    """Each path's GET with each token of its demo and with none; the problems found."""
    problems = []
    for path in paths:
        url, demo = filled(path, demos)
        callers = [(who, bearer(token)) for who, token in demo.tokens.items()]
        for who, headers in [*callers, ("no token", {})]:
            if path == FEED:  # the headers only, then the feed is closed
                with client.stream("GET", url, headers=headers) as response:
                    wrong = private(response)
            else:
                wrong = private(client.get(url, headers=headers))
            if wrong is not None:
                problems.append(f"GET {path} with {who}: {wrong}")
    return problems


def test_every_documented_get_route_tells_caches_not_to_store_it(
    client: httpx.Client, demos: dict[str, Demo]
) -> None:
    document = client.get("/schema/openapi.json")
    assert document.status_code == 200, document.text
    assert private(document) is None  # public, yet under the one rule (http/caching.py)
    gets = [path for path, operations in document.json()["paths"].items() if "get" in operations]
    for path in gets:
        for parameter in document.json()["paths"][path]["get"].get("parameters", []):
            if parameter["in"] == "query" and parameter.get("required"):
                pytest.fail(f"GET {path}: its query parameter {parameter['name']} is required")
    # The reads filtered per caller are all there: a walk of nothing would prove nothing.
    for needed in (FEED, "/campaigns/{campaign}/state", "/campaigns/{campaign}/export"):
        assert needed in gets
    assert any("/hands/" in path for path in gets)
    assert walk(client, gets, demos) == []


def test_the_pages_outside_the_document_too_and_only_the_assets_are_cacheable(
    client: httpx.Client, demos: dict[str, Demo]
) -> None:
    documented = set(create_app("unused.db").openapi_schema.to_schema()["paths"])
    routes = [
        PLACEHOLDER.sub(lambda m: "{" + m.group(1) + "}", route.path)
        for route in create_app("unused.db").routes
        if "GET" in getattr(route, "methods", ())
    ]
    hidden = [p for p in routes if p not in documented and not p.startswith("/assets/")]
    assert "/campaigns/{campaign}/play" in hidden
    assert walk(client, hidden, demos) == []
    # The page's script is the same bytes for everyone: a cache may keep it.
    script = client.get("/assets/page.js")
    assert script.status_code == 200
    assert "no-store" not in script.headers.get("cache-control", "")
