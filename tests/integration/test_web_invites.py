"""Invites and devices from the page, in this process (Litestar's test client) on both
backends: the GM makes a one-time sign-in link (with its QR code) for a player or an
observer; a new link for a seat someone holds is a re-issue, refused until the GM confirms
it (`seat-held`, with the question); anyone adds a device of their own seat and nothing else
ends; a page signed out says why (a re-issue, another of its devices, the GM); a link the
operator makes for the GM adds a device unless `replace`; the GM's webhooks through the
page's session."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from tablelog.commands import access, database
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.deliver import Policy
from tablelog.http.app import create_app
from tablelog.http.qr import qr_svg
from tablelog.storage import EventStore, open_store
from tests.integration.test_web_sign_in import tl

BASE = "http://testserver.local"
_CSRF = re.compile(r'<meta name="csrf-token" content="([0-9a-f]{64})">')


@dataclass
class Browser:
    session: str
    csrf: str


@dataclass
class Service:
    client: TestClient[Any]
    store: EventStore

    def trade(self, link: str) -> Any:
        token = link.split("#token=", 1)[1]
        self.client.cookies.clear()
        return self.client.post(
            "/campaigns/heist/play/session", json={"token": token}, headers={"Origin": BASE}
        )

    def sign_in(self, link: str) -> Browser:
        """A browser signed in with `link` (a whole sign-in link)."""
        answer = self.trade(link)
        assert answer.status_code == 201, answer.text
        session = str(answer.cookies["tablelog_session"])
        page = self.get("/campaigns/heist/play", Browser(session, ""))
        found = _CSRF.search(page.text)
        assert found is not None, page.text
        return Browser(session, found.group(1))

    def operator_link(self, player: str, role: str = "player", **more: Any) -> str:
        given = access.grant(self.store, "heist", player, role, link=True, **more)
        return access.sign_in_link(BASE, "heist", given.token)

    def get(self, path: str, who: Browser) -> Any:
        self.client.cookies.clear()
        self.client.cookies.set("tablelog_session", who.session)
        return self.client.get(path)

    def send(self, method: str, path: str, who: Browser, body: Any = None) -> Any:
        self.client.cookies.clear()
        self.client.cookies.set("tablelog_session", who.session)
        headers = {"Origin": BASE, "X-CSRF-Token": who.csrf}
        return self.client.request(method, path, json=body, headers=headers)

    def invite(self, who: Browser, body: dict[str, Any]) -> Any:
        return self.send("POST", "/campaigns/heist/play/invites", who, body)

    def works(self, who: Browser) -> bool:
        answer = self.get("/campaigns/heist/play/table", who)
        assert answer.status_code in (200, 401), answer.text
        return bool(answer.status_code == 200)


@pytest.fixture
def service(target: str) -> Iterator[Service]:
    database.upgrade(target)
    store = open_store(target)
    create_campaign(store, "heist", ruleset="improv", gm="gina")
    app = create_app(store, webhook_policy=Policy(poll=3600))
    try:
        with TestClient(app, base_url=BASE) as client:
            yield Service(client, store)
    finally:
        store.close()


@pytest.fixture
def gm(service: Service) -> Browser:
    return service.sign_in(service.operator_link("gina", "gm"))


def test_the_gm_invites_a_player_with_a_link_and_its_qr_code(service: Service, gm: Browser) -> None:
    made = service.invite(gm, {"player": "bo"})
    assert made.status_code == 201, made.text
    answer = made.json()
    assert answer["said"] == "bo's sign-in link as player (it works once):"
    assert answer["link"].startswith(f"{BASE}/campaigns/heist/play#token=")
    assert (answer["player"], answer["role"], answer["reissued"], answer["device"]) == (
        "bo",
        "player",
        False,
        False,
    )
    # The QR code is the link's, as segno draws it; inline SVG without a style attribute or
    # a script (the page's Content-Security-Policy), named for a screen reader.
    assert answer["qr"] == qr_svg(answer["link"], "QR code of bo's sign-in link")
    assert answer["qr"].startswith('<svg role="img" aria-label="QR code of bo')
    assert "style" not in answer["qr"]
    assert "script" not in answer["qr"]
    bo = service.sign_in(answer["link"])
    assert "You are <strong>bo</strong> (player)" in service.get("/campaigns/heist/play", bo).text
    # An observer too.
    watcher = service.invite(gm, {"player": "olive", "role": "observer"}).json()
    service.sign_in(watcher["link"])
    seats = service.get("/campaigns/heist/play/seats", gm)
    assert seats.status_code == 200
    rows = re.findall(
        r'<tr data-seat="([^"]+)"><th scope="row">[^<]+</th><td>(\w+)</td><td>(\w+)', seats.text
    )
    assert rows == [("gina", "GM", "yes"), ("bo", "player", "yes"), ("olive", "observer", "yes")]


def test_only_the_gm_invites_others_and_a_write_needs_the_csrf_token(
    service: Service, gm: Browser
) -> None:
    bo = service.sign_in(service.invite(gm, {"player": "bo"}).json()["link"])
    refused = service.invite(bo, {"player": "sue"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "gm-only"
    assert service.get("/campaigns/heist/play/seats", bo).json()["code"] == "gm-only"
    no_csrf = service.invite(Browser(gm.session, "0" * 64), {"player": "sue"})
    assert no_csrf.json()["code"] == "csrf"
    assert 'data-seat="sue"' not in service.get("/campaigns/heist/play/seats", gm).text
    # A player's page offers a device of its own, and no invite form or webhooks.
    page = service.get("/campaigns/heist/play", bo).text
    assert 'id="device-link"' in page
    assert 'id="invite-form"' not in page
    assert 'id="webhooks"' not in page
    assert 'id="invite-form"' in service.get("/campaigns/heist/play", gm).text


def test_a_re_issue_asks_first_and_the_signed_out_page_says_why(
    service: Service, gm: Browser
) -> None:
    bo = service.sign_in(service.invite(gm, {"player": "bo"}).json()["link"])
    asked = service.invite(gm, {"player": "bo"})
    assert asked.status_code == 409
    assert asked.json() == {
        "code": "seat-held",
        "message": "bo already has a seat; a new link signs out bo's other devices. Go on?",
    }
    assert service.works(bo)  # nothing happened
    again = service.invite(gm, {"player": "bo", "confirmed": True})
    assert again.status_code == 201, again.text
    done = again.json()
    assert (done["reissued"], done["revoked"]) == (True, 1)
    seq = done["seq"]
    assert done["said"] == (
        f"bo's access re-issued: 1 earlier token(s) and session(s) of bo stopped working, and "
        f"the log says so at seq {seq}. bo's new sign-in link (it works once):"
    )
    refused = service.get("/campaigns/heist/play/table", bo)
    assert refused.status_code == 401
    why = (
        f"the GM gave bo's seat a new sign-in link or token at seq {seq}, which signed this "
        "browser out; ask the GM for a new sign-in link"
    )
    assert refused.json() == {"code": "revoked-token", "message": why}
    prompt = service.get("/campaigns/heist/play", bo).text
    assert 'id="sign-in"' in prompt
    assert f'<p id="signed-out-why" class="error">Signed out: {why}.</p>' in prompt.replace(
        "&#39;", "'"
    )
    # The new link works; the used one says it was used.
    service.sign_in(done["link"])
    used = service.trade(done["link"])
    assert used.status_code == 401
    assert used.json()["message"] == (
        "this sign-in link was already used (a link works once); ask the GM for a new one"
    )


def test_a_device_of_ones_own_ends_nothing_and_ending_one_says_so_there(
    service: Service, gm: Browser
) -> None:
    phone = service.sign_in(service.invite(gm, {"player": "bo"}).json()["link"])
    made = service.invite(phone, {"player": "bo", "role": "player"})
    assert made.status_code == 201, made.text
    answer = made.json()
    assert (answer["device"], answer["reissued"]) == (True, False)
    assert answer["said"] == (
        "A sign-in link for another device of bo (it works once); your other devices stay "
        "signed in."
    )
    laptop = service.sign_in(answer["link"])
    assert service.works(phone)
    assert service.works(laptop)
    # Not another role, though.
    assert service.invite(phone, {"player": "bo", "role": "observer"}).json()["code"] == "bad-role"
    # The GM and an observer add devices of their own the same way.
    gm_device = service.invite(gm, {"player": "gina", "role": "gm"}).json()
    assert gm_device["device"] is True
    assert service.works(service.sign_in(gm_device["link"]))
    assert service.works(gm)
    olive = service.sign_in(service.operator_link("olive", "observer"))
    olive_device = service.invite(olive, {"player": "olive", "role": "observer"}).json()
    assert olive_device["device"] is True
    # bo ends the laptop's session from the phone: the laptop is told so.
    listed = service.get("/campaigns/heist/web-sessions", phone).json()
    other = next(s["id"] for s in listed if not s["current"])
    assert (
        service.send("DELETE", f"/campaigns/heist/web-sessions/{other}", phone).status_code == 200
    )
    assert service.get("/campaigns/heist/play/table", laptop).json()["message"] == (
        "this browser was signed out from another of bo's devices, which ended this browser's "
        "session; open a sign-in link to come back"
    )
    assert service.works(phone)
    # The GM ends the phone's: said so too.
    mine = next(s["id"] for s in service.get("/campaigns/heist/web-sessions", phone).json())
    assert service.send("DELETE", f"/campaigns/heist/web-sessions/{mine}", gm).status_code == 200
    assert service.get("/campaigns/heist/play/table", phone).json()["message"] == (
        "the GM ended this session, which signed this browser out; ask the GM for a new "
        "sign-in link"
    )


def test_a_revoke_by_the_gm_says_so_on_the_page_and_to_a_bearer_token(
    service: Service, gm: Browser
) -> None:
    bo = service.sign_in(service.invite(gm, {"player": "bo"}).json()["link"])
    token = access.grant(service.store, "heist", "bo", caller=_caller(service, "bo")).token
    revoked = service.send("DELETE", "/campaigns/heist/players/bo/tokens", gm)
    assert revoked.json() == {"revoked": 2}
    seq = service.store.head("heist").seq  # type: ignore[union-attr]
    assert service.get("/campaigns/heist/play/table", bo).json()["message"] == (
        f"the GM revoked bo's access at seq {seq}, which signed this browser out; ask the GM "
        "for a new sign-in link"
    )
    service.client.cookies.clear()
    bearer = service.client.get("/me", headers={"Authorization": f"Bearer {token}"})
    assert bearer.status_code == 401
    assert bearer.json()["message"] == (
        f"the access token was revoked: the GM revoked bo's access at seq {seq}"
    )


def _caller(service: Service, player: str) -> access.Caller:
    """A caller of `player`'s own seat (as a signed-in token would be)."""
    return access.Caller(campaign="heist", player=player, role="player", digest="x")


