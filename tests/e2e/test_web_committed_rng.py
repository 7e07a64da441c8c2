"""The web page is a client that contributes: two players' pages, open in real browsers,
pledge their own random bytes to a committed deal the GM starts, reveal them once both
pledged, and the deal is drawn."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tablelog.rules import rng
from tests.e2e.browser import DESKTOP, chromium
from tests.e2e.transcript import ok, run
from tests.support.server import running_service

PLEDGE_VECTOR = "7a8802816dc071b45cff8ea4197c28ba0315fe679cf043a1a13805d84104c0e4"  # README


def tl(cwd: Path, *args: str) -> str:
    return ok(run(cwd, "--db", "t.db", *args))


def logged(cwd: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in tl(cwd, "log", "--json").splitlines()]


def test_players_pages_contribute_to_a_committed_deal(tmp_path: Path) -> None:
    tl(
        tmp_path,
        "campaign",
        "create",
        "heist",
        "--ruleset",
        "improv",
        "--deck-mode",
        "managed",
        "--option",
        "committed_rng=true",
    )
    tl(tmp_path, "improv", "character", "bob", "Kit")
    tl(tmp_path, "improv", "character", "sue", "Diana")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        pages = []
        for who in ("bob", "sue"):
            link = json.loads(tl(tmp_path, "invite", who, "--link", "--json", "--url", url))["link"]
            page = browser.new_context(viewport=DESKTOP).new_page()
            page.goto(link)
            page.wait_for_selector("#page[data-role='player']")
            pages.append(page)
        # $ tablelog session start   -> the deal waits for bob's and sue's pages
        assert "awaiting bob, sue" in tl(tmp_path, "session", "start")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # bounded: the pages answer the live feed
            kinds = [e["type"] for e in logged(tmp_path)]
            if "rng.drawn" in kinds:
                break
            time.sleep(0.25)
        events = logged(tmp_path)
        given = [e["payload"]["player"] for e in events if e["type"] == "rng.contributed"]
        assert sorted(given) == ["bob", "sue"]
        # Both pages pledged before either revealed, and each value opens its pledge.
        kinds = [e["type"] for e in events]
        assert kinds.index("rng.pledges_closed") < kinds.index("rng.contributed")
        pledges = {
            e["payload"]["player"]: e["payload"]["commitment"]
            for e in events
            if e["type"] == "rng.pledged"
        }
        for e in events:
            if e["type"] == "rng.contributed":
                p = e["payload"]
                value = bytes.fromhex(p["value"])
                assert rng.pledge("heist", p["request"], p["player"], value) == pledges[p["player"]]
        # Each page revealed only once it held the service's checkpoint over the close of
        # the pledges, kept with its other checkpoints.
        closed_at = next(e["seq"] for e in events if e["type"] == "rng.pledges_closed")
        closed_hash = next(e["hash"] for e in events if e["type"] == "rng.pledges_closed")
        for page in pages:
            kept = page.evaluate("() => tablelogSealing.keptCheckpoints('heist')")
            at = [json.loads(line) for line in kept if json.loads(line)["seq"] == closed_at]
            assert at, kept
            assert at[0]["hash"] == closed_hash
        # The README's pledge vector, computed by the browser's WebCrypto, is Python's.
        computed = pages[0].evaluate(
            "() => tablelogSealing.pledge('heist', '5f0c2a9e1b7d4c30', 'bob',"
            " Uint8Array.from({length: 32}, (_, i) => i))"
        )
        assert computed == PLEDGE_VECTOR
        drawn = next(e["payload"] for e in events if e["type"] == "rng.drawn")
        assert drawn["absent"] == []
        assert "improv.deck_shuffled" in [e["type"] for e in events]
