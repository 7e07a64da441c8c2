"""Every ruleset tablelog has gets a page, with its own hooks or the generic ones: its demo's
campaign, opened by the GM and by an observer through sign-in links on a real service,
renders (page, table fragment, a replay), the GM is offered the table's controls and the
observer nothing."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import httpx
import pytest

from tablelog import rulesets
from tablelog.rulesets.night_terrors.views.page_panels import pretty
from tests.support.cli_runner import run_tablelog
from tests.support.server import running_service

_FORM = re.compile(r'<form class="action')


def tl(cwd: Path, *args: str) -> str:
    # In this process (tests/support/cli_runner.py); the service stays a subprocess.
    done = run_tablelog(["--db", "t.db", *args], cwd=cwd)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done.stdout


@pytest.mark.parametrize("ruleset", rulesets.names())
def test_the_demo_of_every_ruleset_has_a_page(tmp_path: Path, ruleset: str) -> None:
    tl(tmp_path, "demo", "--ruleset", ruleset)
    campaign = json.loads(tl(tmp_path, "campaign", "list", "--json"))[0]["campaign"]
    first = json.loads(tl(tmp_path, "log", "--json", "-c", campaign).splitlines()[0])
    gm_name = first["payload"]["gm"]
    with running_service("t.db", tmp_path) as url:
        for who, role in ((gm_name, "gm"), ("watcher", "observer")):
            made = tl(tmp_path, "invite", who, "--role", role, "--link", "--json", "--url", url)
            link = json.loads(made)["link"]
            with httpx.Client(base_url=url, timeout=30) as browser:
                traded = browser.post(
                    f"/campaigns/{campaign}/play/session",
                    json={"token": link.split("#token=")[1]},
                    headers={"Origin": url},
                )
                assert traded.status_code == 201, traded.text
                page = browser.get(f"/campaigns/{campaign}/play")
                assert page.status_code == 200
                assert f"You are <strong>{who}</strong> ({role})" in page.text
                assert 'class="panel"' in page.text
                table = browser.get(f"/campaigns/{campaign}/play/table")
                assert table.status_code == 200
                replay = browser.get(f"/campaigns/{campaign}/play/table", params={"at": 3})
                assert replay.status_code == 200
                assert "The table as of seq 3." in replay.text
                forms = len(_FORM.findall(table.text))
                assert (forms > 0) if role == "gm" else (forms == 0), (role, forms)


_CSRF = re.compile(r'<meta name="csrf-token" content="([0-9a-f]{64})">')


def signed_in(url: str, cwd: Path, player: str) -> tuple[httpx.Client, str]:
    """A browser signed in with `player`'s link, and its session's CSRF token."""
    link = json.loads(tl(cwd, "invite", player, "--link", "--json", "--url", url))["link"]
    browser = httpx.Client(base_url=url, timeout=30)
    traded = browser.post(
        "/campaigns/night-terrors/play/session",
        json={"token": link.split("#token=")[1]},
        headers={"Origin": url},
    )
    assert traded.status_code == 201, traded.text
    found = _CSRF.search(browser.get("/campaigns/night-terrors/play").text)
    assert found is not None
    return browser, found.group(1)


def test_the_night_terrors_page_shows_a_players_own_hand_and_no_other(tmp_path: Path) -> None:
    """Night Terrors' own page: ann sees Alice's hand face up and Bob's as backs, is offered
    the narration Alice won (and ben none), and the form posts to its endpoint; ben's try for
    Bob is refused with the rules' one sentence."""
    tl(tmp_path, "demo", "--ruleset", "night-terrors")
    view = json.loads(tl(tmp_path, "state", "--json"))
    players = [view["characters"][name]["player"] for name in ("alice", "bob")]
    assert players == ["ann", "ben"]
    with running_service("t.db", tmp_path) as url:
        ann, ann_csrf = signed_in(url, tmp_path, "ann")
        ben, ben_csrf = signed_in(url, tmp_path, "ben")
        try:
            table = html.unescape(ann.get("/campaigns/night-terrors/play/table").text)
            assert "Alice's hand" in table
            # Mid-conflict (a replay of seq 20), both hands full: Alice's face up, Bob's a back.
            then = json.loads(tl(tmp_path, "state", "--at", "20", "--json"))["characters"]
            replay = ann.get("/campaigns/night-terrors/play/table", params={"at": 20}).text
            replay = html.unescape(replay)
            assert "(yours, above)" in replay  # her hand, face up above the conflict's table
            assert all(pretty(card) in replay for card in then["alice"]["hand"])
            assert not [card for card in then["bob"]["hand"] if pretty(card) in replay]
            narrate = re.search(r'data-path="(/night-terrors/conflicts/c1/narrations)"', table)
            assert narrate is not None
            assert "narrations" not in ben.get("/campaigns/night-terrors/play/table").text
            said = ann.post(
                "/campaigns/night-terrors" + narrate.group(1),
                json={"character": "alice", "text": "The ledger is hers."},
                headers={"Origin": url, "X-CSRF-Token": ann_csrf},
            )
            assert said.status_code == 201, said.text
            refused = ben.post(
                "/campaigns/night-terrors" + narrate.group(1),
                json={"character": "bob", "text": "Mine!"},
                headers={"Origin": url, "X-CSRF-Token": ben_csrf},
            )
            assert refused.status_code == 422, refused.text
            assert refused.json()["message"] == "only Alice decides the stakes of c1; Bob is out"
            after = html.unescape(ben.get("/campaigns/night-terrors/play/table").text)
            assert "Alice: The ledger is hers." in after
        finally:
            ann.close()
            ben.close()