def test_a_link_the_operator_makes_for_the_gm_adds_a_device_unless_replace(
    service: Service, gm: Browser
) -> None:
    cli = access.grant(service.store, "heist", "gina", "gm").token  # a re-issue: a token
    assert not service.works(gm)  # a GM bearer token from the operator still replaces
    web = service.sign_in(service.operator_link("gina", "gm"))
    service.client.cookies.clear()
    assert service.client.get("/me", headers={"Authorization": f"Bearer {cli}"}).status_code == 200
    laptop = service.sign_in(service.operator_link("gina", "gm"))
    assert service.works(web)
    assert service.works(laptop)
    service.client.cookies.clear()
    assert service.client.get("/me", headers={"Authorization": f"Bearer {cli}"}).status_code == 200
    # --replace: every earlier GM token and session stops, and the log says so.
    given = access.grant(service.store, "heist", "gina", "gm", link=True, replace=True)
    assert given.reissued
    assert given.revoked == 3
    assert service.get("/campaigns/heist/play/table", web).json()["message"] == (
        f"the operator (on the database) gave gina's seat a new sign-in link or token at seq "
        f"{given.seq}, which signed this browser out; ask the GM for a new sign-in link"
    )


def test_the_gm_manages_webhooks_from_the_page(service: Service, gm: Browser) -> None:
    hooks = "/campaigns/heist/webhooks"
    assert service.get(hooks, gm).json() == {"webhooks": []}
    added = service.send(
        "POST", hooks, gm, {"url": "http://127.0.0.1:9/hook", "format": "json", "on": "close,turn"}
    )
    assert added.status_code == 201, added.text
    hook = added.json()
    assert hook["secret"]
    assert hook["on"] == ["close", "turn"]
    listed = service.get(hooks, gm).json()["webhooks"]
    assert [(h["id"], h["format"], h["on"]) for h in listed] == [
        (hook["id"], "json", ["close", "turn"])
    ]
    assert "secret" not in listed[0]
    removed = service.send("DELETE", f"{hooks}/{hook['id']}", gm)
    assert removed.json() == {"removed": hook["id"]}
    assert service.get(hooks, gm).json() == {"webhooks": []}


def test_the_cli_gm_link_adds_a_device_unless_replace(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "invite", "gina", "--role", "gm", "--json")  # the GM's CLI token
    added = json.loads(tl(tmp_path, "invite", "gina", "--role", "gm", "--link", "--json").stdout)
    assert (added["reissued"], added["revoked"]) == (False, 0)
    again = tl(tmp_path, "invite", "gina", "--role", "gm", "--link", "--replace", "--json")
    replaced = json.loads(again.stdout)
    assert (replaced["reissued"], replaced["revoked"]) == (True, 2)  # the token, the first link
    help_text = tl(tmp_path, "invite", "--help").stdout
    assert "--replace" in help_text
