"""The page tells the viewer it is their move: in chromium, a GM and two players play a few
moves of an Improv conflict (bob on a 360-px phone). The move that makes bob awaited changes
his tab's title, icon and banner within a second of its answer, without a reload, and sue's
not at all; his live region says the move in the log's words; his own move ends it.
The steps are Improv's own (its `awaiting`), through the real `tablelog serve`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tablelog.cli.access import sign_in_link
from tablelog.commands import database
from tablelog.commands.access import grant
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.reads import log_items
from tablelog.commands.table import execute
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import open_store
from tests.e2e.browser import DESKTOP, PHONE, act, chromium, form, head_seq, settled
from tests.e2e.test_web_browser import check_accessibility, sign_in
from tests.support.server import running_service

PLAIN, MOVE = "heist · tablelog", "(1) Your move — heist"


def table_waiting_on_the_reveal(db: Path) -> dict[str, str]:
    """Riso (the GM's) against bob's Kit, both cards down in round 1 of 3; sue's Diana is not
    in it. The sign-in tokens of gina, bob and sue."""
    database.upgrade(str(db))
    store = open_store(str(db))
    try:
        create_campaign(store, "heist", ruleset="improv", gm="gina")
        for command in (
            c.CreateCharacter(player="bob", character="Kit"),
            c.CreateCharacter(player="sue", character="Diana"),
            c.StartSession(),
            c.OpenConflict(conflict="c1", extended=True, rounds=3),
            c.SetStake(conflict="c1", side="Riso", gm=True, text="Riso keeps the bar"),
            c.SetStake(conflict="c1", side="Kit", opposes="Riso", text="Kit throws Riso out"),
            c.PlayCard(conflict="c1", side="Riso", card="5H"),
            c.PlayCard(conflict="c1", side="Kit", card="KS"),
        ):
            execute(store, "heist", command)
        roles = {"gina": "gm", "bob": "player", "sue": "player"}
        return {w: grant(store, "heist", w, role, link=True).token for w, role in roles.items()}
    finally:
        store.close()


def said(db: Path, seq: int, viewer: str) -> str:
    """Event `seq` in the words `tablelog log` gives it, as `viewer` may read it."""
    store = open_store(str(db))
    try:
        return log_items(store, "heist", since=seq, viewer=viewer)[0].text
    finally:
        store.close()


def moved(mover: Any, title: str, **values: str) -> float:
    """Send the form titled `title`; the monotonic time its answer arrived."""
    with mover.expect_response(lambda r: r.request.method == "POST" and "/campaigns/" in r.url):
        button = form(mover, title).locator("button[type=submit]")
        for name, value in values.items():
            form(mover, title).locator(f'[name="{name}"]').fill(value)
        button.click()
    return time.monotonic()


def titled(page: Any, title: str) -> None:
    page.wait_for_function("title => document.title === title", arg=title, timeout=5_000)


def test_the_awaited_players_tab_title_and_banner_say_it_is_their_move(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tokens = table_waiting_on_the_reveal(db)
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        gm = sign_in(browser, url, sign_in_link(url, "heist", tokens["gina"]), DESKTOP)
        bob = sign_in(
            browser, url, sign_in_link(url, "heist", tokens["bob"]), PHONE, is_mobile=True
        )
        sue = sign_in(browser, url, sign_in_link(url, "heist", tokens["sue"]), DESKTOP)
        blocked: list[str] = []
        for page in (gm, bob, sue):
            page.on(
                "console",
                lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None,
            )
        # Only the GM is awaited: the reveal.
        assert (gm.title(), bob.title(), sue.title()) == (MOVE, PLAIN, PLAIN)
        assert gm.locator("#awaits .move").inner_text() == "Your move: reveal round 1 (c1)"
        assert "The table waits on the GM since" in sue.locator("#awaits").inner_text()
        assert bob.locator("#awaits .move").count() == 0

        # The GM's reveal makes bob awaited: his tab says so within a second, sue's does not.
        answered = moved(gm, "Reveal the round")
        titled(bob, MOVE)
        bob.locator("#awaits .move").wait_for()
        delay = time.monotonic() - answered
        print(f"bob's title and banner changed {delay:.3f} s after the reveal's answer")
        assert delay < 1.0
        banner = bob.locator("#awaits .move")
        assert banner.inner_text() == "Your move: play a card face down for round 2 (c1)"
        assert "icon-move.svg" in (bob.locator("#favicon").get_attribute("href") or "")
        seq = head_seq(db, "heist")
        for page in (gm, bob, sue):
            settled(page, seq)
        assert sue.title() == PLAIN
        assert sue.locator("#awaits .move").count() == 0
        assert gm.title() == MOVE  # riso's card now
        # The live region says what happened in words, and then what to do.
        live = bob.locator("#live").inner_text()
        assert live.startswith(said(db, seq, "bob") + ".")
        assert live.endswith("Your move: play a card face down for round 2 (c1)")
        assert "seq" not in live
        assert said(db, seq, "sue") + "." == sue.locator("#live").inner_text()
        # The banner links to the form that does it; the phone's page does not overflow.
        banner.locator("a").click()
        assert bob.evaluate("location.hash") == "#form-PlayCard-c1-kit"
        assert bob.locator("#form-PlayCard-c1-kit legend").inner_text() == "Play a card face down"
        assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        check_accessibility({"bob": bob})

        # sue's award changes no one's turn; bob's own play ends his.
        assert act(sue, "Award a story-token", receiver="bob") is None
        settled(bob, head_seq(db, "heist"))
        assert bob.title() == MOVE
        assert "awards" in bob.locator("#live").inner_text()
        assert act(bob, "Play a card face down", card="QH") is None
        titled(bob, PLAIN)
        assert bob.locator("#awaits .move").count() == 0
        assert "icon.svg" in (bob.locator("#favicon").get_attribute("href") or "")
        settled(gm, head_seq(db, "heist"))
        assert gm.locator("#live").inner_text() == "c1 round 2: kit plays a card face down."
        assert gm.title() == MOVE
        icon = httpx.get(url + "/assets/icon-move.svg", timeout=5)
        assert icon.headers["content-type"].startswith("image/svg+xml")
        assert blocked == []
