"""The "Notices" box's Discord part in chromium, through the real `tablelog serve`: bob, on a
360-px phone, reads that the GM binds a channel first, then (once one is bound) where the
campaign is played; his button gets a `/tl link` code shown on his page, and that code, typed
in Discord (`discord_links.redeem`, on the same database), links a Discord user to bob's seat
once. Re-issued, bob's page gets the service's refusal in its sentence. An observer's page
has no such part."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tablelog.cli.access import sign_in_link
from tablelog.commands import discord_links
from tablelog.commands.access import grant
from tablelog.errors import InvalidInput
from tablelog.storage import EventStore, open_store
from tablelog.storage.notices import contact_of
from tests.e2e.browser import DESKTOP, PHONE, chromium
from tests.e2e.phone_fit import boxes_fit
from tests.e2e.test_web_browser import check_accessibility, sign_in
from tests.e2e.test_web_page_notices_browser import seated
from tests.support.server import running_service

CHANNEL, USER = "300000000000000003", "400000000000000001"
BUTTON = "Get a Discord link code"


@contextmanager
def on(db: Path) -> Iterator[EventStore]:
    """The service's database, in this process (what `/tl link` does in Discord's handler)."""
    store = open_store(str(db))
    try:
        yield store
    finally:
        store.close()


def test_bob_gets_a_discord_link_code_on_his_phone_and_it_links_his_seat(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    tokens = seated(db)
    with on(db) as store:
        olga = grant(store, "heist", "olga", "observer", link=True).token
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        bob = sign_in(
            browser,
            url,
            sign_in_link(url, "heist", tokens["bob"]),
            PHONE,
            is_mobile=True,
            permissions=["clipboard-read", "clipboard-write"],
        )
        where = bob.locator("#discord-code-where")
        assert "tablelog discord bind CHANNEL_ID" in where.inner_text()

        # Once the GM binds a channel, the sentence says where the campaign is played.
        with on(db) as store:
            discord_links.bind(store, "heist", CHANNEL)
        bob.reload()
        bob.wait_for_selector("#page")
        assert "CHANNEL_ID" not in where.inner_text()
        assert "in the campaign's Discord channel" in where.inner_text()

        make = bob.get_by_role("button", name=BUTTON)
        make.focus()
        bob.keyboard.press("Enter")  # the keyboard is enough
        command = bob.locator("#discord-code-said code")
        command.wait_for()
        shown = command.inner_text()
        assert re.fullmatch(r"/tl link [A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}", shown), shown
        assert bob.locator("#discord-code-said").get_attribute("aria-live") == "polite"
        assert bob.evaluate("document.activeElement.id") == "discord-code-make"
        expires = bob.locator("#discord-code-said time").get_attribute("datetime")
        assert expires is not None
        left = datetime.fromisoformat(expires) - datetime.now(UTC)
        assert timedelta(hours=47) < left <= timedelta(hours=discord_links.CODE_HOURS)

        # Copied as typed in Discord, and selected whole for a copy by hand.
        bob.get_by_role("button", name="Copy the command").click()
        bob.locator("#discord-code-status").get_by_text("Command copied").wait_for()
        assert bob.evaluate("navigator.clipboard.readText()") == shown
        assert bob.evaluate("String(window.getSelection())") == shown
        assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        boxes_fit(bob)
        check_accessibility({"bob": bob})

        # Typed in Discord: it links that user to bob's seat, once.
        code = shown.removeprefix("/tl link ")
        with on(db) as store:
            linked = discord_links.redeem(store, code, USER)
            assert linked.player == "bob"
            assert linked.campaign == "heist"
            assert discord_links.caller_of(store, "heist", USER).player == "bob"
            row = contact_of(store, "heist", "bob")
            assert row is not None
            assert row.discord_id == USER
            with pytest.raises(InvalidInput):
                discord_links.redeem(store, code, USER)
        bob.reload()
        bob.wait_for_selector("#page")
        assert bob.locator("#notices-own-discord").inner_text() == USER

        # bob's seat re-issued: his page is signed out, and the button says why in the
        # service's sentence (the focus on it), no code shown.
        with on(db) as store:
            grant(store, "heist", "bob", "player", link=True)
        bob.get_by_role("button", name=BUTTON).click()
        error = bob.locator("#discord-code-error")
        error.wait_for()
        assert error.inner_text().startswith("revoked-token: ")
        assert bob.evaluate("document.activeElement.id") == "discord-code-error"
        assert bob.locator("#discord-code-said").inner_text() == ""

        # An observer has no Notices box, so no Discord part either.
        watcher = sign_in(browser, url, sign_in_link(url, "heist", olga), DESKTOP)
        assert watcher.get_by_role("button", name=BUTTON).count() == 0
        assert watcher.locator("#discord-code").count() == 0
