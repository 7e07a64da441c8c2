"""Live feeds per token and per address, against a real `tablelog serve` on loopback: one
reader cannot hold the service's connections (issue 25). The ninth feed of a token is 429
`too-many-feeds` in one sentence and changes nothing; a feed that closes, its reader gone or
its token revoked, gives its slot back; a stopping service ends its feeds."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx

from tablelog.cli.serve import SHUTDOWN_GRACE_S
from tablelog.http.feeds import DEFAULT_PER_TOKEN
from tests.support.server import admin, running_service

HTTP_TIMEOUT_S = 15.0
FREED_S = 5.0  # how long a closed feed's slot may take to come back (milliseconds, in fact)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def campaign(http: httpx.Client) -> dict[str, str]:
    """A campaign `heist` and the tokens of its GM and of players bob and sue."""
    made = http.post(
        "/campaigns", json={"name": "heist", "ruleset": "improv"}, headers=admin(str(http.base_url))
    )
    assert made.status_code == 201, made.text
    tokens = {"gm": made.json()["token"]}
    for player in ("bob", "sue"):
        invited = http.post(
            f"/campaigns/heist/players/{player}/tokens", json={}, headers=bearer(tokens["gm"])
        )
        assert invited.status_code == 201, invited.text
        tokens[player] = invited.json()["token"]
    return tokens


@contextmanager
def feed(http: httpx.Client, token: str) -> Iterator[httpx.Response]:
    """A live feed of `heist`, open (headers read, body not) until the block ends."""
    with http.stream("GET", "/campaigns/heist/events", headers=bearer(token)) as response:
        if response.status_code != 200:
            response.read()  # a refusal's JSON body
        yield response


def opens_again(http: httpx.Client, token: str, stack: ExitStack) -> httpx.Response:
    """A new feed, tried until a closed one's slot is back (bounded by FREED_S); it is kept
    open in `stack`. A refused try counts nothing, so trying again is harmless."""
    deadline = time.monotonic() + FREED_S
    while True:  # bounded: gives up at the deadline
        response = stack.enter_context(feed(http, token))
        if response.status_code == 200 or time.monotonic() > deadline:
            return response
        time.sleep(0.05)


def assert_refused(response: httpx.Response, holder: str) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert set(body) == {"code", "message"}
    assert body["code"] == "too-many-feeds"
    message: str = body["message"]
    assert message.startswith(f"this {holder} already holds ")
    assert ". " not in message  # one sentence
    assert "\n" not in message
    assert "Traceback" not in response.text
    assert response.headers["cache-control"] == "no-store"  # like every answer (caching.py)


def test_a_token_holds_eight_feeds_and_a_closed_one_frees_its_slot(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with (
        running_service(str(db), tmp_path) as url,
        httpx.Client(base_url=url, timeout=HTTP_TIMEOUT_S) as http,
    ):
        tokens = campaign(http)
        with ExitStack() as held:
            first = held.enter_context(feed(http, tokens["bob"]))
            assert first.status_code == 200
            with ExitStack() as others:
                for _ in range(DEFAULT_PER_TOKEN - 1):
                    assert others.enter_context(feed(http, tokens["bob"])).status_code == 200
                with feed(http, tokens["bob"]) as ninth:
                    assert_refused(ninth, "access token")
                # Nothing else changed: another token of the same address, and bob's reads.
                with feed(http, tokens["sue"]) as sues:
                    assert sues.status_code == 200
                assert http.get("/campaigns/heist/state", headers=bearer(tokens["bob"])).is_success
                # One of bob's feeds closes (its reader goes away): a new one is taken.
                first.close()
                again = opens_again(http, tokens["bob"], others)
                assert again.status_code == 200, again.text
                with feed(http, tokens["bob"]) as past:
                    assert_refused(past, "access token")


def test_an_address_holds_its_feeds_and_a_revoked_tokens_free_theirs(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    options = ("--feeds-per-address", "3", "--feeds-per-token", "3")
    with (
        running_service(str(db), tmp_path, *options) as url,
        httpx.Client(base_url=url, timeout=HTTP_TIMEOUT_S) as http,
        ExitStack() as held,
    ):
        tokens = campaign(http)
        bobs = [held.enter_context(feed(http, tokens["bob"])) for _ in range(3)]
        assert [f.status_code for f in bobs] == [200, 200, 200]
        with feed(http, tokens["sue"]) as sues:
            assert_refused(sues, "address")  # sue's own token holds none
        revoked = http.delete("/campaigns/heist/players/bob/tokens", headers=bearer(tokens["gm"]))
        assert revoked.status_code == 200, revoked.text
        for ended in bobs:  # each says why and closes; the service ends them within 0.25 s
            lines = list(ended.iter_lines())
            assert "event: revoked" in lines
        again = opens_again(http, tokens["sue"], held)
        assert again.status_code == 200, again.text


def test_a_stopping_service_ends_its_open_feeds(tmp_path: Path) -> None:
    """A feed never ends by itself, yet a stopping service ends it at once, cleanly (not cut
    when uvicorn's grace period runs out, which would log a traceback per feed), and stops;
    running_service kills it only after 10 s."""
    db = tmp_path / "tablelog.db"
    with ThreadPoolExecutor(max_workers=1) as pool:
        with (
            running_service(str(db), tmp_path) as url,
            httpx.Client(base_url=url, timeout=HTTP_TIMEOUT_S) as http,
        ):
            tokens = campaign(http)
            opened = threading.Event()

            def read() -> list[str]:  # on a client of its own, open until the feed ends
                lines: list[str] = []
                with httpx.Client(base_url=url, timeout=HTTP_TIMEOUT_S) as own:
                    try:
                        with feed(own, tokens["bob"]) as response:
                            for line in response.iter_lines():
                                lines.append(line)
                                if line == "event: event":
                                    opened.set()  # the campaign's events are flowing
                    except httpx.RemoteProtocolError:
                        lines.append("(cut)")
                return lines

            reader = pool.submit(read)
            assert opened.wait(HTTP_TIMEOUT_S)
            stopping = time.monotonic()
        stopped = time.monotonic() - stopping
        assert stopped < SHUTDOWN_GRACE_S, stopped
        lines = reader.result(timeout=HTTP_TIMEOUT_S)
        assert "event: event" in lines  # the campaign's events came, then the end
        assert "(cut)" not in lines
    log = next(tmp_path.glob("serve-*.log")).read_text(encoding="utf-8")
    assert "Traceback" not in log
