"""Issue 29: a whole Improv campaign from pages alone, managed decks (hands are hidden cards).

After `tablelog serve` the admin creates the campaign on the admin page, the GM invites ann
(a desktop) and bob (a 360x740 phone), each player creates their own protagonist, the GM
starts a session and a scene and opens an extended conflict over two rounds: stakes, cards
face down, story-tokens and talents on cards, reveals, an award after each reveal, a victory
card given, every side's final narration, the close, the end of the scene and the session.
At every stage no player's page names a card another holds in hand or face down (read from
the database), axe-core finds nothing serious, and the phone's page is cut off nowhere.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tablelog.commands.database import opened
from tablelog.commands.reads import ruleset_read, show
from tablelog.rulesets.improv.rules.cards import pretty
from tests.e2e.browser import act, chromium, form, head_seq, offered, settled
from tests.e2e.campaign_pages import Table, holds_none_of, nothing_cut_off, seat_table
from tests.e2e.test_web_browser import check_accessibility
from tests.support.server import running_service

SHOTS = os.environ.get("TABLELOG_SCREENSHOTS")  # the docs folder, to refresh the README's


class Campaign:
    """The pages of campaign `heist` and the operator's view of it to check them with."""

    def __init__(self, cwd: Path, table: Table) -> None:
        self.cwd, self.table = cwd, table
        self.seats = {"gm": table.gm, "ann": table.desk, "bob": table.phone}

    def act(self, page: Any, title: str, **fields: str | bool | int) -> str | None:
        """`act`, on pages that have every move so far (so the page's next change is this
        move's, not one still on its way)."""
        self.settle()
        return act(page, title, **fields)

    def settle(self) -> int:
        seq = head_seq(self.cwd / "t.db", "heist")
        for page in self.seats.values():
            settled(page, seq)
        return seq

    def secrets(self) -> dict[str, set[str]]:
        """Per seat, the cards it may not see: the others' hands and face-down cards (less
        what it may see anyway: its own cards, which another deck may hold too)."""
        with opened(str(self.cwd / "t.db")) as store:
            hands = {
                who: set(ruleset_read(store, "heist", "improv", "hand", who, None)["cards"])
                for who in self.seats
            }
            views = [show(store, "heist", "c1", None).view] if self._open(store) else []
        down: dict[str, set[str]] = {who: set() for who in self.seats}
        public: set[str] = set()  # face up on the table: another deck may hold the same card
        for view in views:
            owners = {k: ("gm" if s["gm"] else s["player"]) for k, s in view["sides"].items()}
            for side in view["sides"].values():
                public.update(side["victory"])
            for rnd in view["rounds"]:
                for key, play in rnd["plays"].items():
                    (public if rnd["revealed"] else down[owners[key]]).add(play["card"])
        hidden = {}
        for who in self.seats:
            theirs = {c for other in self.seats if other != who for c in hands[other] | down[other]}
            hidden[who] = theirs - hands[who] - down[who] - public
        return hidden

    def _open(self, store: Any) -> bool:
        try:
            show(store, "heist", "c1", None)
        except Exception:
            return False
        return True

    def check(self, stage: str, *, axe: bool = False) -> None:
        """What every stage must hold: no secret on a player's page, nothing cut off on the
        phone, and (at the start, mid-conflict, the end) nothing serious for axe-core."""
        self.settle()
        for who, hidden in self.secrets().items():
            if who != "gm":
                try:
                    holds_none_of(self.seats[who], sorted(hidden | {pretty(c) for c in hidden}))
                except AssertionError as leak:
                    raise AssertionError(f"{stage}: {who}'s page holds {leak}") from None
        nothing_cut_off(self.table.phone)
        inner_fits(self.table.phone, "#sessions .scroll")
        if axe:
            check_accessibility(self.seats)


