"""The page's "Notices" box in chromium, through the real `tablelog serve`: bob, on a 360-px
phone, links his Discord id and sets his address from his page; a bad id is refused in the
service's one sentence and nothing is stored; sue's page never shows bob's contact; the GM's
`tablelog player show bob` through the service shows what bob set."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tablelog.cli.access import sign_in_link
from tablelog.commands import database
from tablelog.commands.access import authenticate, grant
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.contacts import checked_discord
from tablelog.commands.table import execute
from tablelog.errors import InvalidInput
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import open_store
from tablelog.storage.notices import ContactRow, contact_of
from tests.e2e.browser import DESKTOP, PHONE, chromium
from tests.e2e.test_web_browser import check_accessibility, sign_in
from tests.support.server import running_service

BOB_ID, ADDRESS, HINT = "200000000000000002", "bob@example.org", "b\u2026@example.org"


def seated(db: Path) -> dict[str, str]:
    """Campaign heist: gina's GM token (a bearer, for the CLI) and link, bob's and sue's links."""
    database.upgrade(str(db))
    store = open_store(str(db))
    try:
        create_campaign(store, "heist", ruleset="improv", gm="gina")
        execute(store, "heist", c.CreateCharacter(player="bob", character="Kit"))
        execute(store, "heist", c.CreateCharacter(player="sue", character="Diana"))
        tokens = {w: grant(store, "heist", w, "player", link=True).token for w in ("bob", "sue")}
        gm = grant(store, "heist", "gina", "gm").token
        # The GM's browser is another device of the GM's: the bearer token keeps working.
        caller = authenticate(store, gm)
        link = grant(store, "heist", "gina", "gm", caller=caller, link=True).token
        return {**tokens, "gina": gm, "gina-link": link}
    finally:
        store.close()


def stored(db: Path) -> ContactRow | None:
    store = open_store(str(db))
    try:
        return contact_of(store, "heist", "bob")
    finally:
        store.close()


def test_bob_sets_his_discord_id_and_address_from_his_phone(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tokens = seated(db)
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        bob = sign_in(
            browser, url, sign_in_link(url, "heist", tokens["bob"]), PHONE, is_mobile=True
        )
        sue = sign_in(browser, url, sign_in_link(url, "heist", tokens["sue"]), DESKTOP)
        box, status = bob.locator("#notices"), bob.locator("#notices-status")
        assert "Get a Discord mention or a mail when the table waits on you." in box.inner_text()

        # A bad id: the service's one sentence under the field, nothing stored.
        bob.get_by_label("Your Discord user id").fill("12345")
        bob.get_by_role("button", name="Link this Discord id").click()
        error = bob.locator("#notices-discord-form .error")
        error.wait_for()
        with pytest.raises(InvalidInput) as refused:
            checked_discord("12345")
        assert error.inner_text() == str(refused.value)  # `code: sentence`, as every form says
        assert "\n" not in error.inner_text()
        assert bob.locator("#notices-own-discord").inner_text() == "not linked"
        assert stored(db) is None

        bob.get_by_label("Your Discord user id").fill(BOB_ID)
        bob.get_by_role("button", name="Link this Discord id").click()
        status.get_by_text("Discord id linked").wait_for()
        assert bob.locator("#notices-own-discord").inner_text() == BOB_ID
        bob.get_by_label("Your e-mail address").fill(ADDRESS)
        bob.get_by_role("button", name="Set this address").click()
        status.get_by_text("Address set").wait_for()
        assert bob.locator("#notices-own-email").inner_text() == HINT
        assert ADDRESS not in bob.content()  # a hint only, on the page kept in the browser
        assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        check_accessibility({"bob": bob})

        # sue's page, as it was and loaded again, never holds bob's contact.
        before = sue.content()
        sue.reload()
        for shown in (before, sue.content()):
            assert "example.org" not in shown
            assert BOB_ID not in shown
        assert sue.locator("#notices-own-discord").inner_text() == "not linked"

        # The GM's page lists bob's contact, a hint of the address only.
        gm = sign_in(browser, url, sign_in_link(url, "heist", tokens["gina-link"]), DESKTOP)
        row = gm.locator("#notices-seats tbody tr", has_text="bob").inner_text()
        assert BOB_ID in row
        assert HINT in row
        assert ADDRESS not in gm.content()
        check_accessibility({"gm": gm})

        said = subprocess.run(
            [sys.executable, "-m", "tablelog", "--server", url, "--access-token",
             tokens["gina"], "player", "show", "bob"],
            cwd=tmp_path, capture_output=True, text=True, timeout=30, check=True,
        ).stdout  # fmt: skip
        assert f"discord: {BOB_ID}" in said
        assert f"email: {ADDRESS}" in said
