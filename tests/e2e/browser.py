"""Real browsers for the page's tests: Playwright's Python API driving Debian's chromium.

The browser is the system's (`/usr/bin/chromium`, from apt; `.ci/run` installs it), passed
to Playwright as its executable: no browser is downloaded. Missing, the tests skip saying
so, except in CI (`CI` set), where they fail.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
DESKTOP = {"width": 1000, "height": 900}
PHONE = {"width": 360, "height": 740}


def need_chromium() -> None:
    why = None
    if not CHROMIUM.exists():
        why = f"no {CHROMIUM}: install Debian's chromium (apt-get install -y chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "playwright is not installed (pip install -e '.[test]')"
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"the browser tests must run in CI: {why}")
    pytest.skip(why)


@contextmanager
def chromium() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM))
        try:
            yield browser
        finally:
            browser.close()


def head_seq(db: Path, campaign: str) -> int:
    """The campaign's head, read straight from the SQLite file (what every page must reach)."""
    with closing(sqlite3.connect(db)) as conn, conn:
        row = conn.execute("SELECT head_seq FROM campaigns WHERE name = ?", (campaign,)).fetchone()
    return int(row[0])


def settled(page: Any, seq: int) -> None:
    """Wait until the page shows the table as of `seq` or later (its live feed swapped it in;
    a page may already be further on when another page acted by itself, e.g. an opening)."""
    try:
        page.wait_for_function(
            "seq => { const at = document.querySelector('#table [data-table-seq]');"
            " return at !== null && Number(at.dataset.tableSeq) >= seq; }",
            arg=seq,
            timeout=15_000,
        )
    except Exception as exc:
        live = page.locator("#live").inner_text()
        raise AssertionError(f"{page.url} did not reach seq {seq}: {live!r}") from exc


def form(page: Any, title: str) -> Any:
    legend = page.locator("legend", has_text=re.compile("^" + re.escape(title) + "$"))
    return page.locator("form.action", has=legend)


def act(page: Any, title: str, **values: str | bool | int) -> str | None:
    """Fill in and send the form titled `title`; the refusal sentence it shows, or None."""
    found = form(page, title)
    assert found.count() == 1, f"{title!r}: {found.count()} forms on {page.url}"
    for name, value in values.items():
        field = found.locator(f'[name="{name}"]')
        tag = field.evaluate("e => e.tagName")
        if isinstance(value, bool):
            field.set_checked(value)
        elif tag == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    live = page.locator("#live")
    before = live.inner_text()
    found.locator("button[type=submit]").click()
    error = found.locator(".error")
    guard = page.locator("dialog#guard")
    # Polled from here: the page's policy lets no string be evaluated as script in it.
    deadline = time.monotonic() + 15
    while live.inner_text() == before and not error.is_visible():
        assert time.monotonic() < deadline, f"{title!r}: no answer on {page.url}"
        if guard.is_visible():  # an irreversible step asks once: the test says yes
            page.locator("#guard-yes").click()
        time.sleep(0.05)
    return error.inner_text() if error.is_visible() else None


def offered(page: Any) -> set[str]:
    """The titles of the forms the page offers now."""
    return {t.strip() for t in page.locator("form.action legend").all_inner_texts()}
