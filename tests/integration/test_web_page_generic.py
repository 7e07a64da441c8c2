"""The page's generic defaults, for a ruleset that supplies no panels and no actions: the toy
duel of `tests/duel`, found by its entry point alone, played in full through the page's own
routes and forms by two players and the GM (the forms post to the duel's own endpoints).
Each open conflict shows as its `show` text, the campaign as its `state` text; each role
gets a form per command it may issue, and a face-down card is its owner's alone."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import httpx

from tests.integration.test_toy_ruleset import LAUNCH, tl
from tests.support.server import running_service

_CSRF = re.compile(r'<meta name="csrf-token" content="([0-9a-f]{64})">')
_FORM = re.compile(r'<form class="action[^"]*" data-key="([^"]+)" data-path="([^"]+)"')


def link(cwd: Path, player: str, *more: str) -> str:
    return str(json.loads(tl(cwd, "invite", player, "--link", "--json", *more).stdout)["token"])


class Browser:
    """The page's requests as its script sends them, with the session cookie."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=10)
        traded = self.http.post(
            "/campaigns/d/play/session", json={"token": token}, headers={"Origin": url}
        )
        assert traded.status_code == 201, traded.text
        found = _CSRF.search(self.http.get("/campaigns/d/play").text)
        assert found is not None
        self.csrf = found.group(1)

    def table(self) -> str:
        answer = self.http.get("/campaigns/d/play/table")
        assert answer.status_code == 200
        return html.unescape(answer.text)

    def forms(self) -> dict[str, str]:
        """The forms offered now: key -> the path it posts to."""
        return dict(_FORM.findall(self.table()))

    def close(self) -> None:
        self.http.close()

    def send(self, path: str, body: dict[str, object]) -> httpx.Response:
        headers = {"Origin": self.url, "X-CSRF-Token": self.csrf}
        return self.http.post("/campaigns/d" + path, json=body, headers=headers)


def test_a_ruleset_without_page_hooks_gets_a_usable_page(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "d", "--ruleset", "duel", "--gm", "gina")
    tokens = {p: link(tmp_path, p) for p in ("ann", "bob")}
    tokens["gina"] = link(tmp_path, "gina", "--role", "gm")
    tl(tmp_path, "session", "start")
    tl(tmp_path, "duel", "open", "ann", "bob")
    with running_service("t.db", tmp_path, program=LAUNCH) as url:
        ann, bob, gm = (Browser(url, tokens[p]) for p in ("ann", "bob", "gina"))
        watcher = Browser(url, link(tmp_path, "carol", "--role", "observer"))
        try:
            play_through(ann, bob, gm, watcher)
        finally:
            for browser in (ann, bob, gm, watcher):
                browser.close()


def play_through(ann: Browser, bob: Browser, gm: Browser, watcher: Browser) -> None:
    """The duel, played through the page's routes, with what each sees at every step."""
    # The conflict as its show text, and the campaign as its state text.
    assert "duel c1 (open): no cards yet" in ann.table()
    assert "d (duel), seq" in ann.table()
    # A player gets a form per command it may issue (per open conflict), none of the GM's.
    assert set(ann.forms()) == {"Play-c1"}
    assert ann.forms()["Play-c1"] == "/duel/conflicts/c1/plays"
    assert 'value="ann"' in ann.table()  # a player's own name, filled in
    assert {"Play-c1", "Reveal-c1", "OpenDuel", "StartScene", "EndSession"} <= set(gm.forms())
    # Played through the form's own endpoint: ann sees her card, bob and the GM a back.
    assert ann.send("/duel/conflicts/c1/plays", {"player": "ann", "card": 9}).status_code == 201
    assert "ann: 9" in ann.table()
    assert "ann: face down" in bob.table()
    assert "ann: face down" in gm.table()
    refused = bob.send("/duel/conflicts/c1/plays", {"player": "ann", "card": 3})
    assert refused.status_code == 403
    assert refused.json()["message"] == "bob may not play this card: it belongs to ann"
    assert bob.send("/duel/conflicts/c1/plays", {"player": "bob", "card": 12}).status_code == 201
    assert "ann: face down" in bob.table()
    assert gm.send("/duel/conflicts/c1/reveals", {}).status_code == 201
    # Closed: it stays on the page as it ended, folded away under its outcome for each.
    assert '<details class="closed-conflict">' in bob.table()
    assert "Ended:</span> You beat ann</summary>" in bob.table()
    assert "Ended:</span> Bob beats you</summary>" in ann.table()
    assert "duel c1: closed" in bob.table()
    # An observer watches: no form at all.
    assert watcher.forms() == {}
    assert "observers only watch" in watcher.table()
