"""Issue 29: a whole Beer Run campaign from pages alone, managed dice.

After `tablelog serve` the admin creates the campaign on the admin page, the GM invites ann
(a desktop) and bob (a 360x740 phone); each player creates their own character with its
dice, the GM an NPC; the GM starts a session and opens a conflict. Round 1: goals (a
standard one each way and bob's helping goal for ann), the GM's difficulty pool against the
helper, pools bought (ann with an extra die, its price in Intensity), the helping roll, the
other rolls, pips allocated by the upper hand and then the other side. Round 2: the NPC
cedes; the GM ends the conflict and the session. At every stage no page but its buyer's
holds a pool bought and not yet rolled (read from the database), axe-core finds nothing
serious, and the phone's page is cut off nowhere.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tablelog.commands import state
from tablelog.commands.database import opened
from tablelog.commands.reads import show
from tests.e2e.browser import act, chromium, form, head_seq, offered, settled
from tests.e2e.campaign_pages import Table, holds_none_of, nothing_cut_off, seat_table
from tests.e2e.test_web_browser import check_accessibility
from tests.e2e.test_web_campaign_improv import inner_fits, phone_shot
from tests.support.server import running_service

SHOTS = os.environ.get("TABLELOG_SCREENSHOTS")  # the docs folder, to refresh the README's
ALICE = "Body: Body: d8\nMind: Mind: d6\nKit: Kit: d4\nHealth: Body: d6\nBrawl: Body: d10"
CARA = "Body: Body: d6\nMind: Mind: d8\nKit: Kit: d6\nHealth: Body: d6"
DAN = "Body: Body: d8\nResolve: Mind: d6\nKit: Kit: d6\nHealth: Body: d8"


class Campaign:
    """The pages of campaign `pub` and the operator's view of it to check them with."""

    def __init__(self, cwd: Path, table: Table) -> None:
        self.cwd, self.table = cwd, table
        self.seats = {"gm": table.gm, "ann": table.desk, "bob": table.phone}
        self.owners = {"alice": "ann", "cara": "bob", "dan": "gm"}

    def act(self, page: Any, title: str, **fields: str | bool | int) -> str | None:
        """`act`, on pages that have every move so far (so the page's next change is this
        move's, not one still on its way)."""
        self.settle()
        return act(page, title, **fields)

    def settle(self) -> int:
        seq = head_seq(self.cwd / "t.db", "pub")
        for page in self.seats.values():
            settled(page, seq)
        return seq

    def secrets(self) -> dict[str, list[str]]:
        """Per seat, the pools others bought and have not rolled yet, as their buyer's page
        words them ("pool alice: body d8, ... (cost 2)")."""
        hidden: dict[str, list[str]] = {who: [] for who in self.seats}
        with opened(str(self.cwd / "t.db")) as store:
            try:
                view = show(store, "pub", "c1", None).view
            except Exception:  # no conflict open
                return hidden
        if view["status"] != "open" or not view["rounds"]:
            return hidden
        rnd = view["rounds"][-1]
        for actor, pool in rnd["pools"].items():
            if actor in rnd["rolls"]:
                continue
            shown = ", ".join(f"{d['name']} d{d['size']}" for d in pool["dice"])
            line = f"pool {actor}: {shown} (cost {pool['cost']})"
            for who in self.seats:
                if who != self.owners[actor]:
                    hidden[who].append(line)
        return hidden

    def check(self, stage: str, *, axe: bool = False) -> None:
        """What every stage must hold: no secret on another's page, nothing cut off on the
        phone, and (at the start, mid-conflict, the end) nothing serious for axe-core."""
        self.settle()
        for who, hidden in self.secrets().items():
            try:
                holds_none_of(self.seats[who], hidden)
            except AssertionError as leak:
                raise AssertionError(f"{stage}: {who}'s page holds {leak}") from None
        nothing_cut_off(self.table.phone)
        inner_fits(self.table.phone, "#sessions .scroll")
        if axe:
            check_accessibility(self.seats)

    def intensity(self, who: str, character: str) -> str:
        row = self.seats[who].locator("#characters tbody tr", has_text=character)
        return str(row.locator("td").nth(1).inner_text()).split()[-1]  # past a phone's label


