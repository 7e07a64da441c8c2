"""The GM's Discord link codes in chromium, through the real `tablelog serve`: gina, on a
360-px phone, asks the seats list for bob's code with the keyboard; the page shows
`/tl link CODE` with its expiry in a polite live region and copies it, and that code, typed in
Discord (`discord_links.redeem`, on the same database), links bob's seat. A link just made
for a new player offers "Also a Discord link code" for that name (an observer's does not). A
refusal shows the service's sentence, focused. bob's own page has no per-seat buttons."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tablelog.cli.access import sign_in_link
from tablelog.commands import discord_links
from tablelog.commands.access import grant
from tests.e2e.browser import DESKTOP, PHONE, chromium
from tests.e2e.phone_fit import boxes_fit
from tests.e2e.test_web_browser import check_accessibility, sign_in
from tests.e2e.test_web_discord_code_browser import on
from tests.e2e.test_web_page_notices_browser import seated
from tests.support.server import running_service

USER, OTHER = "400000000000000002", "400000000000000003"
ALSO = "Also a Discord link code"
COMMAND = r"/tl link [A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}"


def shown_code(page: Any, box: str) -> str:
    """The `/tl link CODE` a Discord box shows, once it expires in about CODE_HOURS."""
    command = page.locator(f"#{box}-said code")
    command.wait_for()
    shown = str(command.inner_text())
    assert re.fullmatch(COMMAND, shown), shown
    assert page.locator(f"#{box}-said").get_attribute("aria-live") == "polite"
    expires = page.locator(f"#{box}-said time").get_attribute("datetime")
    assert expires is not None
    left = datetime.fromisoformat(expires) - datetime.now(UTC)
    assert timedelta(hours=discord_links.CODE_HOURS - 1) < left
    assert left <= timedelta(hours=discord_links.CODE_HOURS)
    return shown


def test_the_gm_gives_bob_a_discord_code_from_the_seats_list_on_a_phone(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tokens = seated(db)
    with on(db) as store:
        grant(store, "heist", "olga", "observer", link=True)
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        gm = sign_in(
            browser,
            url,
            sign_in_link(url, "heist", tokens["gina-link"]),
            PHONE,
            is_mobile=True,
            permissions=["clipboard-read", "clipboard-write"],
        )
        gm.wait_for_selector("#seat-list tr[data-seat='bob']")
        # A player's seat and the GM's own have a Discord code; an observer's has none.
        for seat in ("bob", "sue", "gina"):
            assert gm.get_by_role("button", name=f"Discord code for {seat}").count() == 1
        assert gm.locator("#seat-list tr[data-seat='olga'] button[data-discord]").count() == 0

        # The keyboard is enough, and the focus stays on the button.
        gm.get_by_role("button", name="Discord code for bob").focus()
        gm.keyboard.press("Enter")
        shown = shown_code(gm, "seat-discord")
        assert "bob" in gm.locator("#seat-discord-said").inner_text()
        assert gm.evaluate("document.activeElement.dataset.discord") == "bob"
        # The seats read again (the GM came back to the tab): the focus stays on bob's button.
        bobs = "#seat-list button[data-discord=bob]"
        gm.evaluate(f"document.querySelector('{bobs}').dataset.old = 'yes'")
        gm.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        gm.locator(f"{bobs}:not([data-old])").wait_for()
        assert gm.evaluate("document.activeElement.dataset.discord") == "bob"
        assert shown_code(gm, "seat-discord") == shown  # outside the list: still shown

        # Copied as typed in Discord, and selected whole for a copy by hand.
        gm.get_by_role("button", name="Copy bob's command").click()
        gm.locator("#seat-discord-status").get_by_text("Command copied").wait_for()
        assert gm.evaluate("navigator.clipboard.readText()") == shown
        assert gm.evaluate("String(window.getSelection())") == shown
        assert gm.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        boxes_fit(gm)
        check_accessibility({"gm": gm})

        # Typed in Discord: it links that user to bob's seat.
        with on(db) as store:
            linked = discord_links.redeem(store, shown.removeprefix("/tl link "), USER)
            assert linked.player == "bob"
            assert linked.campaign == "heist"
            assert discord_links.caller_of(store, "heist", USER).player == "bob"

        # A link just made for a new player: "Also a Discord link code" for that name.
        also = gm.get_by_role("button", name=ALSO)
        assert also.count() == 0  # hidden until a link is shown
        gm.locator("#invite-name").fill("dana")
        gm.locator("#invite-form button[type=submit]").click()
        gm.locator("#invite-out").wait_for(state="visible")
        also.wait_for()
        also.focus()
        gm.keyboard.press("Enter")
        dana = shown_code(gm, "invite-discord-out")
        assert dana != shown
        assert "dana" in gm.locator("#invite-discord-out-said").inner_text()
        assert gm.evaluate("document.activeElement.id") == "invite-discord"
        assert gm.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        boxes_fit(gm)
        check_accessibility({"gm after an invite": gm})
        with on(db) as store:
            assert discord_links.redeem(store, dana.removeprefix("/tl link "), OTHER).player == (
                "dana"
            )

        # An observer's link offers none, and the earlier name's code is gone.
        gm.locator("#invite-name").fill("omar")
        gm.locator("#invite-role").select_option("observer")
        gm.locator("#invite-form button[type=submit]").click()
        gm.wait_for_selector("#invite-said:has-text('omar')")
        assert also.count() == 0
        assert gm.locator("#invite-discord-out-said").inner_text() == ""

        # bob's page: his own device link, and no seats list, no per-seat Discord buttons.
        bob = sign_in(browser, url, sign_in_link(url, "heist", tokens["bob"]), DESKTOP)
        bob.locator("#device-link").click()
        bob.locator("#invite-out").wait_for(state="visible")
        assert bob.locator("#seat-list").count() == 0
        assert bob.locator("button[data-discord]").count() == 0
        assert bob.get_by_role("button", name=re.compile("^Discord code for")).count() == 0
        assert bob.locator("#invite-discord, #seat-discord, #invite-discord-out").count() == 0

        # A refusal (the GM's page signed out by a re-issue of gina's link): the service's
        # sentence, focused, and no code shown.
        with on(db) as store:
            grant(store, "heist", "gina", "gm", link=True, replace=True)
        gm.get_by_role("button", name="Discord code for sue").click()
        error = gm.locator("#seat-discord-error")
        error.wait_for()
        assert error.inner_text().startswith("No Discord code for sue: revoked-token: ")
        assert gm.evaluate("document.activeElement.id") == "seat-discord-error"
        assert gm.locator("#seat-discord-said").inner_text() == ""
