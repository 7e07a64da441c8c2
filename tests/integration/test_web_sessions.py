"""Web sessions through a real service and the real CLI: a sign-in link opened where a session
is signed in changes nothing until the person says so (and stays unused when they do not);
`tablelog sessions` lists and ends sessions on the database (the operator: all of them) and
through the service (the GM: all of the campaign's; a player: their own only, another's is
refused and stays as it was); the page's routes need its CSRF token to end one."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.test_web_sign_in import link_token, signed_in, tl
from tests.support.server import running_service


@pytest.fixture
def heist(tmp_path: Path) -> Path:
    """Campaign heist: gina is the GM, bob and sue play."""
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "bob", "Kit")
    tl(tmp_path, "improv", "character", "sue", "Diana")
    return tmp_path


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def session_id(session: str) -> str:
    """A session's listed id: the first 12 characters of its stored digest."""
    return digest(session)[:12]


def link_unused(cwd: Path, token: str) -> bool:
    with closing(sqlite3.connect(cwd / "t.db")) as conn, conn:
        row = conn.execute(
            "SELECT revoked_at FROM access_tokens WHERE token_hash = ?", (digest(token),)
        ).fetchone()
    return row is not None and row[0] is None


def cookie_of(client: httpx.Client) -> str:
    return str(client.cookies["tablelog_session"])


def works(url: str, session: str) -> bool:
    answer = httpx.get(f"{url}/campaigns/heist/play/table", cookies={"tablelog_session": session})
    assert answer.status_code in (200, 401), answer.text
    return answer.status_code == 200