def test_a_beer_run_campaign_from_pages_alone(tmp_path: Path) -> None:
    with running_service("t.db", tmp_path), chromium() as browser:
        table = seat_table(browser, tmp_path, "pub", "beer-run", options={"dice": "managed"})
        t = Campaign(tmp_path, table)
        gm, ann, bob = table.gm, table.desk, table.phone
        t.check("seated", axe=True)
        # Each player makes their own character, the GM an NPC; dice one per line.
        assert offered(bob) == {"Create your character"}
        assert t.act(ann, "Create your character", character="Alice", abilities=ALICE) is None
        assert t.act(bob, "Create your character", character="Cara", abilities=CARA) is None
        made = t.act(gm, "Create a character", player="gm", character="Dan", abilities=DAN)
        assert made is None
        t.check("characters")
        assert t.act(gm, "Start a session") is None
        t.check("session")
        # The sides the form suggests: the players' characters against the GM's.
        sides = form(gm, "Open a conflict").locator('[name="sides"]').input_value()
        assert sides == "heroes: alice cara; opposition: dan", sides
        assert t.act(gm, "Open a conflict") is None
        t.check("opened")
        play_first_round(t)
        # Round 2: the NPC gives up rather than pay for another round: ann gets her goal (and
        # Dan's Resolve goes to 0), and with one side left in, the conflict is over. Every
        # page still shows how it ended.
        assert "Dan cedes" in offered(gm)
        assert t.act(gm, "Dan cedes") is None
        t.check("ceded")
        for page in t.seats.values():
            panel = page.locator("#conflict-c1")
            assert "Conflict c1 (ended)" in panel.inner_text()
            assert "achieved 'Dan backs down'" in panel.inner_text()  # its outcome, for each
            told = panel.text_content() or ""  # the rest, folded under it
            assert 'goal reached: alice against dan: "Dan backs down"' in told
            assert "result: side heroes is the only one still in" in told
            assert panel.locator("form.action").count() == 0
        # The GM ends a conflict by hand too: the next scuffle, before anyone states a goal.
        assert t.act(gm, "Open a conflict") is None
        t.settle()
        assert t.act(gm, "End the conflict", result="Dan slips away") is None
        t.settle()
        for page in t.seats.values():
            assert page.locator("#conflict-c1").count() == 0
            ended = page.locator("#conflict-c2")
            assert "Ended: Dan slips away" in ended.inner_text()  # the GM's words, on top
            assert "result: Dan slips away" in (ended.text_content() or "")
        assert t.act(gm, "End the session") is None
        t.check("ended", axe=True)
        assert "Start a session" in offered(gm)


def play_first_round(t: Campaign) -> None:
    gm, ann, bob = t.seats["gm"], t.seats["ann"], t.seats["bob"]
    goal = t.act(ann, "State Alice's goal", text="Dan backs down", against="dan", ability="resolve")
    assert goal is None
    helping = t.act(
        bob, "State Cara's goal", text="Distract Dan", kind="helping", ally="alice", die="d8"
    )
    assert helping is None
    assert t.act(gm, "State Dan's goal", text="Alice is beaten", against="alice") is None
    t.check("goals")
    # Helping goes first: the GM's difficulty pool against the helper (d2 x4, three made
    # d8s), the helper's pool, its roll against the difficulty's.
    assert "Buy Alice's pool" not in offered(ann)
    assert t.act(gm, "Difficulty pool against Cara", replace=3) is None
    assert t.act(bob, "Buy Cara's pool") is None
    t.check("helper bought")
    assert t.act(bob, "Roll Cara's pool") is None
    t.check("helper rolled")
    # What the helping roll gave (a situation die for ann) or cost (a penalty die for bob):
    # in sight on every page, since they count in later rolls.
    with opened(str(t.cwd / "t.db")) as store, state.reading(store, "pub") as folded:
        special = {
            key: [f"{d.kind} d{d.size} x{d.uses}" for d in folded.state.characters[key].special]
            for key in ("alice", "cara")
        }
    for page in t.seats.values():
        for key, dice in special.items():
            row = page.locator("#characters tbody tr", has_text=key.title()).inner_text()
            assert all(die in row for die in dice), (key, dice, row)
    # Pools: ann buys one extra die (1 + 1 = 2 Intensity), hidden from the others.
    before = t.intensity("gm", "Alice")
    assert t.act(ann, "Buy Alice's pool", extras="brawl") is None
    t.check("alice bought")
    assert "(cost 2)" in ann.locator("#conflict-c1").inner_text()
    for who in ("gm", "bob"):
        assert (
            "pool alice: bought, hidden until rolled"
            in t.seats[who].locator("#conflict-c1").inner_text()
        )
        assert t.intensity(who, "Alice") == before, who  # as before the hidden price
    assert int(t.intensity("ann", "Alice")) == int(before) - 2
    assert t.act(gm, "Buy Dan's pool") is None
    t.check("pools bought", axe=True)
    if SHOTS:
        phone_shot(bob, "#characters", Path(SHOTS) / "web-phone-beer-run.png")
    assert t.act(ann, "Roll Alice's pool") is None
    t.check("alice rolled")
    assert t.act(gm, "Roll Dan's pool") is None
    t.check("rolled")
    # Effects: whoever the round waits for spends its pips, the upper hand first.
    targets = {"Alice": "resolve", "Dan": "health"}
    for _ in range(4):
        owed = [
            (page, title)
            for page in t.seats.values()
            for title in offered(page)
            if ": allocate " in title
        ]
        if not owed:
            break
        page, title = owed[0]
        by = title.split(":")[0]
        pips = int(title.split(": allocate ")[1].split(" ")[0])
        assert t.act(page, title, **{f"pips.{targets[by]}": pips}) is None, title
        t.check(f"{by} allocated")
    for page in t.seats.values():
        assert not [x for x in offered(page) if ": allocate " in x]


def operator_view(cwd: Path) -> dict[str, Any]:
    with opened(str(cwd / "t.db")) as store:
        return show(store, "pub", "c1", None).view
