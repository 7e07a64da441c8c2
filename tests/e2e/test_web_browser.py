"""The table in real browsers: a GM and two players, each in a browser context of its own (sue
on a 360-px phone), play a whole extended Improv conflict with managed decks through the
page alone, then a Beer Run round and a Bid & Challenge round; at every step each page is
checked for what its caller must see, and every player's page, table fragment, live feed
and script globals for any card another holds face down or in hand. Screenshots of each
stage go to a temporary folder (the README shows three of them); axe-core finds no serious
accessibility fault.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tablelog.commands.database import opened
from tablelog.commands.reads import ruleset_read, show
from tablelog.rulesets.improv.rules.cards import pretty
from tests.e2e.browser import DESKTOP, PHONE, act, chromium, form, head_seq, offered, settled
from tests.support.server import running_service

TIMEOUT_S = 60
SHOTS = os.environ.get("TABLELOG_SCREENSHOTS")  # a folder to keep them in; else tmp_path


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


def refusal(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tablelog", "--db", "t.db", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 1, (args, done.stdout, done.stderr)
    return done.stderr.strip()


class Table:
    """The three pages, and the operator's whole view of the campaign to check them with."""

    def __init__(self, cwd: Path, url: str, pages: dict[str, Any], shots: Path) -> None:
        self.cwd, self.url, self.pages, self.shots = cwd, url, pages, shots
        self.stage = 0
        blank = next(iter(pages.values())).context.new_page()
        self.baseline: list[str] = blank.evaluate("() => Object.keys(window)")  # about:blank's
        blank.close()

    def settle(self) -> int:
        seq = head_seq(self.cwd / "t.db", "heist")
        for page in self.pages.values():
            settled(page, seq)
        return seq

    def shoot(self, name: str) -> None:
        self.stage += 1
        for who, page in self.pages.items():
            page.screenshot(path=self.shots / f"{self.stage:02d}-{name}-{who}.png", full_page=True)
            unique_ids(page)

    def operator(self) -> tuple[dict[str, Any], dict[str, list[str]]]:
        """Conflict c1 as the operator sees it (every card), and every managed hand."""
        with opened(str(self.cwd / "t.db")) as store:
            view = show(store, "heist", "c1", None).view
            hands = {
                who: ruleset_read(store, "heist", "improv", "hand", who, None)["cards"]
                for who in ("gm", "bob", "sue")
            }
        return view, hands

    def row(self, who: str, side: str) -> Any:
        return self.pages[who].locator("#conflict-c1 tbody tr", has_text=side)

    def check_secrets(self) -> None:
        """No player's page, fragment, feed or script globals holds a card it may not see."""
        view, hands = self.operator()
        owners = {key: ("gm" if s["gm"] else s["player"]) for key, s in view["sides"].items()}
        public: set[str] = set()
        for rnd in view["rounds"]:
            for play in rnd["plays"].values():
                if rnd["revealed"]:
                    public.add(play["card"])
        for side in view["sides"].values():
            public.update(side["victory"])
        current = view["rounds"][-1] if view["rounds"] else None
        for who in ("bob", "sue", "gm"):
            mine = set(hands[who]) | public
            for rnd in view["rounds"]:
                mine |= {p["card"] for s, p in rnd["plays"].items() if owners[s] == who}
            secret = {c for other, cards in hands.items() if other != who for c in cards}
            if current is not None and not current["revealed"]:
                secret |= {p["card"] for s, p in current["plays"].items() if owners[s] != who}
            secret -= mine  # another deck may hold the same card: then it is no secret
            self._absent(who, secret)

    def _absent(self, who: str, secret: set[str]) -> None:
        page = self.pages[who]
        faces = {pretty(c) for c in secret}
        html = page.content()
        fragment = page.evaluate("async () => (await fetch(location.pathname + '/table')).text()")
        globals_ = page.evaluate(
            "baseline => JSON.stringify(Object.keys(window).filter(k => !baseline.includes(k))"
            ".map(k => { try { return [k, JSON.stringify(window[k]) ?? String(window[k])]; }"
            " catch (e) { return [k, String(window[k])]; } }))",
            self.baseline,
        )
        feed = self.feed(page)
        for text, where in ((html, "page"), (fragment, "fragment"), (globals_, "globals")):
            for face in faces:
                assert f">{face}<" not in text, f"{who}'s {where} shows {face}"
            for card in secret:
                assert f'"{card}"' not in text, f"{who}'s {where} holds {card}"
        for card in secret:
            assert f'"{card}"' not in feed, f"{who}'s live feed holds {card}"

    def feed(self, page: Any) -> str:
        """The whole live feed as the page's session receives it, up to the head."""
        cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "tablelog_session")
        seq = head_seq(self.cwd / "t.db", "heist")
        seen = ""
        with httpx.stream(
            "GET",
            f"{self.url}/campaigns/heist/events",
            params={"after": 0},
            cookies={"tablelog_session": cookie},
            timeout=10,
        ) as answer:
            for text in answer.iter_text():
                seen += text
                if re.search(rf"^id: {seq}\r?$", seen, re.MULTILINE):
                    break
        return seen


