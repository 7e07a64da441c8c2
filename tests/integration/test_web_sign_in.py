"""The web page's sign-in, through a real service: a link traded once for an HttpOnly,
SameSite=Strict session cookie; every write carried by that cookie needs the session's CSRF
token and the service's own Origin; signing out and `tablelog revoke` end the session at
once; bearer tokens work as before, and a link's token is not one."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.server import running_service

TIMEOUT_S = 60
_CSRF = re.compile(r'<meta name="csrf-token" content="([0-9a-f]{64})">')


def tl(cwd: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablelog",
            *([] if "--server" in args else ["--db", "t.db"]),
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    if ok:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def link_token(cwd: Path, player: str, *more: str) -> str:
    made: dict[str, Any] = json.loads(tl(cwd, "invite", player, "--link", "--json", *more).stdout)
    assert made["link"].endswith(f"/campaigns/heist/play#token={made['token']}")
    return str(made["token"])


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """Campaign heist (recorded cards): bob plays Kit, sue plays Diana, conflict c1 open."""
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "bob", "Kit", "--talent", "Brawler")
    tl(tmp_path, "improv", "character", "sue", "Diana")
    tl(tmp_path, "session", "start")
    tl(tmp_path, "improv", "open")
    tl(tmp_path, "improv", "stake", "c1", "riso", "Riso keeps the files", "--gm")
    return tmp_path


def signed_in(url: str, token: str) -> tuple[httpx.Client, str]:
    """A browser-like client holding the session cookie, and the page's CSRF token."""
    client = httpx.Client(base_url=url, timeout=10)
    answer = client.post(
        "/campaigns/heist/play/session", json={"token": token}, headers={"Origin": url}
    )
    assert answer.status_code == 201, answer.text
    page = client.get("/campaigns/heist/play")
    found = _CSRF.search(page.text)
    assert found is not None, page.text
    return client, found.group(1)


def head(cwd: Path) -> int:
    listed: list[dict[str, Any]] = json.loads(tl(cwd, "campaign", "list", "--json").stdout)
    return int(listed[0]["seq"])


def test_a_link_is_traded_once_for_a_strict_http_only_cookie(table: Path) -> None:
    token = link_token(table, "bob")
    with running_service("t.db", table) as url:
        # A link's token is no bearer token.
        refused = httpx.get(
            f"{url}/campaigns/heist/state", headers={"Authorization": f"Bearer {token}"}
        )
        assert refused.status_code == 401
        assert refused.json()["code"] == "link-token"
        # Not signed in yet: the page is the one that signs in, holding nothing of the table.
        bare = httpx.get(f"{url}/campaigns/heist/play")
        assert bare.status_code == 200
        assert 'id="sign-in"' in bare.text
        assert "Riso" not in bare.text
        assert "script-src 'self'" in bare.headers["content-security-policy"]
        # Another site cannot sign a browser in.
        foreign = httpx.post(
            f"{url}/campaigns/heist/play/session",
            json={"token": token},
            headers={"Origin": "http://evil.example"},
        )
        assert foreign.status_code == 403
        answer = httpx.post(
            f"{url}/campaigns/heist/play/session", json={"token": token}, headers={"Origin": url}
        )
        assert answer.status_code == 201
        assert answer.json() == {"player": "bob", "role": "player", "traded": True}
        cookie = answer.headers["set-cookie"].lower()
        assert "httponly" in cookie
        assert "samesite=strict" in cookie
        assert "path=/campaigns/heist" in cookie
        again = httpx.post(
            f"{url}/campaigns/heist/play/session", json={"token": token}, headers={"Origin": url}
        )
        assert again.status_code == 401
        assert again.json()["message"].startswith("this sign-in link was already used")
        session = answer.cookies["tablelog_session"]
        assert session != token
        page = httpx.get(f"{url}/campaigns/heist/play", cookies={"tablelog_session": session})
        assert "You are <strong>bob</strong> (player)" in page.text
        assert "Riso keeps the files" in page.text