def test_an_improv_campaign_from_pages_alone(tmp_path: Path) -> None:
    with running_service("t.db", tmp_path), chromium() as browser:
        table = seat_table(browser, tmp_path, "heist", "improv", options={"deck_mode": "managed"})
        t = Campaign(tmp_path, table)
        gm, ann, bob = table.gm, table.desk, table.phone
        t.check("seated", axe=True)
        # Each player creates their own protagonist; talents one per line.
        assert offered(bob) == {"Create your protagonist"}
        assert t.act(ann, "Create your protagonist", character="Kit", talents="Brawler") is None
        made = t.act(bob, "Create your protagonist", character="Diana", talents="Sharp eyes\nSneak")
        assert made is None
        t.check("characters")
        assert t.act(gm, "Start a session") is None
        form(gm, "Start a scene").locator('[name="title"]').fill("The bar")  # act's own title
        assert t.act(gm, "Start a scene") is None
        t.check("session")
        # Before the fight: ann gives bob a story-token from the pool (one per giver per scene).
        assert t.act(ann, "Award a story-token", receiver="bob") is None
        assert t.act(gm, "Open a conflict", extended=True, rounds=2) is None
        t.check("opened")
        # Stakes: the GM's, then each protagonist's against it.
        assert t.act(gm, "Set a GM stake", side="riso", text="Riso keeps the bar") is None
        t.settle()
        assert t.act(ann, "Set Kit's stake", text="Kit throws Riso out", opposes="riso") is None
        assert t.act(bob, "Set Diana's stake", text="Diana gets the ledger", opposes="riso") is None
        t.check("stakes")
        for number in (1, 2):
            play_round(t, number)
        # The end: a victory card given, every side's final narration, the close.
        view = operator_view(tmp_path)
        assert any(s["victory"] for s in view["sides"].values()), view["sides"]
        gifts = [(p, x) for p in t.seats.values() for x in offered(p) if x.startswith("Give one")]
        assert gifts, {who: offered(p) for who, p in t.seats.items()}
        page, title = gifts[0]
        options = form(page, title).locator('[name="receiver"] option[value]')
        choices = [v for v in options.evaluate_all("os => os.map(o => o.value)") if v]
        receiver = next((v for v in choices if v != "riso"), choices[0])  # an ally first
        assert t.act(page, title, receiver=receiver) is None
        t.check("given")
        assert t.act(ann, "Narrate for Kit", text="Kit dusts off his hands.", final=True) is None
        assert t.act(bob, "Narrate for Diana", text="Diana pockets the ledger.", final=True) is None
        assert t.act(gm, "Narrate for riso", text="Riso sulks.", final=True) is None
        t.check("narrated")
        assert t.act(gm, "Close the conflict") is None
        t.settle()
        for page in t.seats.values():
            panel = page.locator("#conflict-c1")
            assert "Conflict c1 (closed)" in panel.inner_text()
            assert panel.locator("form.action").count() == 0
        assert t.act(gm, "End the scene") is None
        assert t.act(gm, "End the session") is None
        t.check("ended", axe=True)
        assert "Start a session" in offered(gm)


def play_round(t: Campaign, number: int) -> None:
    gm, ann, bob = t.seats["gm"], t.seats["ann"], t.seats["bob"]
    for who, page in (("ann", ann), ("bob", bob)):
        card = form(page, "Play a card face down").locator('[name="card"]').input_value()
        assert card, who
        assert t.act(page, "Play a card face down", card=card) is None
        t.check(f"round {number}: {who} played")
    gm_card = gm.locator('form.action [name="card"] option[value]:not([value=""])').first
    assert t.act(gm, "Play a card face down", card=gm_card.get_attribute("value")) is None
    t.check(f"round {number}: cards down")
    # Bonuses on cards still face down: a talent each round, a token and the GM's tokens.
    assert t.act(ann, "Use a talent of Kit", on="kit", talent="Brawler") is None
    if number == 1:
        assert t.act(bob, "Place story-tokens on a card", on="diana", tokens=1) is None
        assert t.act(gm, "Place GM tokens on a card", on="riso", tokens=1) is None
    else:
        talent = "Sharp eyes"
        assert t.act(bob, "Use a talent of Diana", on="diana", talent=talent) is None
    t.check(f"round {number}: bonuses", axe=number == 1)
    if number == 1 and SHOTS:
        phone_shot(t.table.phone, "#hand", Path(SHOTS) / "web-phone-improv.png")
    assert "Reveal the round" not in offered(ann)
    assert t.act(gm, "Reveal the round") is None
    t.settle()
    for page in t.seats.values():
        assert page.locator("#conflict-c1 .card.back").count() == 0
    # The Hand of Fate, when an exact tie came up: the loser stays in.
    for page in t.seats.values():
        for title in offered(page):
            if "Hand of Fate" in title and "chooses" in title:
                assert t.act(page, title, choice="stay") is None
                t.settle()
    # An award after the reveal counts toward the revealed round.
    assert t.act(bob, "Award a story-token", receiver="ann") is None
    t.check(f"round {number}: revealed")


def phone_shot(page: Any, upto: str, path: Path) -> None:
    """The phone's page from its top to the bottom of `upto` (the README shows it)."""
    bottom = page.locator(upto).evaluate("e => e.getBoundingClientRect().bottom + window.scrollY")
    clip = {"x": 0, "y": 0, "width": page.viewport_size["width"], "height": bottom + 8}
    page.screenshot(path=path, full_page=True, clip=clip)


def inner_fits(page: Any, box: str) -> None:
    """Nothing in `box`, a box that scrolls sideways, lies out of sight past its right edge
    (a button cut in half at 360 px: `nothing_cut_off` sees only the page's own width)."""
    width = page.locator(box).evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width[0] <= width[1], (page.url, box, width)


def operator_view(cwd: Path) -> dict[str, Any]:
    with opened(str(cwd / "t.db")) as store:
        return show(store, "heist", "c1", None).view