def sign_in(browser: Any, url: str, link: str, viewport: dict[str, int], **more: Any) -> Any:
    context = browser.new_context(viewport=viewport, **more)
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector("#page")
    assert "#" not in page.url  # the token left the address bar
    return page


def test_a_gm_and_two_players_play_an_extended_conflict_in_browsers(tmp_path: Path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    tl(
        tmp_path,
        "campaign",
        "create",
        "heist",
        "--ruleset",
        "improv",
        "--gm",
        "gina",
        "--deck-mode",
        "managed",
    )
    tl(tmp_path, "improv", "character", "bob", "Kit", "--talent", "Brawler")
    tl(tmp_path, "improv", "character", "sue", "Diana", "--talent", "Sneak")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        links = {
            who: json.loads(tl(tmp_path, "invite", who, "--link", "--json", "--url", url, *role))[
                "link"
            ]
            for who, role in (("gina", ("--role", "gm")), ("bob", ()), ("sue", ()))
        }
        pages = {
            "gm": sign_in(browser, url, links["gina"], DESKTOP),
            "bob": sign_in(browser, url, links["bob"], DESKTOP),
            "sue": sign_in(browser, url, links["sue"], PHONE, is_mobile=True, has_touch=True),
        }
        # A link works once: the same link in a fresh browser is refused in one sentence.
        again = browser.new_context().new_page()
        again.goto(links["bob"])
        again.wait_for_selector("#sign-in-status:has-text('already used')")
        again.context.close()
        table = Table(tmp_path, url, pages, shots)
        play_improv(table)
        check_accessibility(pages)
        sign_out_and_revoke(tmp_path, url, pages)
        play_beer_run(browser, url, tmp_path, shots)
        play_bid_and_challenge(browser, url, tmp_path, shots)


def play_improv(t: Table) -> None:
    gm, bob, sue = t.pages["gm"], t.pages["bob"], t.pages["sue"]
    # Only the GM has the table's controls; a player without a session has nothing to do.
    assert "Start a session" in offered(gm)
    assert offered(bob) == set()
    assert act(gm, "Start a session") is None
    t.settle()
    assert "Open a conflict" in offered(gm)
    assert act(gm, "Open a conflict", extended=True, rounds=3) is None
    t.settle()
    assert act(gm, "Set a GM stake", side="riso", text="Riso keeps the bar") is None
    t.settle()
    assert act(bob, "Set Kit's stake", text="Kit throws Riso out", opposes="riso") is None
    assert act(sue, "Set Diana's stake", text="Diana gets the ledger", opposes="riso") is None
    t.settle()
    for page in t.pages.values():
        assert "Kit throws Riso out" in page.locator("#conflict-c1").inner_text()
    t.shoot("stakes")
    for number in (1, 2, 3):
        play_round(t, number)
    # Gifts, the final narration, the audit, a replay and the exports; then the GM closes.
    view = t.operator()[0]
    if view["sides"]["kit"]["victory"] and "Give one of Kit's victory cards" in offered(bob):
        assert act(bob, "Give one of Kit's victory cards", receiver="diana") is None
        t.settle()
    assert act(bob, "Narrate for Kit", text="Kit dusts off his hands.", final=True) is None
    t.settle()
    tools = bob.locator("#conflict-c1 details.tools")
    tools.locator("summary").click()
    tools.locator("button[data-audit]").click()
    bob.wait_for_selector("#conflict-c1 .tool-out .verdict")
    assert "check out" in tools.locator(".verdict").inner_text()
    tools.locator('button[data-export="markdown"]').click()
    bob.wait_for_selector("#conflict-c1 textarea.export")
    post = tools.locator("textarea.export").input_value()
    head = json.loads(tl(t.cwd, "log", "--json").splitlines()[-1])["hash"]
    assert head in post  # the verification footer carries the full head hash
    slider = tools.locator('input[type="range"]')
    slider.fill("20")
    bob.wait_for_selector("#conflict-c1 .tool-out .replay-note")
    assert "As of seq 20" in tools.locator(".tool-out").inner_text()
    t.shoot("audit-and-export")
    assert act(gm, "Close the conflict") is None
    t.settle()
    # Closed: its outcome stays on the page (until another closes), with nothing to do in it.
    for page in t.pages.values():
        panel = page.locator("#conflict-c1")
        assert "Conflict c1 (closed)" in panel.inner_text()
        assert "Ended:" in panel.inner_text()  # said at once; the rest folded under it
        assert "final:" in (panel.text_content() or "")
        assert panel.locator("form.action").count() == 0
    t.shoot("closed")


def play_round(t: Table, number: int) -> None:
    gm, bob, sue = t.pages["gm"], t.pages["bob"], t.pages["sue"]
    # Everyone sees who has not played yet.
    for page in t.pages.values():
        waiting = page.locator("#conflict-c1 .waiting").inner_text()
        assert "Kit (bob)" in waiting
        assert "Diana (sue)" in waiting
        assert "riso (GM)" in waiting
    chosen = form(bob, "Play a card face down").locator('[name="card"]').input_value()
    assert chosen
    assert act(bob, "Play a card face down", card=chosen) is None
    t.settle()
    assert "(yours)" in t.row("bob", "Kit").locator(".card").first.get_attribute("aria-label")
    assert pretty(chosen) in t.row("bob", "Kit").inner_text()
    for who in ("gm", "sue"):
        assert t.row(who, "Kit").locator(".card.back").count() == 1
        assert pretty(chosen) not in t.row(who, "Kit").inner_text()
    for page in t.pages.values():
        waiting = page.locator("#conflict-c1 .waiting").inner_text()
        assert "Kit (bob)" not in waiting
    t.check_secrets()
    if number == 1:
        t.shoot("bob-played")
    sue_card = form(sue, "Play a card face down").locator('[name="card"]').input_value()
    assert act(sue, "Play a card face down", card=sue_card) is None
    gm_card = gm.locator('form.action [name="card"] option[value]:not([value=""])').first
    gm_choice = gm_card.get_attribute("value")
    assert act(gm, "Play a card face down", card=gm_choice) is None
    t.settle()
    t.check_secrets()
    # Bonuses: bob's talent in round 1, a token (awarded by sue) in round 2; a GM token.
    if number == 1:
        assert act(bob, "Use a talent of Kit", on="kit", talent="Brawler") is None
        # A refusal is the CLI's own sentence, and writes nothing.
        seq = t.settle()
        sentence = act(gm, "Place GM tokens on a card", on="riso", tokens=9)
        assert sentence is not None
        assert sentence == refusal(
            t.cwd, "improv", "bonus", "c1", "--on", "riso", "--by", "gm", "--token", "--count", "9"
        )
        assert head_seq(t.cwd / "t.db", "heist") == seq
    if number == 2:
        assert "Place story-tokens on a card" in offered(bob)
        assert act(bob, "Place story-tokens on a card", on="kit", tokens=1) is None
        assert act(gm, "Place GM tokens on a card", on="riso", tokens=1) is None
    t.settle()
    if number == 1:
        t.shoot("cards-down")
        check_accessibility(t.pages)  # the fullest pages: every card down, every form
    assert "Reveal the round" in offered(gm)
    assert "Reveal the round" not in offered(bob)
    assert act(gm, "Reveal the round") is None
    t.settle()
    # Revealed: every card face up, with totals, for everyone.
    for who in ("gm", "bob", "sue"):
        assert t.row(who, "Kit").locator(".card.back").count() == 0
        assert pretty(chosen) in t.row(who, "Kit").inner_text()
        assert f"round {number}:" in t.pages[who].locator("#conflict-c1 pre").inner_text()
    # The Hand of Fate, when an exact tie came up: the loser stays in.
    for who, page in t.pages.items():
        for title in offered(page):
            if "Hand of Fate" in title and "chooses" in title:
                assert act(page, title, choice="stay") is None, who
                t.settle()
    if number == 1:
        # An award after the reveal counts toward the revealed round: bob gets a token.
        assert act(sue, "Award a story-token", receiver="bob") is None
        t.settle()
        t.shoot("revealed")
    t.check_secrets()


def sign_out_and_revoke(cwd: Path, url: str, pages: dict[str, Any]) -> None:
    """Signing out, and `tablelog revoke` run by the operator, end a page's session at once;
    a link opened where a session is signed in asks first, and with a yes replaces it (and
    ends it)."""
    bob, sue, gm = pages["bob"], pages["sue"], pages["gm"]
    old = next(c["value"] for c in gm.context.cookies() if c["name"] == "tablelog_session")
    link = json.loads(
        tl(cwd, "invite", "carol", "--role", "observer", "--link", "--json", "--url", url)
    )["link"]
    gm.goto(link)
    gm.locator("#switch-seat").wait_for(state="visible")
    gm.locator("#switch-yes").click()
    gm.wait_for_selector(".who:has-text('carol')")
    assert "#" not in gm.url
    ended = httpx.get(f"{url}/campaigns/heist/play/table", cookies={"tablelog_session": old})
    assert ended.status_code == 401
    bob.locator("#sign-out").click()
    bob.wait_for_selector("#live.ended")
    assert "Signed out" in bob.locator("#live").inner_text()
    bob.reload()
    bob.wait_for_selector("#sign-in-status:has-text('not signed in')")
    tl(cwd, "revoke", "sue")
    sue.wait_for_selector("#live.ended", timeout=5_000)
    assert "revoked" in sue.locator("#live").inner_text()
    assert sue.locator("form.action button[type=submit]:enabled").count() == 0
    # Nothing of her seat stays on the screen: no hand, no card face up, no form that works.
    assert sue.locator("#table .card").count() == 0
    assert sue.locator("#table-hidden").is_visible()
    assert sue.locator("form button:enabled").count() == 0


def unique_ids(page: Any) -> None:
    """Every id once on the page (labels and landmarks point at them)."""
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), (page.url, sorted({i for i in ids if ids.count(i) > 1}))


