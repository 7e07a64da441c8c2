"""Issue 29: a whole Night Terrors campaign from pages alone, after `tablelog serve`.

The admin creates the campaign (a managed deck: hands are hidden; `cannot_see=free`, so that
a push and an escalation can be played whatever the shuffle deals), the GM invites ann (a
desktop) and bob (a 360x740 phone), each player creates their own character, the GM starts
a session and a scene, bob refreshes his hand, ann opens a melee conflict: raises, a see
with three cards whose fallout bob pays in Sweat or Blood, an escalation to guns (everyone
draws), a push, a give; ann narrates her win. A new scene makes whoever holds more than 4
discard down; the GM opens a second conflict and abandons it, ends the scene and the
session. At every stage no page holds a card of a hand it may not see (read from the
log), nothing is cut off on the phone; axe-core finds nothing serious at the start,
mid-conflict and at the end.
"""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path
from typing import Any

from tablelog.commands import state
from tablelog.commands.database import opened
from tablelog.commands.reads import log_items
from tablelog.rulesets.night_terrors.rules.cards import is_face, judge, single
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState
from tablelog.rulesets.night_terrors.views.page_panels import pretty
from tests.e2e.browser import act, chromium, form, head_seq, offered, settled
from tests.e2e.campaign_pages import Table, holds_none_of, nothing_cut_off, seat_table
from tests.e2e.phone_fit import boxes_fit
from tests.e2e.test_web_browser import check_accessibility
from tests.support.server import running_service

CAMPAIGN = "night"
SHOTS = os.environ.get("TABLELOG_SCREENSHOTS")  # the docs folder, to refresh the README's


class Night:
    """The pages, and the log they must agree with."""

    def __init__(self, cwd: Path, table: Table) -> None:
        self.cwd, self.t = cwd, table
        self.owner = {"alice": "desk", "bob": "phone"}

    def state(self) -> NightTerrorsState:
        with opened(str(self.cwd / "t.db")) as store, state.reading(store, CAMPAIGN) as folded:
            found: NightTerrorsState = folded.state
            return found

    def settle(self) -> NightTerrorsState:
        seq = head_seq(self.cwd / "t.db", CAMPAIGN)
        for page in self.t.everyone().values():
            settled(page, seq)
        return self.state()

    def shown_ever(self) -> set[str]:
        """Every card the log has shown the whole table (an observer's log: cards raised,
        seen, spent or discarded face up). A card shown once may later be reshuffled into
        someone's hand, where it is hidden again; the page may still tell its earlier
        showing, which gives nothing of the hand away."""
        with opened(str(self.cwd / "t.db")) as store:
            items = log_items(store, CAMPAIGN, viewer="observer:watcher")
        words = {w for item in items for w in re.findall(r"[\w♠♥♦♣]+", item.line)}
        return words

    def hand(self, key: str) -> list[str]:
        return list(self.state().characters[key].hand)

    def check(self, *, axe: bool = False) -> NightTerrorsState:
        """Every page at the head: no hand but one's own, nothing cut off on the phone."""
        now = self.settle()
        public = {ch.rank + ch.suit for ch in now.characters.values()}  # who each one is
        public |= self.shown_ever()
        for conflict in now.conflicts.values():
            for exchange in conflict.exchanges:
                public.update(exchange.raised.cards)
                for answer in exchange.answers:
                    public.update(answer.cards)
        for who, page in self.t.everyone().items():
            hidden = {
                card
                for key, ch in now.characters.items()
                if self.owner.get(key) != who
                for card in ch.hand
            } - public
            faces = {card for card in hidden if is_face(card)}
            holds_none_of(
                page, sorted({c for c in hidden - faces} | {pretty(c) for c in hidden - faces})
            )
            free_faces(page, faces)
        nothing_cut_off(self.t.phone)
        boxes_fit(self.t.phone)  # a conflict's table too: under 600 px, a card per side
        if axe:
            check_accessibility(self.t.everyone())
        return now

    def title(self, page: Any, start: str) -> str:
        found = [t for t in offered(page) if t.startswith(start)]
        assert len(found) == 1, (start, sorted(offered(page)))
        return found[0]

    def pay_all(self, key: str) -> None:
        """The costs `key` owes, each paid from its page with the form's own split."""
        page = getattr(self.t, self.owner[key])
        while self.state().costs.get(key):
            name = self.state().characters[key].display
            assert act(page, self.title(page, f"{name} pays")) is None
            self.settle()


_IDENTITIES = re.compile(r'<select id="[^"]*CreateCharacter-card".*?</select>', re.S)


def free_faces(page: Any, faces: set[str]) -> None:
    """`holds_none_of` for face cards: the character forms list every face card nobody is
    yet (an identity to choose, whoever holds that card), so their choices are left out."""
    html = _IDENTITIES.sub("", page.content())
    for code in faces:
        for shown in (code, pretty(code)):
            pattern = re.compile(rf"(?<![\w]){re.escape(shown)}(?![\w])")
            assert not pattern.search(html), (page.url, shown)


def cheapest(hand: list[str], now: NightTerrorsState, sizes: str, *, push: bool) -> list[str]:
    """Cards of `hand` answering the raise on the table at the least cost (so that no pool
    empties, whatever the shuffle dealt): a see that meets it (3 cards: the middle card's
    fallout), or a push short of it; as many cards as the first of `sizes` that can."""
    raised = next(c for c in now.conflicts.values() if c.status == "open").exchanges[-1].raised
    answers: list[tuple[int, list[str]]] = []
    for size, cards in ((int(n), c) for n in sizes for c in itertools.combinations(hand, int(n))):
        if answers and len(answers[0][1]) != size:
            break
        judged = judge(
            list(cards),
            raised.value,
            raised.trump_value,
            raised.trump_at_raise,
            push,
            now.options,
        )
        if (judged.total < raised.value) == push:
            answers.append((judged.cost, list(cards)))
    assert answers, (hand, raised)
    return min(answers)[1]