def _signed_in(browser: httpx.Client, url: str, campaign: str, link: str) -> None:
    traded = browser.post(
        f"/campaigns/{campaign}/play/session",
        json={"token": link.split("#token=")[1]},
        headers={"Origin": url},
    )
    assert traded.status_code == 201, traded.text


def test_the_ace_of_cards_page_shows_a_hand_to_its_player_alone(tmp_path: Path) -> None:
    """The Ace of Cards has its own hooks: after its demo, a second conflict opened from the
    CLI puts Kit's hand face up on ann's page, with the forms Kit may use now, while an
    observer sees the card backs only; the demo's ended conflict stays with its outcome."""
    tl(tmp_path, "demo", "--ruleset", "ace-of-cards")
    tl(
        tmp_path,
        *("ace-of-cards", "open", "--party", "Kit", "--enemy", "Wolf", "--id", "c2"),
        *("--hand", "Kit=1H,2H,3H,4H,5H"),
    )
    tables = {}
    with running_service("t.db", tmp_path) as url:
        for who, role in (("ann", "player"), ("watcher", "observer")):
            made = tl(tmp_path, "invite", who, "--role", role, "--link", "--json", "--url", url)
            with httpx.Client(base_url=url, timeout=30) as browser:
                _signed_in(browser, url, "ace-of-cards", json.loads(made)["link"])
                table = browser.get("/campaigns/ace-of-cards/play/table")
                assert table.status_code == 200
                tables[who] = table.text
    ann, watcher = tables["ann"], tables["watcher"]
    assert "Conflict c1 (ended)" in ann
    assert "Conflict c2" in ann
    assert "43 fire" in ann
    for card in ("1♥", "2♥", "3♥", "4♥", "5♥"):
        assert card in ann
    assert "Magic Cards: Kit resolves a set" in ann
    assert "Conflict c2" in watcher
    assert "♥" not in watcher
    assert not _FORM.findall(watcher)


_ACTION = re.compile(
    r'<form class="action[^"]*" data-key="[^"]+" data-path="([^"]+)" data-fixed="([^"]*)"'
    r' id="[^"]+"[^>]*>\s*<fieldset>\s*<legend>([^<]+)</legend>'
)


