"""The service's tokens and limits, against a real `tablelog serve` on loopback: tokens are
random and only their digests are stored; failed sign-ins are limited per address; a body
over the limit is refused whole; no token reaches the service's log or an error message."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import httpx

from tablelog.commands.access import new_token
from tests.support.server import admin, running_service

NARRATE = "/campaigns/heist/improv/conflicts/c1/narrations"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def table(http: httpx.Client) -> dict[str, str]:
    """A campaign with a GM stake in an open conflict; the tokens of the GM and of bob."""
    made = http.post(
        "/campaigns", json={"name": "heist", "ruleset": "improv"}, headers=admin(str(http.base_url))
    )
    assert made.status_code == 201, made.text
    gm = made.json()["token"]
    invited = http.post("/campaigns/heist/players/bob/tokens", json={}, headers=bearer(gm))
    assert invited.status_code == 201, invited.text
    bob = invited.json()["token"]
    for path, body in (
        ("/improv/characters", {"player": "bob", "character": "Kit", "talents": []}),
        ("/sessions", {}),
        ("/improv/conflicts", {"conflict": "c1"}),
        ("/improv/conflicts/c1/stakes", {"side": "riso", "gm": True, "text": "Riso runs"}),
    ):
        done = http.post(f"/campaigns/heist{path}", json=body, headers=bearer(gm))
        assert done.status_code == 201, (path, done.text)
    return {"gm": gm, "bob": bob}


def head_seq(db: Path) -> int:
    with closing(sqlite3.connect(db)) as conn, conn:
        (seq,) = conn.execute("SELECT head_seq FROM campaigns WHERE name = 'heist'").fetchone()
    return int(seq)


def test_tokens_are_random_and_stored_only_as_digests(tmp_path: Path) -> None:
    fresh = {new_token()[0] for _ in range(1000)}
    assert len(fresh) == 1000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43,}", token) for token in fresh)
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url) as http:
        tokens = table(http)
    with closing(sqlite3.connect(db)) as conn, conn:
        stored = [row[0] for row in conn.execute("SELECT token_hash FROM access_tokens")]
        everything = "\n".join(line for line in conn.iterdump())
    assert len(stored) == 2
    assert all(re.fullmatch(r"[0-9a-f]{64}", digest) for digest in stored)
    assert not any(token in everything for token in tokens.values())


def test_failed_sign_ins_are_limited_per_address(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path, "--auth-failures", "5") as url:
        with httpx.Client(base_url=url) as http:
            tokens = table(http)
            for _ in range(5):
                wrong = http.get("/campaigns/heist/state", headers=bearer("x" * 43))
                assert wrong.status_code == 401
            # Past the limit, even the right token is not looked at from this address...
            limited = http.get("/campaigns/heist/state", headers=bearer(tokens["bob"]))
            assert limited.status_code == 429
            assert limited.json()["code"] == "too-many-failures"
            assert 1 <= int(limited.headers["Retry-After"]) <= 60
            # ...and a request without a token is only told it has none.
            assert http.get("/campaigns/heist/state").json()["code"] == "no-token"
        # Another address is not held to this one's failures.
        elsewhere = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=url, transport=elsewhere) as other:
            fine = other.get("/campaigns/heist/state", headers=bearer(tokens["bob"]))
            assert fine.status_code == 200, fine.text


def test_a_body_over_the_limit_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url) as http:
        tokens = table(http)
        before = head_seq(db)
        huge = {"side": "riso", "text": "x" * 2_000_000}
        refused = http.post(NARRATE, json=huge, headers=bearer(tokens["gm"]))
        assert refused.status_code == 413
        assert refused.json() == {
            "code": "too-large",
            "message": "the request body is larger than the service takes (1,048,576 bytes)",
        }
        long = http.post(
            NARRATE, json={"side": "riso", "text": "x" * 5000}, headers=bearer(tokens["gm"])
        )
        assert long.status_code == 422
        assert "4000" in long.json()["message"]
        assert head_seq(db) == before


def test_no_token_reaches_the_log_or_an_error(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    answers: list[str] = []
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url) as http:
        tokens = table(http)
        wrong = "y" * 43
        for token in (*tokens.values(), wrong):
            for method, path, body in (
                ("GET", "/campaigns/heist/state", None),
                ("GET", "/campaigns/elsewhere/state", None),
                ("POST", NARRATE, {"side": "kit", "text": "not bob's to say"}),
                ("POST", NARRATE, {"side": "riso", "text": 7}),
                ("GET", "/campaigns/heist/improv/hands/gm", None),
            ):
                answer = http.request(method, path, json=body, headers=bearer(token))
                answers.append(answer.text)
        revoked = http.delete("/campaigns/heist/players/bob/tokens", headers=bearer(tokens["gm"]))
        assert revoked.status_code == 200, revoked.text
        answers.append(http.get("/campaigns/heist/state", headers=bearer(tokens["bob"])).text)
    logs = "".join(path.read_text() for path in tmp_path.glob("serve-*.log"))
    for token in (*tokens.values(), wrong):
        assert token not in logs
        assert not any(token in answer for answer in answers)
    assert any("revoked" in answer for answer in answers)


def test_a_database_password_never_appears_in_an_error(tmp_path: Path) -> None:
    from tests.e2e.transcript import refused, run

    url = "postgresql+psycopg://tablelog:s3cr3t-pw@127.0.0.1:1/nowhere"  # nothing listens
    for command in (["campaign", "list"], ["verify"], ["db", "current"]):
        result = run(tmp_path, "--db", url, *command)
        line = refused(result)
        assert "s3cr3t-pw" not in result.stdout + result.stderr, line
        assert "***" in line  # the URL is named, its password masked