def lowest(hand: list[str], now: NightTerrorsState, count: int) -> list[str]:
    return sorted(hand, key=lambda c: single(c, now.options))[:count]


def test_a_night_terrors_campaign_from_pages_alone(tmp_path: Path) -> None:
    with running_service("t.db", tmp_path) as _url, chromium() as browser:
        table = seat_table(
            browser,
            tmp_path,
            CAMPAIGN,
            "night-terrors",
            options={"deck": "managed", "cannot_see": "free"},
        )
        night = Night(tmp_path, table)
        gm, ann, bob = table.gm, table.desk, table.phone
        # Characters: each player their own, from their page.
        assert "Create your character" in offered(ann)
        assert act(ann, "Create your character", character="Alice", card="KS") is None
        assert act(bob, "Create your character", character="Bob", card="QH") is None
        night.check(axe=True)
        assert act(gm, "Start a session (hands dealt)") is None
        night.check()
        # (`title` is act's own argument: the scene's title is typed in first.)
        form(gm, "Start a scene (hands reset)").locator('[name="title"]').fill("The cellar")
        assert act(gm, "Start a scene (hands reset)") is None
        night.check()
        # A refresh: bob discards one card and draws back up to 4.
        refresh = night.hand("bob")[:1]
        assert act(bob, "Bob refreshes (discard any, draw back up)", cards=refresh[0]) is None
        now = night.check()
        assert len(now.characters["bob"].hand) == 4
        # Ann opens a melee conflict (trump Clubs): both draw 4.
        opened_by = act(
            ann,
            "Open a conflict",
            aggressor="alice",
            others="bob",
            kind="melee",
            stakes="the ledger",
        )
        assert opened_by is None
        now = night.check()
        assert [len(now.characters[k].hand) for k in ("alice", "bob")] == [8, 8]
        # Alice raises low; Bob sees with three cards and pays the middle card's fallout.
        low = lowest(night.hand("alice"), now, 2)
        assert act(ann, "Alice raises", cards=" ".join(low), narration="Alice swings") is None
        now = night.check()
        seeing = cheapest(night.hand("bob"), now, "342", push=False)
        assert act(bob, "Bob sees the raise", cards=" ".join(seeing)) is None
        now = night.check(axe=True)  # mid-conflict: a cost owed, every form out
        if SHOTS:  # the phone's first screen, as bob sees it opening the page
            bob.evaluate("() => window.scrollTo(0, 0)")
            bob.screenshot(path=Path(SHOTS) / "web-phone-night-terrors.png")
        answered = now.conflicts["c1"].exchanges[-1].answers[-1]
        assert answered.outcome in ("heavy_see", "see", "reversal"), answered
        before = now.characters["bob"].pools()
        night.pay_all("bob")
        now = night.check()
        paid = answered.fallout + answered.trump_fallout
        assert sum(before.values()) - sum(now.characters["bob"].pools().values()) == paid
        # Bob raises next; Alice escalates to guns (everyone draws), then pushes.
        low = lowest(night.hand("bob"), now, 2)
        assert act(bob, "Bob raises", cards=" ".join(low)) is None
        night.check()
        assert act(ann, "Alice escalates (everyone draws)", to="guns") is None
        now = night.check()
        assert now.conflicts["c1"].trump == "S"
        short = cheapest(night.hand("alice"), now, "10", push=True)
        pushed = act(ann, "Alice pushes (pays the difference)", cards=" ".join(short))
        assert pushed is None
        night.check()
        night.pay_all("alice")
        # Alice raises; Bob gives (a guarded step), and Alice, left alone, wins and narrates.
        now = night.check()
        assert act(ann, "Alice raises", cards=" ".join(lowest(night.hand("alice"), now, 2))) is None
        night.check()
        assert act(bob, "Bob gives (leaves the conflict)") is None
        now = night.check()
        assert now.conflicts["c1"].status == "ended"
        assert now.conflicts["c1"].winners == ["alice"]
        assert act(ann, "Alice narrates the outcome", text="Alice keeps the ledger.") is None
        night.check()
        for page in table.everyone().values():
            # (in the story of the ended conflict, folded under its outcome)
            assert "Alice keeps the ledger." in str(page.locator("#conflict-c1").text_content())
        # A new scene: above 4 discards down, below 4 draws up.
        assert act(gm, "End the scene") is None
        night.check()
        assert act(gm, "Start a scene (hands reset)") is None
        now = night.check()
        for key, page in (("alice", ann), ("bob", bob)):
            owed = now.discards.get(key)
            if owed:
                name = now.characters[key].display
                cards = " ".join(night.hand(key)[:owed])
                assert act(page, f"{name} discards down to 4", cards=cards) is None
                now = night.check()
        assert all(len(ch.hand) == 4 for ch in now.characters.values())
        # The GM opens a second conflict and abandons it; the scene and session end.
        assert act(gm, "Open a conflict", aggressor="bob", others="alice", kind="talk") is None
        night.check()
        assert act(gm, "Abandon the conflict (nobody wins)", reason="the lights went out") is None
        now = night.check()
        assert now.conflicts["c2"].status == "ended"
        assert act(gm, "End the scene") is None
        assert act(gm, "End the session") is None
        now = night.check(axe=True)
        assert not now.table.session_open
