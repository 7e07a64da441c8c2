"""The page's "Notices" box, through a real service: a signed-in player (and the GM) sees their
own Discord id and only a hint of their own address, and sets or clears either through the
contact routes with the page's session and CSRF token; a refusal is the service's one sentence
and stores nothing; another player's page, the table fragment and the live feed never hold
the address; the GM's box lists every seat's contact as hints; an observer gets no box."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import msgspec
import pytest

from tablelog.storage import open_store
from tablelog.storage.notices import ContactRow, contact_of, save_contact
from tests.e2e.browser import head_seq
from tests.integration.test_web_sign_in import link_token, signed_in, tl
from tests.support.server import running_service

BOB_ID, ADDRESS, HINT = "200000000000000002", "bob.smith@example.org", "b\u2026@example.org"


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """Campaign heist: gina is the GM, bob plays Kit, sue plays Diana."""
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "bob", "Kit")
    tl(tmp_path, "improv", "character", "sue", "Diana")
    return tmp_path


def feed(client: httpx.Client, seq: int) -> str:
    """The campaign's live feed as this session receives it, up to seq `seq`."""
    seen = ""
    with client.stream("GET", "/campaigns/heist/events", params={"after": 0}) as answer:
        for text in answer.iter_text():
            seen += text
            if re.search(rf"^id: {seq}\r?$", seen, re.MULTILINE):
                break
    return seen


def stored(cwd: Path, player: str) -> ContactRow | None:
    store = open_store(str(cwd / "t.db"))
    try:
        return contact_of(store, "heist", player)
    finally:
        store.close()


def test_a_player_sets_their_own_contact_from_the_page_and_nobody_else_sees_it(
    table: Path,
) -> None:
    links = {who: link_token(table, who) for who in ("bob", "sue")}
    links["gina"] = link_token(table, "gina", "--role", "gm")
    links["olga"] = link_token(table, "olga", "--role", "observer")
    with running_service("t.db", table) as url:
        (bob, csrf), (sue, _) = signed_in(url, links["bob"]), signed_in(url, links["sue"])
        gm, _ = signed_in(url, links["gina"])
        olga, _ = signed_in(url, links["olga"])
        write = {"Origin": url, "X-CSRF-Token": csrf}
        own = "/campaigns/heist/players/bob"

        page = bob.get("/campaigns/heist/play").text
        assert 'id="notices"' in page
        assert 'data-seat="bob"' in page
        assert "Get a Discord mention or a mail when the table waits on you." in page
        assert "not linked" in page
        assert "no address" in page
        assert 'id="notices"' not in olga.get("/campaigns/heist/play").text
        assert olga.get("/campaigns/heist/play/notices").text.strip() == ""

        # The page's mechanism: the cookie alone is not enough to write.
        assert bob.post(f"{own}/discord", json={"user_id": BOB_ID}).json()["code"] == "bad-origin"
        no_csrf = bob.post(f"{own}/discord", json={"user_id": BOB_ID}, headers={"Origin": url})
        assert no_csrf.json()["code"] == "csrf"
        # A bad id: one sentence, nothing stored.
        bad = bob.post(f"{own}/discord", json={"user_id": "bob#1234"}, headers=write)
        assert bad.status_code == 422
        assert bad.json()["code"] == "bad-discord-id"
        assert "\n" not in bad.json()["message"]
        assert stored(table, "bob") is None
        # Not another's.
        theirs = bob.post("/campaigns/heist/players/sue/email", json={"address": ADDRESS},
                          headers=write)  # fmt: skip
        assert (theirs.status_code, theirs.json()["code"]) == (403, "not-yours")
        assert stored(table, "sue") is None

        for channel, body in (("discord", {"user_id": BOB_ID}), ("email", {"address": ADDRESS})):
            assert bob.post(f"{own}/{channel}", json=body, headers=write).status_code == 200
        row = stored(table, "bob")
        assert row is not None
        assert (row.discord_id, row.email_hint) == (BOB_ID, HINT)

        box = bob.get("/campaigns/heist/play/notices")
        assert box.headers["cache-control"] == "no-store"
        for shown in (box.text, bob.get("/campaigns/heist/play").text):
            assert BOB_ID in shown
            assert HINT in shown
            assert ADDRESS not in shown  # a hint only, even to bob
        # Nobody else's page, no table fragment, no feed holds it.
        for client in (sue, olga, bob, gm):
            paths = ["/campaigns/heist/play/table"]
            if client in (sue, olga):
                paths += ["/campaigns/heist/play", "/campaigns/heist/play/notices"]
            for path in paths:
                text = client.get(path).text
                assert "example.org" not in text, path
                assert BOB_ID not in text, path
            assert "example.org" not in feed(client, head_seq(table / "t.db", "heist"))
        assert "not linked" in sue.get("/campaigns/heist/play/notices").text

        # The GM's box lists every seat's contact, hints only.
        gms = gm.get("/campaigns/heist/play").text
        assert 'data-seat="gm"' in gms
        assert 'id="notices-seats"' in gms
        seats = gms.split('id="notices-seats"')[1]
        assert "bob" in seats
        assert BOB_ID in seats
        assert HINT in seats
        assert ADDRESS not in gms

        # Unsubscribed by the mail's link: the box says so; setting the address again resumes.
        store = open_store(str(table / "t.db"))
        try:
            save_contact(store, msgspec.structs.replace(row, unsubscribed_at=1_700_000_000_000_000))
        finally:
            store.close()
        assert "you stopped these mails on" in bob.get("/campaigns/heist/play/notices").text
        bob.post(f"{own}/email", json={"address": ADDRESS}, headers=write)
        assert "stopped" not in bob.get("/campaigns/heist/play/notices").text

        # A null clears.
        bob.post(f"{own}/discord", json={"user_id": None}, headers=write)
        bob.post(f"{own}/email", json={"address": None}, headers=write)
        cleared = bob.get("/campaigns/heist/play/notices").text
        assert "not linked" in cleared
        assert "no address" in cleared
        assert stored(table, "bob") is None
        for client in (bob, sue, gm, olga):
            client.close()
    assert "example.org" not in tl(table, "log", "--json").stdout
