"""The admin page (`/admin`): `tablelog serve` prints its one-time sign-in link, traded once
for an admin session; the page creates a campaign of every ruleset with its options as
generated fields, refuses what `tablelog campaign create` refuses in the same sentence
(nothing created), hands out the GM's link, and takes no write without its CSRF token and
this service's Origin. A campaign's session is never an admin session, nor the reverse.

Most run the service in this process (Litestar's test client); the printed link is used on a
real `tablelog serve`.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from tablelog.commands import access, database
from tablelog.commands.admin import new_admin_token
from tablelog.commands.admin_web import new_admin_link
from tablelog.commands.campaigns import create_campaign, list_campaigns, plan_campaign
from tablelog.commands.option_fields import option_group
from tablelog.errors import TablelogError
from tablelog.http.app import create_app
from tablelog.rules import registry
from tablelog.storage import EventStore, open_store
from tests.support.server import running_service

BASE = "http://testserver.local"
_CSRF = re.compile(r'<meta name="csrf-token" content="([0-9a-f]{64})">')
_GM_LINK = re.compile(r'id="gm-link" readonly value="([^"]+)"')
_ERROR = re.compile(r'<p class="error" id="create-error" role="alert">(.*?)</p>', re.S)
_PRINTED = re.compile(r"^admin page \(.*\): (\S+)$", re.M)


@dataclass
class Admin:
    client: TestClient[Any]
    store: EventStore
    csrf: str

    def post(self, path: str, fields: dict[str, str], **headers: str) -> Any:
        return self.client.post(
            path, data={"csrf": self.csrf, **fields}, headers={"Origin": BASE, **headers}
        )

    def create(self, name: str, ruleset: str, **options: str) -> Any:
        fields = {"name": name, "gm": "gina", "ruleset": ruleset, f"{ruleset}._shown": "1"}
        fields.update({f"{ruleset}.{k}": v for k, v in options.items()})
        return self.post("/admin/campaigns", fields)


def trade(client: Any, token: str) -> Any:
    return client.post("/admin/session", json={"token": token}, headers={"Origin": BASE})


@pytest.fixture
def admin(sqlite_target: str) -> Iterator[Admin]:
    database.upgrade(sqlite_target)
    store = open_store(sqlite_target)
    app = create_app(store)
    try:
        with TestClient(app, base_url=BASE) as client:
            assert trade(client, new_admin_link(store)).status_code == 201
            found = _CSRF.search(client.get("/admin").text)
            assert found is not None
            yield Admin(client, store, found.group(1))
    finally:
        store.close()


def error_of(answer: Any) -> str:
    found = _ERROR.search(answer.text)
    assert found is not None, answer.text[:2000]
    return html.unescape(found.group(1))


def refusal(name: str, ruleset: str, **options: str) -> str:
    """What `tablelog campaign create` prints for the same input (before any database)."""
    with pytest.raises(TablelogError) as refused:
        plan_campaign(name, ruleset=ruleset, gm="gina", options=options)
    return f"{refused.value.code}: {refused.value.message}"


def non_default(ruleset: str) -> tuple[str, str]:
    """An option of `ruleset` and a value other than its default, read from its options
    type as the page's fields are: a select's other choice, else a checkbox turned over,
    else a number one lower."""
    fields = option_group(ruleset, registry.get(ruleset).options_type).fields
    for field in fields:
        if field.kind == "select" and len(field.choices) > 1:
            return field.name, next(c for c in field.choices if c != field.default)
    for field in fields:
        if field.kind == "checkbox":
            return field.name, "false" if field.default == "true" else "true"
    number = next(f for f in fields if f.kind == "number")
    return number.name, str(int(number.default) - 1)


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_campaign_of_each_ruleset_with_an_option_changed(admin: Admin, ruleset: str) -> None:
    page = admin.client.get("/admin").text
    assert f'<option value="{ruleset}"' in page
    assert f'data-ruleset="{ruleset}"' in page  # its options, generated
    option, value = non_default(ruleset)
    # An unchecked box is not sent at all: that is how a form says false.
    made = admin.create("camp", ruleset, **({} if value == "false" else {option: value}))
    assert made.status_code == 201, made.text[:2000]
    link = _GM_LINK.search(made.text)
    assert link is not None
    assert html.unescape(link.group(1)).startswith(f"{BASE}/campaigns/camp/play#token=")
    recorded = json.loads(admin.store.read("camp")[0].payload)
    typed = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    assert recorded["options"][option] == typed
    assert recorded["gm"] == "gina"
    # The link signs the GM in to the campaign's page, once.
    token = html.unescape(link.group(1)).split("#token=", 1)[1]
    gm = admin.client.post(
        "/campaigns/camp/play/session", json={"token": token}, headers={"Origin": BASE}
    )
    assert gm.status_code == 201, gm.text
    assert gm.json()["role"] == "gm"


def test_the_campaign_list_shows_name_ruleset_events_and_activity(admin: Admin) -> None:
    create_campaign(admin.store, "heist", ruleset="improv")
    page = admin.client.get("/admin").text
    row = re.search(r'<tr data-campaign="heist">(.*?)</tr>', page, re.S)
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row.group(1))
    assert cells[:3] == ["heist", "improv", "1"]
    assert cells[3].endswith("UTC")


@pytest.mark.parametrize(
    ("name", "ruleset", "options"),
    [
        ("bad name!", "improv", {}),
        ("ok", "improv", {"joker_value": "200"}),
        ("ok", "night-terrors", {"hand_size": "x"}),
        ("ok", "no-such-rules", {}),
        ("Heist.", "improv", {}),  # too like heist
    ],
)
def test_a_refused_campaign_shows_the_clis_sentence_and_creates_nothing(
    admin: Admin, name: str, ruleset: str, options: dict[str, str]
) -> None:
    create_campaign(admin.store, "heist", ruleset="improv")
    answer = admin.create(name, ruleset, **options)
    assert answer.status_code in (409, 422)
    if name == "Heist.":
        with pytest.raises(TablelogError) as refused:
            create_campaign(admin.store, name, ruleset=ruleset, gm="gina")
        expected = f"{refused.value.code}: {refused.value.message}"
    else:
        expected = refusal(name, ruleset, **options)
    assert error_of(answer) == expected
    assert "Traceback" not in answer.text
    assert [c.campaign for c in list_campaigns(admin.store)] == ["heist"]
    assert _GM_LINK.search(answer.text) is None
    assert f'value="{html.escape(name)}"' in answer.text  # the form keeps what was typed


def test_an_option_of_every_campaign_is_taken_too(admin: Admin) -> None:
    made = admin.post(
        "/admin/campaigns",
        {"name": "pub", "ruleset": "beer-run", "core._shown": "1", "core.remind_hours": "12"},
    )
    assert made.status_code == 201
    assert b'"remind_hours":12.0' in admin.store.read("pub")[0].payload
    refused = admin.post(
        "/admin/campaigns",
        {
            "name": "pub2",
            "ruleset": "beer-run",
            "core._shown": "1",
            "core.rng_deadline_minutes": "5",
        },
    )
    assert error_of(refused) == refusal("pub2", "beer-run", rng_deadline_minutes="5")


def test_a_new_gm_link_for_an_existing_campaign(admin: Admin) -> None:
    create_campaign(admin.store, "heist", ruleset="improv", gm="gina")
    answer = admin.post("/admin/campaigns/heist/gm-link", {})
    assert answer.status_code == 201
    link = _GM_LINK.search(answer.text)
    assert link is not None
    token = html.unescape(link.group(1)).split("#token=", 1)[1]
    gm = admin.client.post(
        "/campaigns/heist/play/session", json={"token": token}, headers={"Origin": BASE}
    )
    assert gm.json() == {"player": "gina", "role": "gm", "traded": True}
    unknown = admin.post("/admin/campaigns/nowhere/gm-link", {})
    assert unknown.status_code == 404
    assert "nowhere" in error_of(unknown)


@pytest.mark.parametrize(
    ("csrf", "origin", "code"),
    [
        (None, BASE, "csrf"),
        ("0" * 64, BASE, "csrf"),
        ("ok", None, "bad-origin"),
        ("ok", "http://evil.example", "bad-origin"),
    ],
)
def test_a_write_without_the_csrf_token_or_from_another_origin_is_refused(
    admin: Admin, csrf: str | None, origin: str | None, code: str
) -> None:
    fields = {"name": "heist", "ruleset": "improv"}
    if csrf is not None:
        fields["csrf"] = admin.csrf if csrf == "ok" else csrf
    headers = {"Origin": origin} if origin is not None else {}
    for path in ("/admin/campaigns", "/admin/sign-out"):
        answer = admin.client.post(path, data=fields, headers=headers)
        assert answer.status_code == 403
        assert answer.json()["code"] == code
    assert list_campaigns(admin.store) == []
    assert "Create a campaign" in admin.client.get("/admin").text  # still signed in


def test_the_csrf_header_is_taken_as_the_field_is(admin: Admin) -> None:
    answer = admin.client.post(
        "/admin/campaigns",
        data={"name": "heist", "ruleset": "improv"},
        headers={"Origin": BASE, "X-CSRF-Token": admin.csrf},
    )
    assert answer.status_code == 201


def test_a_link_signs_in_once(sqlite_target: str) -> None:
    database.upgrade(sqlite_target)
    store = open_store(sqlite_target)
    try:
        link = new_admin_link(store)
        with TestClient(create_app(store), base_url=BASE) as client:
            assert trade(client, link).status_code == 201
            client.cookies.clear()
            again = trade(client, link)
            assert again.status_code == 401
            assert again.json()["code"] == "used-link"
            assert "Create a campaign" not in client.get("/admin").text
            # A newer link replaces one not yet used.
            first, second = new_admin_link(store), new_admin_link(store)
            assert trade(client, first).json()["code"] == "used-link"
            assert trade(client, second).status_code == 201
            # Another site cannot sign a browser in.
            third = new_admin_link(store)
            other = client.post(
                "/admin/session", json={"token": third}, headers={"Origin": "http://evil"}
            )
            assert other.status_code == 403
    finally:
        store.close()


def test_a_campaign_session_is_no_admin_session_and_the_reverse(admin: Admin) -> None:
    create_campaign(admin.store, "heist", ruleset="improv", gm="gina")
    link = access.grant(admin.store, "heist", "bob", "player", link=True).token
    admin_cookie = admin.client.cookies["tablelog_admin"]
    admin.client.cookies.clear()
    bob = admin.client.post(
        "/campaigns/heist/play/session", json={"token": link}, headers={"Origin": BASE}
    )
    session = bob.cookies["tablelog_session"]
    # Bob's session, in either cookie, opens no admin page and creates nothing.
    for name in ("tablelog_session", "tablelog_admin"):
        admin.client.cookies.clear()
        admin.client.cookies.set(name, session)
        assert "Create a campaign" not in admin.client.get("/admin").text
        denied = admin.client.post(
            "/admin/campaigns",
            data={"csrf": access.csrf_token(session), "name": "mine", "ruleset": "improv"},
            headers={"Origin": BASE},
        )
        assert denied.status_code == 401
    assert [c.campaign for c in list_campaigns(admin.store)] == ["heist"]
    # The admin's session opens no campaign, its page nor its reads.
    admin.client.cookies.clear()
    admin.client.cookies.set("tablelog_session", admin_cookie)
    assert admin.client.get("/campaigns/heist/state").status_code == 401
    assert "sign-in" in admin.client.get("/campaigns/heist/play").text
    # Nor is it a bearer token.
    bearer = {"Authorization": f"Bearer {admin_cookie}"}
    admin.client.cookies.clear()
    assert admin.client.get("/campaigns/heist/state", headers=bearer).status_code == 401
    made = admin.client.post("/campaigns", json={"name": "x", "ruleset": "improv"}, headers=bearer)
    assert made.status_code == 401


def test_signing_out_ends_the_admin_session(admin: Admin) -> None:
    cookie = admin.client.cookies["tablelog_admin"]
    out = admin.post("/admin/sign-out", {})
    assert out.status_code == 200
    assert "signed out" in out.text
    admin.client.cookies.set("tablelog_admin", cookie)  # a copy of the cookie kept
    assert "Create a campaign" not in admin.client.get("/admin").text
    assert admin.create("heist", "improv").status_code == 401


def test_the_page_is_strict(admin: Admin) -> None:
    answer = admin.client.get("/admin")
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "<script>" not in answer.text
    assert " on" + "click=" not in answer.text
    assert answer.headers["cache-control"] == "no-store"
    assert all(m == "post" for m in re.findall(r'<form method="(\w+)"', answer.text))
    assert answer.text.count("<form ") == len(re.findall(r'<form method="post"', answer.text))


def test_serve_prints_a_link_that_signs_in_once_and_leaves_the_admin_token(
    tmp_path: Path,
) -> None:
    with running_service("t.db", tmp_path) as url:
        printed = _PRINTED.findall(next(tmp_path.glob("serve-*.log")).read_text())
        assert len(printed) == 1
        assert printed[0].startswith(f"{url}/admin#token=")
        token = printed[0].split("#token=", 1)[1]
        with httpx.Client(base_url=url, timeout=10) as browser:
            first = browser.post("/admin/session", json={"token": token}, headers={"Origin": url})
            assert first.status_code == 201
            assert "Create a campaign" in browser.get("/admin").text
        with httpx.Client(base_url=url, timeout=10) as other:
            again = other.post("/admin/session", json={"token": token}, headers={"Origin": url})
            assert again.status_code == 401
            assert again.json() == {
                "code": "used-link",
                "message": "this admin sign-in link was already used or replaced; "
                "`tablelog admin-link` on the database prints a new one",
            }
        # The admin token the service printed still creates campaigns.
        from tests.support.server import admin as admin_headers

        made = httpx.post(
            f"{url}/campaigns",
            json={"name": "heist", "ruleset": "improv"},
            headers=admin_headers(url),
            timeout=10,
        )
        assert made.status_code == 201, made.text


def test_a_new_admin_token_leaves_the_admin_page_signed_in(admin: Admin) -> None:
    new_admin_token(admin.store)
    assert "Create a campaign" in admin.client.get("/admin").text
