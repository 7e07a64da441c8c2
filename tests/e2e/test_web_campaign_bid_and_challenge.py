"""Issue 29: a whole Bid & Challenge campaign from pages alone, after `tablelog serve`.

The admin creates the campaign (managed dice), the GM invites ann (a desktop) and bob (a
360x740 phone); each registers their own character's deck, the GM adds a universe card and
starts a session; ann asks for a scene. Round 1: Anna bids defining a detail, Ben takes the
challenge with a card of his own and the universe's Storm, Anna pushes, Anna rolls, the
winner narrates. Round 2: Ben bids striking one of Anna's cards, Anna passes the challenge
(the bid succeeds unrolled), Ben narrates. Then Anna and Ben pass in a row and the scene
ends; the GM ends the session. Nothing is hidden in this ruleset, so at every stage each page
must show what the rules make public (each seat's cards in Play, the rolls, every
character's zones, the universe deck, the details), as the log has it; nothing is cut off
on the phone; axe-core finds nothing serious at the start, mid-scene and at the end.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tablelog.commands import state
from tablelog.commands.database import opened
from tablelog.rulesets.bid_and_challenge.events import Zone
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Holder
from tests.e2e.browser import act, chromium, head_seq, offered, settled
from tests.e2e.campaign_pages import Table, nothing_cut_off, seat_table
from tests.e2e.phone_fit import boxes_fit
from tests.e2e.test_web_browser import check_accessibility
from tests.support.server import running_service

CAMPAIGN = "keep"
SHOTS = os.environ.get("TABLELOG_SCREENSHOTS")  # the docs folder, to refresh the README's


class Keep:
    """The pages, and the log they must agree with."""

    def __init__(self, cwd: Path, table: Table) -> None:
        self.cwd, self.t = cwd, table

    def state(self) -> BidAndChallengeState:
        with opened(str(self.cwd / "t.db")) as store, state.reading(store, CAMPAIGN) as folded:
            found: BidAndChallengeState = folded.state
            return found

    def check(self, *, axe: bool = False) -> BidAndChallengeState:
        """Every page at the head shows what is public as the log has it; nothing cut off
        on the phone."""
        seq = head_seq(self.cwd / "t.db", CAMPAIGN)
        for page in self.t.everyone().values():
            settled(page, seq)
        now = self.state()
        for who, page in self.t.everyone().items():
            shows_public(who, page, now)
        nothing_cut_off(self.t.phone)
        boxes_fit(self.t.phone)
        if axe:
            check_accessibility(self.t.everyone())
        return now


def _names(holder: Holder, zone: Zone) -> str:
    cards = holder.cards
    return ", ".join(f"{cards[k].name} {value(holder, k)}" for k in holder.in_zone(zone)) or "—"


def value(holder: Holder, key: str) -> str:
    card = holder.cards[key]
    mod = f"+{card.mod}" if card.mod > 0 else (str(card.mod) if card.mod else "")
    return f"{card.dice}d6{mod}"


def shows_public(who: str, page: Any, now: BidAndChallengeState) -> None:
    """Every character's Flow and zones and the universe deck, in the Characters and Universe
    panels; in an open scene, each committed card face up in its seat's row, and the rolls."""
    rows = page.locator("#characters tbody tr")
    assert rows.count() == len(now.characters), who
    for ch in now.characters.values():
        row = page.locator("#characters tbody tr", has_text=ch.name).inner_text()
        zones: tuple[Zone, ...] = ("deck", "play", "discard")
        for zone in zones:
            assert _names(ch, zone) in row, (who, ch.name, zone, row)
    universe = page.locator("#universe").inner_text()
    assert _names(now.universe, "deck") in universe, (who, universe)
    for key, detail in now.details.items():
        assert detail.text in page.locator("#details").inner_text(), (who, key)
    for scene in now.open_scenes():
        panel = page.locator(f"#conflict-{scene.key}")
        rnd = scene.current
        committed: dict[str, list[tuple[Holder, str]]] = {}
        if rnd.bid is not None:
            owner = now.characters[rnd.active]
            pushed = rnd.push.cards if rnd.push else []
            committed[rnd.active] = [(owner, k) for k in [*rnd.bid.cards, *pushed]]
        if rnd.challenge is not None:
            owner = now.characters[rnd.challenge.challenger]
            committed[rnd.challenge.challenger] = [
                (owner if c.source == "own" else now.universe, c.card_id)
                for c in rnd.challenge.cards
            ]
        for key, cards in committed.items():
            row = panel.locator("tbody tr", has_text=now.characters[key].name)
            faces = row.locator(".card").all_inner_texts()
            for holder, card in cards:
                shown = f"{holder.cards[card].name} {value(holder, card)}"
                assert any(shown in face for face in faces), (who, key, shown, faces)
            assert row.locator(".card.back").count() == 0, (who, key)
        for roll in rnd.rolls.values():
            assert f"= {roll.total}" in panel.inner_text(), (who, roll)