def test_a_write_by_cookie_needs_the_csrf_token_and_the_services_origin(table: Path) -> None:
    token = link_token(table, "bob")
    with running_service("t.db", table) as url:
        client, csrf = signed_in(url, token)
        path = "/campaigns/heist/improv/conflicts/c1/stakes"
        body = {"side": "kit", "text": "Kit gets the files", "opposes": "riso"}
        before = head(table)
        no_token = client.post(path, json=body, headers={"Origin": url})
        assert no_token.status_code == 403
        assert no_token.json()["code"] == "csrf"
        wrong = client.post(path, json=body, headers={"Origin": url, "X-CSRF-Token": "0" * 64})
        assert wrong.status_code == 403
        assert wrong.json()["code"] == "csrf"
        elsewhere = client.post(
            path, json=body, headers={"Origin": "http://evil.example", "X-CSRF-Token": csrf}
        )
        assert elsewhere.status_code == 403
        assert elsewhere.json()["code"] == "bad-origin"
        no_origin = client.post(path, json=body, headers={"X-CSRF-Token": csrf})
        assert no_origin.status_code == 403
        assert head(table) == before  # nothing appended by any of them
        done = client.post(path, json=body, headers={"Origin": url, "X-CSRF-Token": csrf})
        assert done.status_code == 201, done.text
        assert head(table) == before + 1
        # A refusal is the CLI's sentence, and appends nothing.
        bad = client.post(
            "/campaigns/heist/improv/conflicts/c1/plays",
            json={"side": "kit", "card": "ZZ"},
            headers={"Origin": url, "X-CSRF-Token": csrf},
        )
        assert bad.status_code == 422
        cli = tl(table, "improv", "play", "c1", "kit", "ZZ", ok=False)
        assert cli.returncode == 1
        assert cli.stderr.strip() == f"{bad.json()['code']}: {bad.json()['message']}"
        assert head(table) == before + 1
        client.close()


def test_sign_out_and_revoke_end_a_session_at_once(table: Path) -> None:
    bob, sue = link_token(table, "bob"), link_token(table, "sue")
    with running_service("t.db", table) as url:
        client, csrf = signed_in(url, bob)
        assert client.get("/campaigns/heist/play/table").status_code == 200
        out = client.post(
            "/campaigns/heist/play/sign-out", headers={"Origin": url, "X-CSRF-Token": csrf}
        )
        assert out.status_code == 200
        assert "tablelog_session" not in client.cookies or not client.cookies["tablelog_session"]
        client.close()

        other, _ = signed_in(url, sue)
        session = other.cookies["tablelog_session"]
        with httpx.stream(
            "GET",
            f"{url}/campaigns/heist/events",
            params={"after": head(table)},
            cookies={"tablelog_session": session},
            timeout=10,
        ) as feed:
            assert feed.status_code == 200
            tl(table, "revoke", "sue")  # another process, on the database
            seen = ""
            for text in feed.iter_text():
                seen += text
                if "revoked" in seen:
                    break
            assert "event: revoked" in seen
        gone = httpx.get(f"{url}/campaigns/heist/play/table", cookies={"tablelog_session": session})
        assert gone.status_code == 401
        page = httpx.get(f"{url}/campaigns/heist/play", cookies={"tablelog_session": session})
        assert 'id="sign-in"' in page.text
        other.close()


def test_bearer_clients_work_as_before_beside_sessions(table: Path) -> None:
    bearer = json.loads(tl(table, "invite", "bob", "--json").stdout)["token"]
    gm = json.loads(tl(table, "invite", "gina", "--role", "gm", "--json").stdout)["token"]
    with running_service("t.db", table) as url:
        # The GM invites through the service: the link names the service's own address.
        sent = tl(table, "--server", url, "--access-token", gm, "invite", "sue", "--link")
        link = sent.stdout.strip().splitlines()[-1]
        assert link.startswith(f"{url}/campaigns/heist/play#token=")
        client, _ = signed_in(url, link.split("#token=")[1])
        assert "You are <strong>sue</strong>" in client.get("/campaigns/heist/play").text
        client.close()
        state = httpx.get(
            f"{url}/campaigns/heist/state", headers={"Authorization": f"Bearer {bearer}"}
        )
        assert state.status_code == 200
        done = tl(
            table,
            "--server",
            url,
            "--access-token",
            bearer,
            "improv",
            "stake",
            "c1",
            "kit",
            "Kit wins",
            "--opposes",
            "riso",
        )
        assert "stake Kit" in done.stdout