def check_accessibility(pages: dict[str, Any]) -> None:
    """axe-core (MPL-2.0, shipped in axe-playwright-python) on each page: nothing serious."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    for who, page in pages.items():
        unique_ids(page)
        found = axe.run(page)
        serious = [
            (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
            for v in found.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], (who, serious)


def play_beer_run(browser: Any, url: str, cwd: Path, shots: Path) -> None:
    """A Beer Run round: ann's Alice against the GM's Bob, goals to effects, in two pages."""
    tl(cwd, "campaign", "create", "pub", "--ruleset", "beer-run", "--gm", "gina")
    tl(
        cwd,
        "beer-run",
        "character",
        "ann",
        "Alice",
        "-a",
        "Body:Body:d8",
        "-a",
        "Mind:Mind:d6",
        "-a",
        "Kit:Kit:d4",
        "-a",
        "Health:Body:d6",
        "-c",
        "pub",
    )
    tl(
        cwd,
        "beer-run",
        "character",
        "gm",
        "Bob",
        "-a",
        "Body:Body:d8",
        "-a",
        "Resolve:Mind:d6",
        "-a",
        "Kit:Kit:d6",
        "-c",
        "pub",
    )
    links = {
        who: json.loads(
            tl(cwd, "invite", who, "--link", "--json", "--url", url, "-c", "pub", *role)
        )["link"]
        for who, role in (("gina", ("--role", "gm")), ("ann", ()))
    }
    gm = sign_in(browser, url, links["gina"], DESKTOP)
    ann = sign_in(browser, url, links["ann"], PHONE, is_mobile=True, has_touch=True)
    pages = {"gm": gm, "ann": ann}

    def settle() -> None:
        seq = head_seq(cwd / "t.db", "pub")
        for page in pages.values():
            settled(page, seq)

    assert offered(ann) == set()
    assert act(gm, "Open a conflict", sides="heroes: alice; thugs: bob") is None
    settle()
    for page in pages.values():
        assert "Alice (ann)" not in page.locator("#conflict-c1 .waiting").inner_text()
        assert "Alice" in page.locator("#conflict-c1 .waiting").inner_text()
    assert (
        act(ann, "State Alice's goal", text="Bob backs down", against="bob", ability="resolve")
        is None
    )
    assert act(gm, "State Bob's goal", text="Alice is beaten", against="alice") is None
    settle()
    assert act(ann, "Buy Alice's pool", extras="health") is None
    settle()
    # Alice's pool is hers until it is rolled: the GM sees that one was bought, not what.
    assert "health d6 (cost 2)" in ann.locator("#conflict-c1").inner_text()
    assert "pool alice: bought, hidden until rolled" in gm.locator("#conflict-c1").inner_text()
    assert "cost 2" not in gm.content()
    alice_row = gm.locator("#characters tbody tr", has_text="Alice")
    assert "10" in alice_row.inner_text()  # Intensity as before the hidden cost
    assert "8" in ann.locator("#characters tbody tr", has_text="Alice").inner_text()
    assert act(gm, "Buy Bob's pool") is None
    settle()
    gm.screenshot(path=shots / "beer-run-pools-gm.png", full_page=True)
    assert act(ann, "Roll Alice's pool") is None
    assert act(gm, "Roll Bob's pool") is None
    settle()
    assert "health d6" in gm.locator("#conflict-c1").inner_text()  # rolled: public now
    # Effects: whoever the round waits for allocates its pips, the upper hand first.
    for _ in range(2):
        for who, page in pages.items():
            titles = [t for t in offered(page) if ": allocate " in t]
            if not titles:
                continue
            pips = int(titles[0].split(": allocate ")[1].split(" ")[0])
            target = "resolve" if who == "ann" else "health"
            assert act(page, titles[0], **{f"pips.{target}": pips}) is None
            settle()
    for page in pages.values():
        assert page.locator("#conflict-c1 .waiting").count() == 0
    ann.screenshot(path=shots / "beer-run-effects-ann.png", full_page=True)
    assert act(gm, "End the conflict", result="Bob backs off") is None
    settle()
    for page in pages.values():  # ended: it stays, folded under its outcome, with no form
        panel = page.locator("#conflict-c1")
        assert "Conflict c1 (ended)" in panel.inner_text()
        assert panel.locator("form.action").count() == 0


def play_bid_and_challenge(browser: Any, url: str, cwd: Path, shots: Path) -> None:
    """A Bid & Challenge round on the demo's campaign: anna (on a phone) asks for a scene and
    bids with a power whose fields the page nests in the command (`power.card.name`), ben
    challenges (refused once, in the CLI's sentence), the GM records the dice."""
    tl(cwd, "demo", "--ruleset", "bid-and-challenge")
    links = {
        who: json.loads(
            tl(cwd, "invite", who, "--link", "--json", "--url", url, "-c", "gate", *role)
        )["link"]
        for who, role in (("gm", ("--role", "gm")), ("anna", ()), ("ben", ()))
    }
    gm = sign_in(browser, url, links["gm"], DESKTOP)
    anna = sign_in(browser, url, links["anna"], PHONE, is_mobile=True, has_touch=True)
    ben = sign_in(browser, url, links["ben"], DESKTOP)
    pages = {"gm": gm, "anna": anna, "ben": ben}

    def settle() -> None:
        seq = head_seq(cwd / "t.db", "gate")
        for page in pages.values():
            settled(page, seq)

    assert offered(ben) == {"Start a scene"}
    assert act(anna, "Start a scene", seating="anna ben", requested_by="anna") is None
    settle()
    assert offered(ben) == set()
    assert "Anna (anna): bid or pass" in ben.locator("#conflict-s2 .waiting").inner_text()
    fields = {"power.card.name": "Fog", "power.card.value": "1d6+1"}
    bid = act(anna, "Anna bids: create a universe card", description="I call the fog", **fields)
    assert bid == "min-bid: a bid commits at least 1 card (option min_bid); got 0"
    assert (
        act(
            anna,
            "Anna bids: create a universe card",
            description="I call the fog",
            cards="brawn",
            **fields,
        )
        is None
    )
    settle()
    assert offered(ben) == {"Ben challenges", "Ben passes the challenge"}
    too_many = act(ben, "Ben challenges", description="The fog hides me", cards="dodge\nmind")
    assert (
        too_many == "challenge-limit: challenger may commit at most 1 card (the bid's count); got 2"
    )
    assert act(ben, "Ben challenges", description="The fog hides me", cards="dodge") is None
    settle()
    assert offered(anna) == {"Anna pushes"}
    assert act(gm, "Record the dice (no push)", active_faces="6", challenger_faces="1") is None
    settle()
    shown = ben.locator("#conflict-s2").inner_text()
    assert "anna wins" in shown
    assert "universe card fog 1d6+1 created" in shown
    assert "Your deck: Anna" not in ben.content()
    anna.screenshot(path=shots / "bid-and-challenge-anna.png", full_page=True)
