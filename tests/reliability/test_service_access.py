"""Who holds access, against a real `tablelog serve` on loopback and the real CLI: the GM
cannot quietly hold a player's token (a re-issue revokes the old ones and is logged for
everyone); a revoked token's live feed ends; creating a campaign takes the service's admin
token (or `--open-signup`), is limited per address, and refuses look-alike names."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.transcript import ok, refused, run
from tests.support.server import admin, admin_token, running_service

FEED_S = 3.0  # how long a revoked feed may take to end: the service polls every 0.25 s


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def campaign(http: httpx.Client, name: str = "heist") -> str:
    made = http.post(
        "/campaigns", json={"name": name, "ruleset": "improv"}, headers=admin(str(http.base_url))
    )
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


def invite(http: httpx.Client, token: str, player: str, **body: str) -> dict[str, Any]:
    made = http.post(f"/campaigns/heist/players/{player}/tokens", json=body, headers=bearer(token))
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def log(http: httpx.Client, token: str) -> list[dict[str, Any]]:
    got = http.get("/campaigns/heist/log", headers=bearer(token))
    assert got.status_code == 200, got.text
    items: list[dict[str, Any]] = got.json()
    return items


def works(http: httpx.Client, token: str) -> bool:
    return http.get("/campaigns/heist/state", headers=bearer(token)).status_code == 200


# --- item 11: a re-issue revokes and is logged ---------------------------------------------


def test_the_gm_cannot_hold_a_second_working_token_of_a_player(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url) as http:
        gm = campaign(http)
        first = invite(http, gm, "bob")
        assert first["reissued"] is False
        bob = first["token"]
        # bob on a second device: his own token asks; the first still works, no event.
        before = len(log(http, bob))
        device = invite(http, bob, "bob")["token"]
        assert works(http, bob)
        assert works(http, device)
        assert len(log(http, bob)) == before
        # The GM asks for bob's access: a re-issue. Every earlier token of bob stops working,
        # and bob's own log (and audit) says so.
        again = invite(http, gm, "bob")
        assert (again["reissued"], again["revoked"]) == (True, 2)
        assert not works(http, bob)
        assert not works(http, device)
        assert works(http, again["token"])
        seen = log(http, again["token"])
        assert seen[-1]["seq"] == again["seq"]
        assert "the GM re-issued bob's access" in seen[-1]["text"]
        assert json.loads(seen[-1]["line"])["type"] == "access.reissued"
        audit = http.get("/campaigns/heist/audit", headers=bearer(again["token"])).json()
        assert [n["seq"] for n in audit["access"]] == [again["seq"]]
        assert f"re-issued bob's access at seq {again['seq']}" in audit["access"][0]["text"]
        # A player asks for nobody else's token.
        sue = invite(http, gm, "sue")["token"]
        refusal = http.post(
            "/campaigns/heist/players/bob/tokens", json={}, headers=bearer(sue)
        ).json()
        assert refusal["code"] == "gm-only"
    assert ok(run(tmp_path, "verify")).startswith("ok")


def test_the_cli_reissues_the_same_way_locally_and_through_the_service(tmp_path: Path) -> None:
    made = json.loads(ok(run(tmp_path, "campaign", "create", "heist", "-r", "improv", "--json")))
    bob = json.loads(ok(run(tmp_path, "invite", "bob", "--json")))
    assert bob["reissued"] is False
    with running_service(str(tmp_path / "tablelog.db"), tmp_path) as url:
        server = ("--server", url)
        # $ tablelog --server URL --access-token GM invite bob      (bob lost his token)
        out = ok(run(tmp_path, *server, "--access-token", made["token"], "invite", "bob"))
        assert "re-issued: 1 earlier token(s) revoked" in out
        line = refused(run(tmp_path, *server, "--access-token", bob["token"], "state"))
        assert line.startswith("revoked-token:")
    # The operator, on the database, re-issues too: the log says who.
    again = json.loads(ok(run(tmp_path, "invite", "bob", "--json")))
    assert (again["reissued"], again["revoked"]) == (True, 1)
    shown = ok(run(tmp_path, "log"))
    assert "the GM re-issued bob's access" in shown
    assert "the operator (on the database) re-issued bob's access" in shown
    audit = json.loads(ok(run(tmp_path, "audit", "--json")))
    assert [n["data"]["by"] for n in audit["access"]] == ["gm", "operator"]
    assert ok(run(tmp_path, "verify")).startswith("ok")


# --- item 12: a revoked token's feed ends -----------------------------------------------------


def test_a_revoked_tokens_live_feed_ends(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url) as http:
        gm = campaign(http)
        bob = invite(http, gm, "bob")["token"]
        lines: list[str] = []
        with http.stream(
            "GET", "/campaigns/heist/events", headers=bearer(bob), timeout=FEED_S + 10
        ) as feed:
            assert feed.status_code == 200
            stream = feed.iter_lines()
            for line in stream:  # the campaign's first two events, then on
                lines.append(line)
                if lines.count("event: event") == 2 and line == "":
                    break
            # Revoked by another process, on the database itself.
            ok(run(tmp_path, "revoke", "bob"))
            revoked = time.monotonic()
            lines.extend(stream)  # ends when the service closes the stream
            ended = time.monotonic() - revoked
        assert ended < FEED_S, ended
        assert "event: revoked" in lines
        assert "data: the access token was revoked (or its web session ended)" in lines


# --- item 16: creating campaigns ------------------------------------------------------------


def test_creating_a_campaign_takes_the_admin_token(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    with running_service(str(db), tmp_path) as url, httpx.Client(base_url=url) as http:
        body = {"name": "heist", "ruleset": "improv"}
        nobody = http.post("/campaigns", json=body)
        assert (nobody.status_code, nobody.json()["code"]) == (401, "no-token")
        assert "admin token" in nobody.json()["message"]
        wrong = http.post("/campaigns", json=body, headers=bearer("x" * 43))
        assert (wrong.status_code, wrong.json()["code"]) == (401, "unknown-token")
        gm = campaign(http)
        other = http.post("/campaigns", json={**body, "name": "vault"}, headers=bearer(gm))
        assert (other.status_code, other.json()["code"]) == (403, "not-admin")
        opens = http.get("/campaigns/heist/state", headers=admin(url))
        assert (opens.status_code, opens.json()["code"]) == (403, "admin-token")
        # Look-alikes of `heist` are one name.
        for name in ("heist.", "Heist-", "h-e-i-s-t", "heist_"):
            alike = http.post("/campaigns", json={**body, "name": name}, headers=admin(url))
            assert (alike.status_code, alike.json()["code"]) == (409, "similar-name"), name
            assert "'heist'" in alike.json()["message"]
        # The CLI through the service, with the admin token.
        first = admin_token(url)
        made = ok(
            run(tmp_path, "--server", url, "--access-token", first, "campaign", "create", "vault",
                "-r", "improv", "--json")
        )  # fmt: skip
        assert json.loads(made)["campaign"] == "vault"
        # `tablelog admin-token` on the database replaces it.
        fresh = json.loads(ok(run(tmp_path, "admin-token", "--json")))["token"]
        old = http.post("/campaigns", json={**body, "name": "bank"}, headers=bearer(first))
        assert old.status_code == 401
        new = http.post("/campaigns", json={**body, "name": "bank"}, headers=bearer(fresh))
        assert new.status_code == 201, new.text
    line = refused(run(tmp_path, "campaign", "create", "vault.", "-r", "improv"))
    assert line.startswith("similar-name: campaign name 'vault.' is too like the existing")
    # A later start prints no token: the one already made stands.
    with (
        running_service(str(db), tmp_path) as url,
        pytest.raises(RuntimeError, match="printed no admin token"),
    ):
        admin_token(url)


@pytest.mark.parametrize("signup", [False, True], ids=["admin", "open-signup"])
def test_campaigns_are_limited_per_address_and_hour(tmp_path: Path, signup: bool) -> None:
    db = tmp_path / "tablelog.db"
    options = ("--campaign-limit", "2", *(("--open-signup",) if signup else ()))
    with running_service(str(db), tmp_path, *options) as url, httpx.Client(base_url=url) as http:
        headers = {} if signup else admin(url)
        for name in ("one", "two"):
            made = http.post(
                "/campaigns", json={"name": name, "ruleset": "improv"}, headers=headers
            )
            assert made.status_code == 201, made.text
        third = http.post(
            "/campaigns", json={"name": "three", "ruleset": "improv"}, headers=headers
        )
        assert (third.status_code, third.json()["code"]) == (429, "too-many-campaigns")
        assert 1 <= int(third.headers["Retry-After"]) <= 3600
        # Another address has its own allowance.
        elsewhere = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=url, transport=elsewhere) as other:
            made = other.post(
                "/campaigns", json={"name": "three", "ruleset": "improv"}, headers=headers
            )
            assert made.status_code == 201, made.text
    names = [c["campaign"] for c in json.loads(ok(run(tmp_path, "campaign", "list", "--json")))]
    assert names == ["one", "three", "two"]