def listing(cwd: Path, *root: str, more: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """`tablelog [ROOT...] sessions --json [MORE...]`'s sessions."""
    done: dict[str, Any] = json.loads(tl(cwd, *root, "sessions", "--json", *more).stdout)
    assert done["campaign"] == "heist"
    found: list[dict[str, Any]] = done["sessions"]
    return found


def test_a_link_opened_while_signed_in_asks_and_changes_nothing(heist: Path) -> None:
    gm = json.loads(tl(heist, "invite", "gina", "--role", "gm", "--json").stdout)["token"]
    bob = link_token(heist, "bob")
    with running_service("t.db", heist) as url:

        def gm_link() -> str:
            """A sign-in link of the GM's own, asked for by the GM (another device)."""
            sent = tl(
                heist,
                "--server",
                url,
                "--access-token",
                gm,
                "invite",
                "gina",
                "--role",
                "gm",
                "--link",
            )
            return sent.stdout.strip().splitlines()[-1].split("#token=")[1]

        client, _ = signed_in(url, gm_link())
        gm_session = cookie_of(client)
        trade = f"{url}/campaigns/heist/play/session"
        origin = {"Origin": url}
        asked = client.post(trade, json={"token": bob}, headers=origin)
        assert asked.status_code == 409
        assert asked.json() == {
            "code": "signed-in",
            "message": "You are signed in as the GM of heist; sign in as bob (player) instead?",
            "current": {"player": "gina", "role": "gm"},
            "link": {"player": "bob", "role": "player"},
        }
        assert link_unused(heist, bob)  # not traded: it still works later
        assert cookie_of(client) == gm_session
        assert works(url, gm_session)
        assert "You are <strong>gina</strong> (gm)" in client.get("/campaigns/heist/play").text
        # A link of the seat already signed in: said so, nothing traded.
        same = gm_link()
        answer = client.post(trade, json={"token": same}, headers=origin)
        assert answer.status_code == 200
        assert answer.json() == {"player": "gina", "role": "gm", "traded": False}
        assert link_unused(heist, same)
        assert cookie_of(client) == gm_session
        # The person said yes: bob's seat replaces the GM's, whose session ends.
        yes = client.post(trade, json={"token": bob, "replace": True}, headers=origin)
        assert yes.status_code == 201
        assert yes.json() == {"player": "bob", "role": "player", "traded": True}
        assert not link_unused(heist, bob)
        assert not works(url, gm_session)
        assert "You are <strong>bob</strong> (player)" in client.get("/campaigns/heist/play").text
        client.close()


def test_players_see_and_end_only_their_own_sessions_through_the_service(heist: Path) -> None:
    bearer = {
        who: json.loads(tl(heist, "invite", who, "--json", *more).stdout)["token"]
        for who, more in (("gina", ("--role", "gm")), ("bob", ()), ("sue", ()))
    }
    with running_service("t.db", heist) as url:

        def as_(who: str) -> tuple[str, ...]:
            return ("--server", url, "--access-token", bearer[who])

        def browser(who: str) -> httpx.Client:
            """A browser of `who`'s, signed in with a link `who` asked for (another device)."""
            role = ("--role", "gm") if who == "gina" else ()
            made = json.loads(tl(heist, *as_(who), "invite", who, *role, "--link", "--json").stdout)
            client, _ = signed_in(url, made["token"])
            return client

        pages = {"gina": browser("gina"), "bob": browser("bob"), "bob2": browser("bob")}
        pages["sue"] = browser("sue")
        ids = {who: session_id(cookie_of(page)) for who, page in pages.items()}
        assert len(set(ids.values())) == 4

        mine = listing(heist, *as_("bob"))
        assert [(s["id"], s["player"], s["role"]) for s in mine] == [
            (ids["bob"], "bob", "player"),
            (ids["bob2"], "bob", "player"),
        ]
        assert {"created_at", "last_used_at", "current"} <= set(mine[0])
        assert not any(s["current"] for s in mine)  # a bearer token is no web session
        assert {s["id"] for s in listing(heist, *as_("gina"))} == set(ids.values())
        assert [s["id"] for s in listing(heist, *as_("gina"), more=("--player", "sue"))] == [
            ids["sue"]
        ]

        # A player may not see or end another's session: refused, and nothing changes.
        peek = tl(heist, *as_("bob"), "sessions", "--player", "sue", ok=False)
        assert peek.returncode == 1
        assert peek.stderr.startswith("not-your-session: ")
        refused = tl(heist, *as_("bob"), "sessions", "end", ids["sue"], ok=False)
        assert refused.returncode == 1
        assert refused.stderr.strip() == (
            f"not-your-session: session {ids['sue']} is not bob's; a player ends only their "
            "own sessions"
        )
        assert len(refused.stderr.strip().splitlines()) == 1
        assert works(url, cookie_of(pages["sue"]))
        assert {s["id"] for s in listing(heist, *as_("gina"))} == set(ids.values())

        # A player ends their own; the GM ends anyone's.
        done = tl(heist, *as_("bob"), "sessions", "end", ids["bob2"])
        assert done.stdout.strip() == f"ended web session {ids['bob2']} of player bob in heist"
        assert not works(url, cookie_of(pages["bob2"]))
        assert works(url, cookie_of(pages["bob"]))
        tl(heist, *as_("gina"), "sessions", "end", "--all", "--player", "sue")
        assert not works(url, cookie_of(pages["sue"]))
        assert {s["player"] for s in listing(heist, *as_("gina"))} == {"gina", "bob"}

        # The page's own routes: its list marks this browser; ending needs the CSRF token.
        page = pages["bob"]
        found = page.get("/campaigns/heist/play").text
        csrf = found.split('name="csrf-token" content="')[1].split('"')[0]
        listed = page.get("/campaigns/heist/web-sessions").json()
        assert [(s["id"], s["current"]) for s in listed] == [(ids["bob"], True)]
        path = f"/campaigns/heist/web-sessions/{ids['gina']}"
        no_csrf = page.delete(path, headers={"Origin": url})
        assert no_csrf.status_code == 403
        assert no_csrf.json()["code"] == "csrf"
        other = page.delete(path, headers={"Origin": url, "X-CSRF-Token": csrf})
        assert other.status_code == 403
        assert other.json()["code"] == "not-your-session"
        assert works(url, cookie_of(pages["gina"]))
        session = cookie_of(page)
        own = page.delete(
            f"/campaigns/heist/web-sessions/{ids['bob']}",
            headers={"Origin": url, "X-CSRF-Token": csrf},
        )
        assert own.status_code == 200
        assert own.json()["ended"][0]["current"] is True
        assert "tablelog_session" not in page.cookies  # cleared, as signing out does
        assert not works(url, session)
        for client in pages.values():
            client.close()


def test_the_operator_lists_and_ends_sessions_on_the_database(heist: Path) -> None:
    links = {who: link_token(heist, who) for who in ("bob", "sue")}
    with running_service("t.db", heist) as url:
        cookies = {}
        for who, token in links.items():
            client, _ = signed_in(url, token)
            cookies[who] = cookie_of(client)
            client.close()
        ids = {who: session_id(cookie) for who, cookie in cookies.items()}
        text = tl(heist, "sessions").stdout
        assert text.splitlines()[0].split() == ["id", "player", "role", "created", "last", "used"]
        assert ids["bob"] in text
        assert ids["sue"] in text
        assert cookies["bob"] not in text  # never the secret, nor the stored digest
        assert digest(cookies["bob"]) not in text
        assert [s["player"] for s in listing(heist)] == ["bob", "sue"]
        assert [s["id"] for s in listing(heist, more=("--player", "sue"))] == [ids["sue"]]

        # Usage errors exit 2; a bad or unknown id is refused in one sentence, exit 1.
        assert tl(heist, "sessions", "end", ok=False).returncode == 2
        assert tl(heist, "sessions", "end", ids["bob"], "--all", ok=False).returncode == 2
        assert tl(heist, "sessions", "end", ids["bob"], "--player", "bob", ok=False).returncode == 2
        bad = tl(heist, "sessions", "end", "not-an-id", ok=False)
        assert bad.returncode == 1
        assert bad.stderr.startswith("bad-session-id: ")
        unknown = tl(heist, "sessions", "end", "0123456789ab", ok=False)
        assert unknown.returncode == 1
        assert unknown.stderr.strip() == (
            "no-session: campaign heist has no live web session 0123456789ab; `tablelog "
            "sessions` lists them"
        )
        assert works(url, cookies["bob"])
        assert works(url, cookies["sue"])

        ended = json.loads(tl(heist, "sessions", "end", ids["sue"], "--json").stdout)
        assert [s["id"] for s in ended["ended"]] == [ids["sue"]]
        assert not works(url, cookies["sue"])
        assert works(url, cookies["bob"])
        tl(heist, "sessions", "end", "--all")
        assert not works(url, cookies["bob"])
        assert tl(heist, "sessions").stdout.strip() == "heist has no live web session"