class Seat:
    """One signed-in page of the demo's campaign `gate`, sending its forms as page.js does:
    the form's fixed fields, then each filled field (`power.card.name` fills a field of the
    object `power`)."""

    def __init__(self, url: str, link: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=30)
        token = link.split("#token=")[1]
        traded = self.http.post(
            "/campaigns/gate/play/session", json={"token": token}, headers={"Origin": url}
        )
        assert traded.status_code == 201, traded.text
        found = _CSRF.search(self.http.get("/campaigns/gate/play").text)
        assert found is not None
        self.csrf = found.group(1)

    def table(self) -> str:
        answer = self.http.get("/campaigns/gate/play/table")
        assert answer.status_code == 200
        return html.unescape(answer.text)

    def forms(self) -> dict[str, tuple[str, dict[str, object]]]:
        """The forms offered now: title -> (the path it posts to, its fixed fields)."""
        raw = self.http.get("/campaigns/gate/play/table").text
        return {
            html.unescape(title): (html.unescape(path), json.loads(html.unescape(fixed)))
            for path, fixed, title in _ACTION.findall(raw)
        }

    def send(self, title: str, **filled: object) -> httpx.Response:
        path, body = self.forms()[title]
        for name, value in filled.items():
            *outer, last = name.split("__")  # power__card__name: the field power.card.name
            at = body
            for part in outer:
                inner = at.setdefault(part, {})
                assert isinstance(inner, dict)
                at = inner
            at[last] = value
        headers = {"Origin": self.url, "X-CSRF-Token": self.csrf}
        return self.http.post("/campaigns/gate" + path, json=body, headers=headers)


def test_bid_and_challenge_plays_a_round_through_its_own_page(tmp_path: Path) -> None:
    """The demo's campaign (its scene ended), then a new scene played through the page's
    forms: each seat is offered what the round waits for from it, and only that."""
    tl(tmp_path, "demo", "--ruleset", "bid-and-challenge")
    with running_service("t.db", tmp_path) as url:

        def seat(who: str, *role: str) -> Seat:
            made = tl(tmp_path, "invite", who, *role, "--link", "--json", "--url", url)
            return Seat(url, json.loads(made)["link"])

        seats = [seat("gm", "--role", "gm"), seat("anna"), seat("ben")]
        seats.append(seat("watcher", "--role", "observer"))
        try:
            play_a_round(url, *seats)
        finally:
            for one in seats:
                one.http.close()


def play_a_round(url: str, gm: Seat, anna: Seat, ben: Seat, watcher: Seat) -> None:
    # The demo's scene, ended, stays with its outcome; Cara's Deck is empty.
    assert "Scene s1 (ended)" in watcher.table()
    assert watcher.forms() == {}
    assert {"Start a scene", "A character dies for good"} <= set(gm.forms())
    assert set(anna.forms()) == {"Start a scene"}
    opened = anna.send("Start a scene", seating=["anna", "ben"], requested_by="anna")
    assert opened.status_code == 201, opened.text
    assert set(anna.forms()) == {
        "Anna bids: define a detail",
        "Anna bids: strike a card",
        "Anna bids: restore cards",
        "Anna bids: create a universe card",
        "Anna passes",
    }
    assert ben.forms() == {}
    assert "Anna (anna): bid or pass" in ben.table()
    # Out of turn, a form's post is refused in the CLI's sentence, nothing appended.
    early = ben.http.post(
        "/campaigns/gate/bid-and-challenge/conflicts/s2/passes",
        json={"player": "ben"},
        headers={"Origin": url, "X-CSRF-Token": ben.csrf},
    )
    assert early.status_code == 422, early.text
    assert "it is anna's turn to bid or pass" in early.json()["message"]
    made = anna.send(
        "Anna bids: create a universe card",
        description="I call the fog",
        cards=["brawn"],
        power__card__name="Fog",
        power__card__value="1d6+1",
    )
    assert made.status_code == 201, made.text
    assert set(ben.forms()) == {"Ben challenges", "Ben passes the challenge"}
    taken = ben.send("Ben challenges", description="The fog hides me", cards=["dodge"])
    assert taken.status_code == 201, taken.text
    assert set(anna.forms()) == {"Anna pushes"}
    # Recorded dice (the demo's option): the GM writes down the faces, as page.js sends
    # a list (words).
    rolled = gm.send("Record the dice (no push)", active_faces=["6"], challenger_faces=["1"])
    assert rolled.status_code == 201, rolled.text
    table = watcher.table()
    assert "anna wins" in table
    assert "universe card fog 1d6+1 created" in table
    assert "Your deck" not in table
    assert "Your deck: Anna" in anna.table()
    assert "Your deck: Ben" not in anna.table()
