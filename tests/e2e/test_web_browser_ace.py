"""The Ace of Cards in real browsers (cheap: the demo's campaign, one more conflict): ann, on
a 360-px phone, resolves a set with a joker from her own hand (a `pairs` field, JK1=4H),
the GM calls a Check with its two dice (a `numbers` field) and ann rolls it with the
faces the table rolled; a critical opens High or Low on her page, and the GM's page never
shows her hand."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.browser import DESKTOP, PHONE, act, chromium, head_seq, offered, settled
from tests.e2e.test_web_browser import sign_in, tl
from tests.support.server import running_service

CAMPAIGN = "ace-of-cards"
HAND = ["1H", "2H", "3H", "JK1", "5H"]


def test_an_ace_plays_a_set_and_a_check_from_the_page(tmp_path: Path) -> None:
    tl(tmp_path, "demo", "--ruleset", "ace-of-cards")
    # The demo records its deck from the table: the opening hand is given.
    tl(
        tmp_path,
        "ace-of-cards",
        "open",
        "-p",
        "Kit",
        "-e",
        "Wolf",
        "--id",
        "c2",
        "--hand",
        "Kit=" + ",".join(HAND),
    )
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        links = {
            who: json.loads(tl(tmp_path, "invite", who, "--link", "--json", "--url", url, *role))[
                "link"
            ]
            for who, role in (("gm", ("--role", "gm")), ("ann", ()))
        }
        gm = sign_in(browser, url, links["gm"], DESKTOP)
        ann = sign_in(browser, url, links["ann"], PHONE, is_mobile=True, has_touch=True)

        def settle() -> None:
            seq = head_seq(tmp_path / "t.db", CAMPAIGN)
            for page in (gm, ann):
                settled(page, seq)

        hand = ann.locator("#hand-kit .card").all_inner_texts()
        assert hand == ["1♥", "2♥", "3♥", "Joker", "5♥"]
        assert "♥" not in gm.locator("#conflict-c2").inner_text()
        assert "Magic Cards: Kit resolves a set" in offered(ann)
        refused = act(
            ann,
            "Magic Cards: Kit resolves a set",
            mp=20,
            cards="1H 2H 3H JK1",
            jokers="JK1=4H",
            set="magic-flush",
            drawn="1D 2D 3D 4D",
        )
        assert refused is None
        settle()
        assert "Magic Flush 35 ice to wolf" in gm.locator("#conflict-c2").inner_text()
        assert ann.locator("#hand-kit .card").all_inner_texts() == ["5♥", "1♦", "2♦", "3♦", "4♦"]
        assert "Magic Cards: Kit resolves a set" not in offered(ann)  # 0 MP left
        called = act(gm, "Call a Check", character="kit", kind="accuracy", dice="8 10", dl=9)
        assert called is None
        settle()
        title = "Roll Kit's check k1 (d8 + d10, DL 9)"
        assert title in offered(ann)
        assert "Kit (roll check k1)" in gm.locator("#conflict-c2 .waiting").inner_text()
        assert act(ann, title, values="7 7") is None
        settle()
        assert "High or Low: Kit draws 1 card" in offered(ann)
        assert "♦" not in gm.locator("#conflict-c2 td:nth-child(5)").inner_text()
