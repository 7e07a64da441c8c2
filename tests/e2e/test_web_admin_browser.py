"""The admin page in a real browser on a 360x740 phone: the link `tablelog serve` printed
signs in, the ruleset select shows that ruleset's options, a Beer Run campaign is created
with an option changed, and the GM's link, opened in another browser, is the GM's page.
axe-core finds no serious fault; with JavaScript off the forms still post (never a GET)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tablelog.commands.database import opened
from tests.e2e.browser import PHONE, chromium
from tests.e2e.test_web_browser import check_accessibility
from tests.support.server import running_service

_PRINTED = re.compile(r"^admin page \(.*\): (\S+)$", re.M)


def test_an_admin_creates_a_campaign_on_a_phone_and_the_gm_opens_it(tmp_path: Path) -> None:
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        link = _PRINTED.findall(next(tmp_path.glob("serve-*.log")).read_text())[0]
        admin = browser.new_context(viewport=PHONE).new_page()
        admin.goto(link)
        admin.wait_for_selector("#create-form")
        assert "#" not in admin.url  # the token left the address bar
        # Only the chosen ruleset's options show; choosing another shows its own.
        assert admin.locator("#show-options").is_hidden()
        admin.select_option("#ruleset", "beer-run")
        assert admin.locator('fieldset[data-ruleset="beer-run"]').is_visible()
        assert admin.locator('fieldset[data-ruleset="improv"]').is_hidden()
        assert admin.locator("#opt-beer-run-dice").input_value() == "managed"  # the default
        help_text = admin.locator("#opt-beer-run-dice-help").inner_text()
        assert "one of managed, recorded" in help_text
        check_accessibility({"admin": admin})
        admin.fill("#campaign-name", "pub")
        admin.fill("#gm-name", "gina")
        admin.select_option("#opt-beer-run-dice", "recorded")
        admin.click("#create-button")
        admin.wait_for_selector("#gm-link")
        gm_link = admin.locator("#gm-link").input_value()
        assert gm_link.startswith(f"{url}/campaigns/pub/play#token=")
        assert admin.locator("#copy-link").is_visible()
        width = admin.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width  # nothing cut off at 360 px
        assert admin.locator('#campaign-list tr[data-campaign="pub"]').count() == 1
        check_accessibility({"admin": admin})
        admin.screenshot(path=tmp_path / "admin-phone.png", full_page=True)
        # A refusal: the CLI's sentence on the page, the form kept.
        admin.fill("#campaign-name", "Pub.")
        admin.click("#create-button")
        error = admin.locator("#create-error").inner_text()
        assert error.startswith("similar-name: "), error
        # The GM opens the link in a browser of their own: their campaign's page.
        gm = browser.new_context(viewport=PHONE).new_page()
        gm.goto(gm_link)
        gm.wait_for_selector("#page")
        assert "gina" in gm.locator("header .who").inner_text()
        assert "beer-run" in gm.locator("header .who").inner_text()
    assert options_of(tmp_path, "pub")["dice"] == "recorded"  # the option the form changed


def options_of(cwd: Path, campaign: str) -> dict[str, object]:
    with opened(str(cwd / "t.db")) as store:
        created: dict[str, dict[str, object]] = json.loads(store.read(campaign)[0].payload)
    return created["options"]


def test_without_javascript_the_forms_post(tmp_path: Path) -> None:
    """JavaScript off: the link cannot be traded (the page says so), but a signed-in
    browser's forms post, with the Origin a form sends, and the ruleset is chosen first."""
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        link = _PRINTED.findall(next(tmp_path.glob("serve-*.log")).read_text())[0]
        signed = browser.new_context(viewport=PHONE)
        page = signed.new_page()
        page.goto(link)
        page.wait_for_selector("#create-form")
        cookies = signed.cookies()
        plain = browser.new_context(viewport=PHONE, java_script_enabled=False)
        plain.add_cookies(cookies)
        off = plain.new_page()
        off.goto(f"{url}/admin")
        assert off.locator("#show-options").is_visible()
        off.select_option("#ruleset", "night-terrors")
        off.click("#show-options")
        off.wait_for_selector('fieldset[data-ruleset="night-terrors"]:not([hidden])')
        assert off.url == f"{url}/admin/options"
        off.fill("#campaign-name", "dark")
        off.fill("#opt-night-terrors-hand_size", "5")
        off.click("#create-button")
        off.wait_for_selector("#gm-link")
        assert "?" not in off.url
    assert options_of(tmp_path, "dark")["hand_size"] == 5
