"""Issue 29's regression in a real browser: the GM's page creates a protagonist whose talents
are typed one per line, and "Sharp eyes" is one talent (the form once split it into two, for
good); then a player creates its own protagonist from its page."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.browser import DESKTOP, PHONE, act, chromium, head_seq, offered, settled
from tests.e2e.test_web_browser import sign_in, tl
from tests.support.server import running_service


def test_a_talent_of_two_words_typed_on_the_page_is_one_talent(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        links = {
            who: json.loads(tl(tmp_path, "invite", who, "--link", "--json", "--url", url, *role))[
                "link"
            ]
            for who, role in (("gina", ("--role", "gm")), ("sue", ()))
        }
        gm = sign_in(browser, url, links["gina"], DESKTOP)
        sue = sign_in(browser, url, links["sue"], PHONE, is_mobile=True, has_touch=True)
        talents = gm.locator('textarea[name="talents"]')
        assert talents.count() == 1
        made = act(
            gm,
            "Create a protagonist",
            player="bob",
            character="Kit",
            talents="Sharp eyes\n\n  Brawler  \n",
        )
        assert made is None
        settled(sue, head_seq(tmp_path / "t.db", "heist"))
        assert offered(sue) == {"Create your protagonist"}
        assert act(sue, "Create your protagonist", character="Diana", talents="Fast talker") is None
        settled(gm, head_seq(tmp_path / "t.db", "heist"))
    view = json.loads(tl(tmp_path, "state", "--json"))
    assert view["talents"]["kit"]["by_talent"] == {"brawler": 0, "sharp eyes": 0}
    assert view["talents"]["diana"]["by_talent"] == {"fast talker": 0}
