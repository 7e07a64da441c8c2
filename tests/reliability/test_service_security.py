"""The service's tokens and limits, against a real `tablelog serve` on loopback: tokens are
random and only their digests are stored; failed sign-ins are limited per address; a body
over the limit is refused whole; no token reaches the service's log or an error message."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
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


def test_clients_that_hang_up_mid_command_leave_each_command_once_and_the_service_writing(
    tmp_path: Path,
) -> None:
    """Commands wait for their campaign's writer without a thread of their own
    (http/commands.py): a client gone before its answer leaves no command half-done, no
    other command lost or doubled, and the writer still writing."""
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url, timeout=30) as http:
        gm = table(http)["gm"]
        start = head_seq(db)
        address = httpx.URL(url)
        body = json.dumps({"side": "riso", "text": "hung up"}).encode()
        hang_up = (
            f"POST {NARRATE} HTTP/1.1\r\nHost: {address.host}:{address.port}\r\n"
            f"Authorization: Bearer {gm}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        acknowledged: list[int] = []
        failures: list[str] = []

        def patient(number: int) -> None:
            with httpx.Client(base_url=url, timeout=30) as mine:
                for i in range(10):
                    sent = {"side": "riso", "text": f"{number}.{i}"}
                    done = mine.post(NARRATE, json=sent, headers=bearer(gm))
                    if done.status_code != 201:
                        failures.append(done.text)
                        return
                    acknowledged.append(done.json()["seq"])

        where = (address.host, address.port or 80)

        def rude() -> None:
            for _ in range(10):
                with socket.create_connection(where, timeout=10) as sock:
                    sock.sendall(hang_up)  # and gone before the answer

        threads = [threading.Thread(target=patient, args=(n,)) for n in range(6)]
        threads += [threading.Thread(target=rude) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not failures, failures
        after = http.post(NARRATE, json={"side": "riso", "text": "after"}, headers=bearer(gm))
        assert after.status_code == 201, after.text
        settled, deadline = -1, time.monotonic() + 10  # until the hung-up ones are written
        while head_seq(db) != settled and time.monotonic() < deadline:
            settled = head_seq(db)
            time.sleep(0.3)
    assert len(set(acknowledged)) == 60
    with closing(sqlite3.connect(db)) as conn:
        texts = [
            json.loads(payload).get("text")
            for (payload,) in conn.execute(
                "SELECT payload FROM events WHERE campaign_id = 'heist' AND seq > ?", (start,)
            )
        ]
    patient_texts = sorted(t for t in texts if t not in ("hung up", "after"))
    assert patient_texts == sorted(f"{n}.{i}" for n in range(6) for i in range(10))
    assert texts.count("after") == 1
    # A command sent whole is written whether or not its client waits for the answer.
    assert texts.count("hung up") == 20, texts.count("hung up")
    verified = subprocess.run(
        [sys.executable, "-m", "tablelog", "--db", str(db), "verify"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
