"""Hostile requests against a real `tablelog serve` on loopback: the client address the
sign-in limit counts is the connection's (a forwarded header is trusted only from a proxy
named by `--forwarded-allow-ips`); the token is checked before the body, so a malformed
or deeply nested body from a stranger is a 401 that counts; a bad `Last-Event-ID` is a 422."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.support.server import admin, running_service

DEEP = b"[" * 100_000 + b"]" * 100_000
WHATIF = "/campaigns/heist/whatif"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def gm_of(http: httpx.Client) -> str:
    made = http.post(
        "/campaigns", json={"name": "heist", "ruleset": "improv"}, headers=admin(str(http.base_url))
    )
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


def from_address(url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=address))


def test_forwarded_headers_are_not_trusted_by_default(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path, "--auth-failures", "3") as url:
        with httpx.Client(base_url=url) as http:
            gm = gm_of(http)
            # A new X-Forwarded-For on every guess does not make a new client...
            for n in range(3):
                forged = {**bearer("x" * 43), "X-Forwarded-For": f"10.0.0.{n}"}
                assert http.get("/campaigns/heist/state", headers=forged).status_code == 401
            forged = {**bearer(gm), "X-Forwarded-For": "10.0.0.99"}
            limited = http.get("/campaigns/heist/state", headers=forged)
            assert (limited.status_code, limited.json()["code"]) == (429, "too-many-failures")
        # ...and guesses sent in another's name do not lock that address out.
        with from_address(url, "127.0.0.2") as other:
            for _ in range(3):
                forged = {**bearer("x" * 43), "X-Forwarded-For": "127.0.0.3"}
                assert other.get("/campaigns/heist/state", headers=forged).status_code == 401
        with from_address(url, "127.0.0.3") as stranger:
            fine = stranger.get("/campaigns/heist/state", headers=bearer(gm))
            assert fine.status_code == 200, fine.text


def test_a_trusted_proxy_names_the_client(tmp_path: Path) -> None:
    """Behind a reverse proxy on this host: its X-Forwarded-For is the client's address."""
    db = tmp_path / "tablelog.db"
    options = ("--auth-failures", "3", "--forwarded-allow-ips", "127.0.0.1")
    with running_service(str(db), tmp_path, *options) as url, httpx.Client(base_url=url) as http:
        gm = gm_of(http)
        for _ in range(3):
            guess = {**bearer("x" * 43), "X-Forwarded-For": "10.0.0.1"}
            assert http.get("/campaigns/heist/state", headers=guess).status_code == 401
        held = http.get(
            "/campaigns/heist/state", headers={**bearer(gm), "X-Forwarded-For": "10.0.0.1"}
        )
        assert held.status_code == 429
        fine = http.get(
            "/campaigns/heist/state", headers={**bearer(gm), "X-Forwarded-For": "10.0.0.2"}
        )
        assert fine.status_code == 200, fine.text
        # A proxy it does not name is a client like any other.
        with from_address(url, "127.0.0.2") as untrusted:
            for n in range(3):
                guess = {**bearer("x" * 43), "X-Forwarded-For": f"10.1.0.{n}"}
                assert untrusted.get("/campaigns/heist/state", headers=guess).status_code == 401
            again = untrusted.get(
                "/campaigns/heist/state", headers={**bearer(gm), "X-Forwarded-For": "10.1.0.9"}
            )
            assert again.status_code == 429


def test_the_token_is_checked_before_the_body(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path, "--auth-failures", "3") as url:
        with httpx.Client(base_url=url) as http:
            gm = gm_of(http)
            json_body = {"Content-Type": "application/json"}
            mine = http.post(WHATIF, content=DEEP, headers={**json_body, **bearer(gm)})
            assert (mine.status_code, mine.json()["code"]) == (422, "bad-json")
            broken = http.post(WHATIF, content=b'{"at": ', headers={**json_body, **bearer(gm)})
            assert (broken.status_code, broken.json()["code"]) == (422, "bad-json")
            # Bytes that are not UTF-8 text are not JSON either (it was a 500).
            garbled = b'{"title": "a\xff\xfeb"}'
            bad = http.post(
                "/campaigns/heist/scenes", content=garbled, headers={**json_body, **bearer(gm)}
            )
            assert (bad.status_code, bad.json()["code"]) == (422, "bad-json"), bad.text
            assert "UTF-8" in bad.json()["message"]
            # Without a token: told so, and it costs nothing.
            for _ in range(5):
                nobody = http.post(WHATIF, content=DEEP, headers=json_body)
                assert (nobody.status_code, nobody.json()["code"]) == (401, "no-token")
            assert http.get("/campaigns/heist/state", headers=bearer(gm)).status_code == 200
        # An unknown token with a hostile body: 401 and counted like any failed sign-in.
        with from_address(url, "127.0.0.2") as guesser:
            for body in (DEEP, b"{", b'{"at": 1, "commands": []}'):
                guess = {**json_body, **bearer("x" * 43)}
                answer = guesser.post(WHATIF, content=body, headers=guess)
                assert (answer.status_code, answer.json()["code"]) == (401, "unknown-token")
            held = guesser.post(WHATIF, content=DEEP, headers={**json_body, **bearer(gm)})
            assert (held.status_code, held.json()["code"]) == (429, "too-many-failures")


def test_a_last_event_id_that_is_not_a_seq_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url) as http:
        gm = gm_of(http)
        for value in (b"\xb2", "²".encode(), b"1e3", b"-1", b"9" * 20):
            headers = {**bearer(gm), "Last-Event-ID": value}  # type: ignore[dict-item]
            with http.stream("GET", "/campaigns/heist/events", headers=headers) as feed:
                feed.read()
                assert feed.status_code == 422, (value, feed.text)
                assert set(feed.json()) == {"code", "message"}
        stranger = {**bearer("x" * 43), "Last-Event-ID": b"\xb2"}
        with http.stream("GET", "/campaigns/heist/events", headers=stranger) as feed:  # type: ignore[arg-type]
            feed.read()
            assert feed.status_code == 401
        resume = {**bearer(gm), "Last-Event-ID": "0"}  # a seq: the feed goes on from there
        with http.stream("GET", "/campaigns/heist/events", headers=resume, timeout=10) as feed:
            assert feed.status_code == 200
            first = next(line for line in feed.iter_lines() if line.startswith("id:"))
        assert first == "id: 1"
        # A seq past the head (a backup restored under the client, or made up): the feed
        # follows from the head, and says the head when it says it is alive.
        head = len(http.get("/campaigns/heist/log", headers=bearer(gm)).json())
        for number, past in enumerate((str(head + 1000), "9" * 19)):
            ahead = {**bearer(gm), "Last-Event-ID": past}
            with http.stream("GET", "/campaigns/heist/events", headers=ahead, timeout=10) as feed:
                assert feed.status_code == 200
                joined = http.post(
                    f"/campaigns/heist/players/p{number}/tokens", json={}, headers=bearer(gm)
                )
                assert joined.status_code == 201, joined.text  # a player joins: one event
                seen = next(line for line in feed.iter_lines() if line.startswith("id:"))
            assert seen == f"id: {head + 1}", past
            head += 1
    logs = "".join(path.read_text() for path in tmp_path.glob("serve-*.log"))
    assert "Traceback" not in logs
