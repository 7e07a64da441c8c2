"""The page says honestly whether it is live, and keeps typed text out of addresses (issue 29,
"Robust and accessible"), in a real browser (Debian's chromium through Playwright) against a
real `tablelog serve`:
- the service stopped: the page says "Reconnecting…" (never "up to date"); started again at
  the same address, it is live again and shows what was appended meanwhile;
- JavaScript off: a sign-in link says it needs JavaScript and stays unused; a form posts (never
  a GET that would put the typed text in the address) to a page that says nothing was sent,
  and nothing is appended;
- the focus ring stands at 3:1 or more against what is next to it, on the page and on the
  blue bar at its top.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.browser import chromium, head_seq, settled
from tests.support.server import free_port, running_service

TIMEOUT_S = 60


def tl(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tablelog", "--db", "t.db", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def link(cwd: Path, url: str, who: str, *more: str) -> str:
    made = json.loads(tl(cwd, "invite", who, "--link", "--json", "--url", url, *more))
    return str(made["link"])


def unused(cwd: Path, address: str) -> bool:
    digest = hashlib.sha256(address.split("#token=")[1].encode()).hexdigest()
    with closing(sqlite3.connect(cwd / "t.db")) as conn, conn:
        row = conn.execute(
            "SELECT revoked_at FROM access_tokens WHERE token_hash = ?", (digest,)
        ).fetchone()
    return row is not None and row[0] is None


def test_the_page_says_reconnecting_while_the_service_is_down(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "ben", "Kit")
    port = free_port()
    with chromium() as browser:
        with running_service("t.db", tmp_path, port=port) as url:
            ben = browser.new_page()
            ben.goto(link(tmp_path, url, "ben"))
            ben.wait_for_selector("#connection[data-state=live]", timeout=15_000)
            assert "Live" in ben.locator("#connection").inner_text()
            gm = browser.new_page()
            gm.goto(link(tmp_path, url, "gina", "--role", "gm"))
            gm.wait_for_selector("#connection[data-state=live]", timeout=15_000)
        # Stopped: the page says so at once, and never that it is up to date.
        ben.wait_for_selector("#connection[data-state=down]", timeout=15_000)
        assert "Reconnecting" in ben.locator("#connection").inner_text()
        # A move sent meanwhile is not lost in silence: the form says nothing was sent.
        starts = gm.locator("form.action", has=gm.locator("legend", has_text="Start a session"))
        starts.locator("button[type=submit]").click()
        error = starts.locator(".error")
        error.wait_for(state="visible", timeout=15_000)
        assert "nothing was sent" in error.inner_text()
        tl(tmp_path, "improv", "character", "sue", "Riso")  # appended while it is down
        assert ben.locator("#connection[data-state=down]").count() == 1
        with running_service("t.db", tmp_path, port=port):
            ben.wait_for_selector("#connection[data-state=live]", timeout=40_000)
            settled(ben, head_seq(tmp_path / "t.db", "heist"))
            assert "Riso" in ben.locator("#table").inner_text()


def test_with_javascript_off_nothing_is_sent_and_nothing_lands_in_an_address(
    tmp_path: Path,
) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()

        # A sign-in link: it says JavaScript is needed, never "signing you in", and stays unused.
        address = link(tmp_path, url, "gina", "--role", "gm")
        page.goto(address)
        assert page.locator("#no-script-notice").is_visible()
        assert "JavaScript is off" in page.locator("#no-script-notice").inner_text()
        assert page.locator("#sign-in-status").inner_text() == ""
        assert unused(tmp_path, address)

        # Signed in (the trade done over HTTP), the page says what works without its script.
        token = link(tmp_path, url, "gina", "--role", "gm").split("#token=")[1]
        traded = httpx.post(
            f"{url}/campaigns/heist/play/session", json={"token": token}, headers={"Origin": url}
        )
        assert traded.status_code == 201, traded.text
        context.add_cookies(
            [{"name": "tablelog_session", "value": traded.cookies["tablelog_session"], "url": url}]
        )
        page.goto(f"{url}/campaigns/heist/play")
        assert "needs its script to send moves" in page.locator("#no-script-notice").inner_text()
        before = head_seq(tmp_path / "t.db", "heist")
        forms = page.locator("form")
        assert page.locator("form.action").count() > 0
        # Every form of the page (the table's, the invites', the notices') posts, to the
        # page that says nothing was sent.
        for method, action in forms.evaluate_all("fs => fs.map(f => [f.method, f.action])"):
            assert method == "post"
            assert action == f"{url}/campaigns/heist/play/no-script"

        # A form sent without the script: posted, answered "nothing was sent", nothing appended.
        created = page.locator("form.action", has=page.locator("legend", has_text="protagonist"))
        created.locator('input[name="character"]').fill("Secret Name")
        created.locator("button[type=submit]").click()
        page.wait_for_selector("#no-script")
        assert "Secret" not in page.url
        assert page.url.endswith("/campaigns/heist/play/no-script")
        assert "Nothing was sent" in page.locator("#no-script").inner_text()
        assert head_seq(tmp_path / "t.db", "heist") == before
        context.close()


# The contrast of two colours (WCAG 2's relative luminance), computed in the page from the
# colours the browser resolved for the focused element's ring and what lies next to it.
CONTRAST = """
([ring, inner, next]) => {
  const parse = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = parse(c).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  return [ratio(ring, next), ratio(inner, next)];
}
"""


def _ring(page: Any, selector: str, beside: str) -> list[float]:
    """The contrast of the focused element's outer ring and inner ring against `beside`'s
    background: one of the two must reach 3:1."""
    element = page.locator(selector)
    element.focus()
    style = element.evaluate(
        "e => { const s = getComputedStyle(e);"
        " return [s.outlineColor, s.boxShadow, s.outlineStyle, e.matches(':focus-visible')]; }"
    )
    outline, shadow, kind, visible = style
    assert visible, style
    assert kind == "solid", style
    inner = shadow.split(")")[0] + ")"  # `rgb(...) 0px 0px 0px 2px`: its colour
    next_to = page.locator(beside).evaluate("e => getComputedStyle(e).backgroundColor")
    ratios: list[float] = page.evaluate(CONTRAST, [outline, inner, next_to])
    return ratios


def test_the_focus_ring_stands_out_against_what_is_next_to_it(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        page = browser.new_page()
        page.goto(link(tmp_path, url, "gina", "--role", "gm"))
        page.wait_for_selector("#connection[data-state=live]", timeout=15_000)
        page.keyboard.press("Tab")  # a keyboard user: :focus-visible applies from here on
        on_page = _ring(page, "#keep-checkpoint", "body")
        on_bar = _ring(page, "#sign-out", "header.top")
        assert max(on_page) >= 3.0, on_page
        assert max(on_bar) >= 3.0, on_bar


def test_an_irreversible_step_asks_once_and_says_what_it_will_do(tmp_path: Path) -> None:
    """The GM ends the session from a phone: the page asks first, with what the step will do
    as the service would decide it now; "Cancel" sends nothing, "Yes" sends it once."""
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "ben", "Kit")
    tl(tmp_path, "session", "start")
    db = tmp_path / "t.db"
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        phone = browser.new_page(viewport={"width": 360, "height": 740})
        phone.goto(link(tmp_path, url, "gina", "--role", "gm"))
        phone.wait_for_selector("#connection[data-state=live]", timeout=15_000)
        before = head_seq(db, "heist")
        ends = phone.locator("form.action", has=phone.locator("legend", has_text="End the session"))
        ends.locator("button[type=submit]").click()
        dialog = phone.locator("dialog#guard")
        dialog.wait_for(state="visible")
        assert phone.locator("#guard-question").inner_text().startswith("End the session?")
        assert "This will: session 1 ends." in phone.locator("#guard-will").inner_text()
        box = dialog.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 360  # nothing cut off on the phone
        phone.locator("#guard-no").click()
        dialog.wait_for(state="hidden")
        assert head_seq(db, "heist") == before  # "Cancel" sent nothing

        ends.locator("button[type=submit]").click()
        dialog.wait_for(state="visible")
        phone.keyboard.press("Escape")  # Escape is a "no" too
        dialog.wait_for(state="hidden")
        assert head_seq(db, "heist") == before

        ends.locator("button[type=submit]").click()
        dialog.wait_for(state="visible")
        phone.locator("#guard-yes").click()
        settled(phone, before + 1)
        assert head_seq(db, "heist") == before + 1
        assert "session 1 ends" in phone.locator("#live").inner_text()


def test_an_empty_required_text_is_named_before_anything_is_sent(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        page = browser.new_page()
        page.goto(link(tmp_path, url, "gina", "--role", "gm"))
        page.wait_for_selector("#connection[data-state=live]", timeout=15_000)
        before = head_seq(tmp_path / "t.db", "heist")
        created = page.locator("form.action", has=page.locator("legend", has_text="protagonist"))
        created.locator("button[type=submit]").click()
        error = created.locator(".error")
        error.wait_for(state="visible")
        assert error.inner_text() == "Fill in player first; nothing was sent."
        assert head_seq(tmp_path / "t.db", "heist") == before
