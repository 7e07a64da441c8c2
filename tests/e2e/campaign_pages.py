"""A whole campaign from pages alone (issue 29): the steps every ruleset's browser test shares.

After `tablelog serve` nobody touches a terminal: the admin signs in with the link the
service printed and creates the campaign on the admin page; the GM opens the GM's link from
there and invites each player from the Invite box (the link read off the page, as a GM
would copy it into a message); each player opens their link, one of them on a 360x740 phone.
What a ruleset's test does next is its own: every step through the forms its pages offer
(`tests.e2e.browser.act`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.browser import DESKTOP, PHONE

_PRINTED = re.compile(r"^admin page \(.*\): (\S+)$", re.M)


def admin_link(cwd: Path) -> str:
    """The admin's one-time sign-in link, as `tablelog serve` printed it in `cwd`."""
    printed = _PRINTED.findall(next(cwd.glob("serve-*.log")).read_text(encoding="utf-8"))
    assert printed, "tablelog serve printed no admin link"
    return str(printed[0])


def phone_context(browser: Any) -> Any:
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)


def create_campaign(
    browser: Any, cwd: Path, name: str, ruleset: str, gm: str, options: dict[str, str] | None = None
) -> tuple[Any, str]:
    """The admin's page (desktop) after creating `name`; the GM's one-time link it shows.
    `options`: option name -> value, each set in the ruleset's generated form field."""
    admin = browser.new_context(viewport=DESKTOP).new_page()
    admin.goto(admin_link(cwd))
    admin.wait_for_selector("#create-form")
    admin.select_option("#ruleset", ruleset)
    admin.fill("#campaign-name", name)
    admin.fill("#gm-name", gm)
    for option, value in (options or {}).items():
        field = admin.locator(f"#opt-{ruleset}-{option}")
        kind = field.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
        if kind == "select":
            field.select_option(value)
        elif kind == "checkbox":
            field.set_checked(value == "true")
        else:
            field.fill(value)
    admin.click("#create-button")
    admin.wait_for_selector("#gm-link")
    return admin, str(admin.locator("#gm-link").input_value())


def open_page(context: Any, link: str) -> Any:
    """A signed-in page of the campaign, from a one-time link, once its feed is live."""
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector("#page")
    page.wait_for_selector("#connection[data-state=live]", timeout=15_000)
    return page


def invite(gm: Any, name: str, role: str = "player") -> str:
    """The one-time link the GM's Invite box gives for `name` (a new seat)."""
    gm.locator("#invite-out").evaluate("e => { e.hidden = true; }")
    gm.locator("#invite-name").fill(name)
    if role != "player":
        gm.locator("#invite-role").select_option(role)
    gm.locator("#invite-form button[type=submit]").click()
    gm.locator("#invite-out").wait_for(state="visible")
    return str(gm.locator("#invite-link").input_value())


@dataclass
class Table:
    """The campaign's pages: the admin's, the GM's (desktop), a player's on a desktop and a
    player's on a 360x740 phone."""

    admin: Any
    gm: Any
    desk: Any
    phone: Any

    def players(self) -> list[Any]:
        return [self.desk, self.phone]

    def everyone(self) -> dict[str, Any]:
        return {"gm": self.gm, "desk": self.desk, "phone": self.phone}


def seat_table(
    browser: Any,
    cwd: Path,
    name: str,
    ruleset: str,
    *,
    gm: str = "gina",
    players: tuple[str, str] = ("ann", "bob"),
    options: dict[str, str] | None = None,
) -> Table:
    """Everything up to every seat signed in: the campaign created on the admin page, the
    GM's page, and the two players invited from it (the second on a phone)."""
    admin, gm_link = create_campaign(browser, cwd, name, ruleset, gm, options)
    gm_page = open_page(browser.new_context(viewport=DESKTOP), gm_link)
    desk_link, phone_link = invite(gm_page, players[0]), invite(gm_page, players[1])
    desk = open_page(browser.new_context(viewport=DESKTOP), desk_link)
    phone = open_page(phone_context(browser), phone_link)
    return Table(admin=admin, gm=gm_page, desk=desk, phone=phone)


def nothing_cut_off(page: Any) -> None:
    """At 360 px nothing of the page reaches past the screen's right edge."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (page.url, width)


def holds_none_of(page: Any, hidden: list[str]) -> None:
    """The page (its text, its markup, and its script's memory of the table) names none of
    the `hidden` codes (another's cards or hand), each as a whole word."""
    html = page.content()
    for code in hidden:
        pattern = re.compile(rf"(?<![\w]){re.escape(code)}(?![\w])")
        assert not pattern.search(page.locator("#table").inner_text()), (page.url, code)
        assert not pattern.search(html), (page.url, code)