def test_a_bid_and_challenge_campaign_from_pages_alone(tmp_path: Path) -> None:
    with running_service("t.db", tmp_path) as _url, chromium() as browser:
        table = seat_table(
            browser, tmp_path, CAMPAIGN, "bid-and-challenge", options={"dice": "managed"}
        )
        keep = Keep(tmp_path, table)
        gm, ann, bob = table.gm, table.desk, table.phone
        # Decks: each player their own, from their page; the GM's universe card.
        assert "Register your character's deck" in offered(bob)
        deck = "Brawn: 1d6+2\nSword: 1d6+1\nQuick Wits: 1d6\nPersuade: 1d6+1\nBody: 1d6"
        register = "Register your character's deck"
        assert act(ann, register, character="Anna", flow=3, cards=deck) is None
        deck = "Dodge: 1d6+1\nSneak: 1d6\nMind: 1d6"
        assert act(bob, register, character="Ben", flow=2, cards=deck) is None
        gm_card = {"card.name": "Storm", "card.value": "1d6"}
        assert act(gm, "Add a universe card", **gm_card) is None
        keep.check(axe=True)
        assert act(gm, "Start a session") is None
        keep.check()
        # Ann asks for a scene: Anna, then Ben, clockwise.
        scene = {"seating": "anna ben", "requested_by": "anna", "premise": "The old keep's gate"}
        assert act(ann, "Start a scene", **scene) is None
        now = keep.check()
        (key,) = now.scenes
        # Round 1: a bid defining a detail, a challenge with a universe card, a push, a roll.
        detail = {"power.detail": "gate-open", "power.text": "The gate stands open"}
        bid = act(
            ann,
            "Anna bids: define a detail",
            description="I force the gate",
            cards="Brawn\nSword",
            **detail,
        )
        assert bid is None
        keep.check()
        assert offered(bob) >= {"Ben challenges", "Ben passes the challenge"}
        challenge = act(
            bob, "Ben challenges", description="The storm slams it", cards="Dodge", universe="Storm"
        )
        assert challenge is None
        keep.check()
        assert act(ann, "Anna pushes", description="I wedge it", cards="Quick Wits") is None
        now = keep.check(axe=True)  # mid-scene: every card in Play, the roll to come
        if SHOTS:  # the phone's first screen, as bob sees it opening the page
            bob.evaluate("() => window.scrollTo(0, 0)")
            bob.screenshot(path=Path(SHOTS) / "web-phone-bid-and-challenge.png")
        assert act(ann, "Roll the dice") is None
        now = keep.check()
        resolved = now.scenes[key].rounds[0].resolved
        assert resolved is not None
        winner = {"anna": ann, "ben": bob}[resolved.winner]
        name = now.characters[resolved.winner].name
        assert act(winner, f"{name} narrates round 1 (won)", text=f"{name} has the gate.") is None
        now = keep.check()
        for page in table.everyone().values():
            assert f"{name} has the gate." in page.locator(f"#conflict-{key}").inner_text()
            # The live region says it once, ending the typed sentence with no second period.
            said = page.locator("#live").inner_text()
            assert f"{name} has the gate." in said, said
            assert "gate.." not in said, said
        # Round 2: Ben strikes one of Anna's cards; Anna lets it go unchallenged.
        struck = now.characters["anna"].cards[now.characters["anna"].in_zone("deck")[0]].name
        strike = {"power.target": "anna", "power.cards": struck}
        assert (
            act(
                bob, "Ben bids: strike a card", description="Into the moat", cards="Sneak", **strike
            )
            is None
        )
        keep.check()
        assert act(ann, "Anna passes the challenge") is None
        now = keep.check()
        anna = now.characters["anna"]
        assert struck in [anna.cards[k].name for k in anna.in_zone("discard")]
        assert act(bob, "Ben narrates round 2 (won)", text="Anna's gear sinks.") is None
        keep.check()
        # Every seat with a Deck passes in a row: the scene ends.
        assert act(ann, "Anna passes") is None
        now = keep.check()
        assert "passes in a row 1 of 2" in " ".join(
            gm.locator(f"#conflict-{key} .facts").inner_text().split()
        )
        assert act(bob, "Ben passes") is None
        now = keep.check()
        assert now.scenes[key].status == "ended"
        for page in table.everyone().values():
            assert f"Scene {key} (ended)" in page.locator(f"#conflict-{key}").inner_text()
        assert act(gm, "End the session") is None
        now = keep.check(axe=True)
        assert not now.table.session_open
