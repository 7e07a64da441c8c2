"""Invites and devices in real browsers (Debian's chromium through Playwright) against a real
`tablelog serve`: the GM invites bo from the page and reads the link and its QR code off it;
bo's phone (360x740) signs in with it and makes a link for a second device; both stay signed
in, and so does the GM's CLI token beside the GM's web sign-in. The GM re-issues bo's link
after confirming the question, and both of bo's pages say why they were signed out. The GM
adds and removes a webhook from the page. axe-core finds nothing serious."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tablelog.http.qr import BORDER, qr_code
from tests.e2e.browser import DESKTOP, PHONE, chromium
from tests.e2e.test_web_browser import check_accessibility
from tests.support.server import running_service

TIMEOUT_S = 60
_STEP = re.compile(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?")


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


def session_of(page: Any) -> str:
    return str(next(c["value"] for c in page.context.cookies() if c["name"] == "tablelog_session"))


def works(url: str, session: str) -> bool:
    answer = httpx.get(f"{url}/campaigns/heist/play/table", cookies={"tablelog_session": session})
    return answer.status_code == 200


def opened(context: Any, address: str) -> Any:
    page = context.new_page()
    page.goto(address)
    page.wait_for_selector("#page")
    return page


def modules(path: str) -> set[tuple[int, int]]:
    """The dark modules a segno SVG path draws: `M x y` and `m dx dy` move, `h n` draws n."""
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for op, a, b in _STEP.findall(path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for i in range(int(float(a))):
                dark.add((int(x) + i, int(y - 0.5)))
            x += float(a)
    return dark


def encoded(link: str) -> set[tuple[int, int]]:
    """The dark modules of the link's QR code as segno encodes it (with its quiet zone)."""
    rows = qr_code(link).matrix_iter(border=BORDER)
    return {(x, y) for y, row in enumerate(rows) for x, bit in enumerate(row) if bit}


def shown_link(page: Any) -> str:
    """The link the page shows, once its QR code is the link's own."""
    out = page.locator("#invite-out")
    out.wait_for(state="visible")
    link = str(page.locator("#invite-link").input_value())
    svg = page.locator("#invite-qr svg")
    assert svg.get_attribute("role") == "img"
    assert svg.get_attribute("style") is None
    assert page.locator("#invite-qr [style]").count() == 0
    box = svg.bounding_box()
    assert box is not None
    assert box["width"] >= 150  # big enough to scan
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    drawn = page.locator("#invite-qr svg path[stroke]").get_attribute("d")
    assert modules(drawn) == encoded(link)
    return link


def invite(gm: Any, name: str) -> None:
    gm.locator("#invite-out").evaluate("e => { e.hidden = true; }")
    gm.locator("#invite-name").fill(name)
    gm.locator("#invite-form button[type=submit]").click()


def test_the_gm_invites_bo_whose_phone_adds_a_device_until_a_re_issue(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    cli = json.loads(tl(tmp_path, "invite", "gina", "--role", "gm", "--json"))["token"]
    with (
        running_service("t.db", tmp_path, "--webhook-allow-private") as url,
        chromium() as browser,
    ):
        gm_link = json.loads(
            tl(tmp_path, "invite", "gina", "--role", "gm", "--link", "--json", "--url", url)
        )
        assert gm_link["reissued"] is False  # the GM's web link adds a device
        gm = opened(browser.new_context(viewport=DESKTOP), gm_link["link"])
        me = httpx.get(f"{url}/me", headers={"Authorization": f"Bearer {cli}"})
        assert me.json()["role"] == "gm"  # the GM's CLI token still works

        # The GM invites bo: a link and its QR code, read off the page.
        invite(gm, "bo")
        link = shown_link(gm)
        assert gm.locator("#invite-said").inner_text() == (
            "bo's sign-in link as player (it works once):"
        )
        phone_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = opened(phone_context, link)
        assert "bo" in phone.locator(".who").inner_text()
        gm.locator("#seats-refresh").click()
        gm.wait_for_selector("#seat-list tr[data-seat='bo']:has-text('yes')")

        # bo adds a second device from the phone; nothing of bo's ends.
        phone.locator("#device-link").click()
        second_link = shown_link(phone)
        assert "your other devices stay signed in" in phone.locator("#invite-said").inner_text()
        laptop = opened(browser.new_context(viewport=DESKTOP), second_link)
        assert "bo" in laptop.locator(".who").inner_text()
        sessions = [session_of(phone), session_of(laptop)]
        assert all(works(url, s) for s in sessions)
        check_accessibility({"gm": gm, "phone": phone})

        # The GM makes a new link for bo: asked first, "No" changes nothing.
        invite(gm, "bo")
        question = gm.locator("#invite-ask")
        question.wait_for(state="visible")
        assert gm.locator("#invite-question").inner_text() == (
            "bo already has a seat; a new link signs out bo's other devices. Go on?"
        )
        gm.locator("#invite-no").click()
        question.wait_for(state="hidden")
        assert all(works(url, s) for s in sessions)
        invite(gm, "bo")
        question.wait_for(state="visible")
        check_accessibility({"gm asking": gm})
        gm.locator("#invite-yes").click()
        shown_link(gm)
        said = gm.locator("#invite-said").inner_text()
        seq = int(re.search(r"at seq (\d+)", said).group(1))  # type: ignore[union-attr]
        assert said.startswith("bo's access re-issued: 2 earlier token(s) and session(s)")
        why = (
            f"the GM gave bo's seat a new sign-in link or token at seq {seq}, which signed "
            "this browser out; ask the GM for a new sign-in link"
        )
        for page in (phone, laptop):  # told on each device, by its live feed
            page.wait_for_selector("#live.ended", timeout=10_000)
            assert why in page.locator("#live").inner_text()
        phone.reload()
        assert why in phone.locator("#signed-out-why").inner_text()
        assert not any(works(url, s) for s in sessions)

        # Webhooks from the GM's page: a json one shows its secret once; then removed.
        gm.locator("#webhook-url").fill("http://127.0.0.1:9/hook")
        gm.locator("#webhook-format").select_option("json")
        gm.locator("#webhook-form input[value=turn]").check()
        gm.locator("#webhook-form button[type=submit]").click()
        gm.locator("#webhook-secret").wait_for(state="visible")
        assert len(gm.locator("#webhook-secret-value").inner_text()) >= 32
        row = gm.locator("#webhook-list tbody tr")
        assert row.count() == 1
        assert "json on reveal, close, session, turn" in row.inner_text()
        assert "127.0.0.1:9/hook" not in row.inner_text()  # the URL only as its hint
        check_accessibility({"gm webhooks": gm})
        row.locator("button").click()
        gm.wait_for_selector("#webhooks-status:has-text('removed')")
        assert gm.locator("#webhook-list tbody tr").count() == 0
