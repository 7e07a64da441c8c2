"""Web sessions in a real browser (Debian's chromium through Playwright): a sign-in link of
another seat opened while signed in asks first, and "No" leaves the session and the link as
they were (the link still unused on the database); "Sign in as ben" changes seats. The page
lists the seat's sessions (the GM's page every session of the campaign), each with a button
that ends it; a session left idle past `serve --session-idle` ends, and the page then asks
for a sign-in link."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.browser import chromium
from tests.support.server import running_service

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
    """Whether the link's token is still unused on the database."""
    digest = hashlib.sha256(address.split("#token=")[1].encode()).hexdigest()
    with closing(sqlite3.connect(cwd / "t.db")) as conn, conn:
        row = conn.execute(
            "SELECT revoked_at FROM access_tokens WHERE token_hash = ?", (digest,)
        ).fetchone()
    return row is not None and row[0] is None


def session_of(page: Any) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "tablelog_session")


def works(url: str, session: str) -> bool:
    answer = httpx.get(f"{url}/campaigns/heist/play/table", cookies={"tablelog_session": session})
    return answer.status_code == 200


def opened(context: Any, address: str) -> Any:
    page = context.new_page()
    page.goto(address)
    page.wait_for_selector("#page")
    return page


def rows(page: Any) -> list[str]:
    page.wait_for_selector("#sessions-status:not(:has-text('Reading'))")
    return [r.strip() for r in page.locator("#session-list tbody tr").all_inner_texts()]


def test_a_link_asks_before_it_changes_seats_and_the_page_ends_sessions(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "ben", "Kit")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        gm_link, ben_link = link(tmp_path, url, "gina", "--role", "gm"), link(tmp_path, url, "ben")
        desk = browser.new_context()
        gm = opened(desk, gm_link)
        before = session_of(gm)

        # The link posted in a channel, opened in the GM's tab: a question, nothing more.
        gm.goto(ben_link)
        question = gm.locator("#switch-seat")
        question.wait_for(state="visible")
        assert gm.locator("#switch-question").inner_text() == (
            "You are signed in as the GM of heist; sign in as ben (player) instead?"
        )
        assert gm.locator("#switch-yes").inner_text() == "Sign in as ben"
        assert "#" not in gm.url  # the token left the address bar at once
        assert unused(tmp_path, ben_link)
        gm.locator("#switch-no").click()
        question.wait_for(state="hidden")
        assert "left unused" in gm.locator("#live").inner_text()
        assert "gina" in gm.locator(".who").inner_text()
        assert session_of(gm) == before
        assert works(url, before)
        assert unused(tmp_path, ben_link)  # declined: the link still works later

        # Opened again (a fresh load this time), and this time the answer is yes.
        again = desk.new_page()
        again.goto(ben_link)
        again.locator("#switch-seat").wait_for(state="visible")
        again.locator("#switch-yes").click()
        again.wait_for_selector(".who:has-text('ben')")
        assert not unused(tmp_path, ben_link)
        assert not works(url, before)  # the GM's session ended with the swap
        ben = again
        gm.close()
        mine = rows(ben)
        assert len(mine) == 1
        assert "(this browser)" in mine[0]
        assert ben.locator("#sessions-title").inner_text() == "Your sessions"

        # The GM's page, in another browser, lists every session; its button ends ben's.
        office = browser.new_context()
        gm = opened(office, link(tmp_path, url, "gina", "--role", "gm"))
        assert gm.locator("#sessions-title").inner_text() == "Web sessions of heist"
        listed = rows(gm)
        assert len(listed) == 2
        ben_id = hashlib.sha256(session_of(ben).encode()).hexdigest()[:12]
        ben_row = gm.locator("#session-list tbody tr", has_text=ben_id)
        assert "ben" in ben_row.inner_text()
        ben_row.locator("button").click()
        gm.wait_for_selector("#sessions-status:has-text('ended')")
        assert len(rows(gm)) == 1
        ben.wait_for_selector("#live.ended", timeout=5_000)  # its feed ended at once

        # A player ends their own session from the list: this browser is signed out.
        ben = opened(desk, link(tmp_path, url, "ben"))
        session = session_of(ben)
        ben.locator("#session-list button", has_text="sign out here").click()
        ben.wait_for_selector("#live.ended")
        assert "you ended this browser's session" in ben.locator("#live").inner_text()
        assert not works(url, session)
        ben.reload()
        ben.wait_for_selector("#sign-in-status:has-text('not signed in')")


def test_an_idle_session_ends_and_the_page_asks_for_a_link(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "ben", "Kit")
    with (
        running_service("t.db", tmp_path, "--session-idle", "3") as url,
        chromium() as browser,
    ):
        page = opened(browser.new_context(), link(tmp_path, url, "ben"))
        session = session_of(page)
        assert "ends after 3 seconds without use" in page.locator("#sessions").inner_text()
        time.sleep(4.5)  # nothing asked of the service meanwhile: only the open feed
        refused = httpx.get(
            f"{url}/campaigns/heist/play/table", cookies={"tablelog_session": session}
        )
        assert refused.status_code == 401
        assert refused.json()["message"] == (
            "this web session ended after 3 seconds without use; open a new sign-in link"
        )
        page.wait_for_selector("#live.ended", timeout=5_000)  # its live feed ended too
        page.reload()
        page.wait_for_selector("#sign-in-status:has-text('not signed in')")
