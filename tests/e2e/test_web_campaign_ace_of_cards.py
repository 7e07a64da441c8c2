"""Issue 29: a whole Ace of Cards campaign from pages alone, after `tablelog serve`.

The admin creates the campaign on the admin page (managed deck and dice, so every hand is
hidden; `don_miss=fumble`, so a Double or Nothing that rolls no critical is a critical
failure and opens High or Low whatever the dice show); the GM invites ann (a desktop) and
bob (a 360x740 phone); each builds an Ace (character, class and deck, skills) on their own
page. The GM starts a session and opens a conflict against a goblin, and every kind of step
the ruleset has is taken from the page: actions, the goblin's action and bob's Trap Card on
it with its free spell, ann's set matching no effect (refused, then previewed and cancelled),
her Mulligan, her Magic Pair and its free attack, Double or Nothing declared on it and
rolled, High or Low's draw and discard, a Check the GM calls for bob, HP and MP changes, the
conflict's end and the session's. The cards the test plays are read from the database (the
operator's view): the hands are random.

At every stage no page holds a hand not its own (a card's code, unless the same code is
face up or in the viewer's own hand: each Ace's deck has the same 30 codes), and another
Ace's hand shows card backs only; axe-core finds nothing serious at the start, mid-conflict
and at the end; the phone's page is never wider than the phone. With TABLELOG_SCREENSHOTS
set to a folder (the docs), the phone's page mid-conflict is saved there.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablelog.commands.state import reading
from tablelog.rulesets.ace_of_cards.rules.cards import is_joker, suit_of, value_of
from tablelog.rulesets.ace_of_cards.rules.state import AceState
from tablelog.storage import open_store
from tests.e2e.browser import act, chromium, form, head_seq, offered, settled
from tests.e2e.campaign_pages import Table, holds_none_of, nothing_cut_off, seat_table
from tests.e2e.test_web_browser import check_accessibility
from tests.support.server import running_service

CAMPAIGN = "aces"
SHOTS = os.environ.get("TABLELOG_SCREENSHOTS")  # the docs folder: the phone's page goes there
SKILLS = {"magic-cards": 2, "mulligan": 3, "trap-card": 2, "double-or-nothing": 1, "high-or-low": 1}


@dataclass
class Cards:
    """One Ace's cards as the operator sees them (the database)."""

    hand: list[str]
    deck: list[str]
    discard: list[str]
    suit_types: dict[str, str]


@dataclass
class Game:
    """The pages, and the database to read what they must not show."""

    table: Table
    db: Path
    store: Any
    face_up: set[str] = field(default_factory=set)  # every code shown face up so far

    @contextmanager
    def state(self) -> Iterator[AceState]:
        with reading(self.store, CAMPAIGN) as folded:
            yield folded.state

    def cards(self) -> dict[str, Cards]:
        with self.state() as state:
            return {
                key: Cards(
                    hand=list(who.pile.hand),
                    deck=list(who.pile.deck),
                    discard=list(who.pile.discard),
                    suit_types=dict(who.suit_types or {}),
                )
                for key, who in state.characters.items()
                if who.pile is not None
            }

    def settle(self) -> None:
        seq = head_seq(self.db, CAMPAIGN)
        for page in self.table.everyone().values():
            settled(page, seq)

    def check(self, *, axe: bool = False) -> None:
        """Every page as of the head: no hand but one's own, nothing past the phone's edge."""
        self.settle()
        piles = self.cards()
        for pile in piles.values():
            self.face_up.update(pile.discard)
        own = {"gm": "", "desk": "kit", "phone": "nia"}
        for who, page in self.table.everyone().items():
            mine = set(piles[own[who]].hand) if own[who] in piles else set()
            others = {key: p for key, p in piles.items() if key != own[who]}
            hidden = {card for p in others.values() for card in p.hand}
            holds_none_of(page, sorted(hidden - mine - self.face_up))
            for key, pile in others.items():  # in the conflict's grid: card backs only
                name = f'.card[aria-label^="{key.capitalize()}\'s hand"]'
                assert page.locator(name + ":not(.back)").count() == 0, (who, key)
                assert page.locator(name + ".back").count() == len(pile.hand), (who, key)
        nothing_cut_off(self.table.phone)
        if axe:
            check_accessibility(self.table.everyone())

    def done(self, page: Any, title: str, **values: str | bool | int) -> None:
        """Send the form `title` on `page` once the page has caught up, and see it taken."""
        refused = self.send(page, title, **values)
        assert refused is None, (title, refused)

    def send(self, page: Any, title: str, **values: str | bool | int) -> str | None:
        """Send the form `title` on `page` once the page has caught up: the refusal, or None."""
        settled(page, head_seq(self.db, CAMPAIGN))
        return act(page, title, **values)


def conflict(page: Any) -> str:
    return str(page.locator("#conflict-c1").inner_text())


def pair_plan(hand: list[str], deck: list[str]) -> tuple[list[str], list[str]]:
    """A Mulligan (the fewest cards, at least 1) after which the hand holds a Magic Pair, and
    that pair. Within 3 cards there always is one: a hand of 5 values leaves 2 values it
    lacks, so one of the deck's first 3 cards matches a card or a joker comes."""
    for count in range(1, SKILLS["mulligan"] + 1):
        for out in itertools.combinations(hand, count):
            kept = [card for card in hand if card not in out] + deck[:count]
            pair = magic_pair(kept)
            if pair:
                return list(out), pair
    raise AssertionError(f"no Magic Pair within a Mulligan of 3: {hand} then {deck[:3]}")


def magic_pair(cards: list[str]) -> list[str]:
    plain = [card for card in cards if not is_joker(card)]
    for a, b in itertools.combinations(plain, 2):
        if value_of(a) == value_of(b):
            return [a, b]
    jokers = [card for card in cards if is_joker(card)]
    if jokers and plain:
        return [plain[0], jokers[0]]
    return jokers[:2] if len(jokers) == 2 else []


def no_effect_set(hand: list[str]) -> list[str]:
    """Two cards of different values: a set that matches no effect."""
    plain = [card for card in hand if not is_joker(card)]
    for a, b in itertools.combinations(plain, 2):
        if value_of(a) != value_of(b):
            return [a, b]
    raise AssertionError(f"every card of {hand} has one value")


def test_a_whole_ace_of_cards_campaign_from_pages_alone(tmp_path: Path) -> None:
    started = time.monotonic()
    with running_service("t.db", tmp_path) as _url, chromium() as browser:
        table = seat_table(
            browser, tmp_path, CAMPAIGN, "ace-of-cards", options={"don_miss": "fumble"}
        )
        for page in (table.admin, *table.everyone().values()):
            page.set_default_timeout(10_000)
        store = open_store(str(tmp_path / "t.db"))
        game = Game(table=table, db=tmp_path / "t.db", store=store)
        try:
            build_aces(game)
            open_conflict(game)
            play(game)
            end(game)
        finally:
            store.close()
    assert time.monotonic() - started < 90


def build_aces(game: Game) -> None:
    """Each player makes their Ace on their own page: the character, the class and its
    deck (the free benefit +5 MP), the skills (one refused above the campaign's cap)."""
    t = game.table
    for page, name in ((t.desk, "Kit"), (t.phone, "Nia")):
        assert offered(page) == {"Create your character"}
        game.done(page, "Create your character", character=name, hp=40, mp=35)
        game.done(page, f"Take the Ace of Cards class for {name} (its deck)", benefit="mp")
        refused = game.send(page, "Set a skill level", skill="magic-cards", sl=4)
        assert refused is not None
        assert "3" in refused, refused
        for skill, sl in SKILLS.items():
            game.done(page, "Set a skill level", skill=skill, sl=sl)
    game.settle()
    with game.state() as state:
        for key in ("kit", "nia"):
            who = state.characters[key]
            assert (who.max_mp, who.mp, who.cards is not None) == (40, 40, True)
            assert {k.replace("_", "-"): v for k, v in who.skills.items()} == SKILLS
    game.done(t.gm, "Start a session")
    game.check(axe=True)


def open_conflict(game: Game) -> None:
    t = game.table
    game.done(t.gm, "Open a conflict", party="kit nia", enemies="Goblin", conflict="c1")
    game.check()
    assert len(t.desk.locator(".card.mine").all()) >= 5
    piles = game.cards()
    assert len(piles["kit"].hand) == len(piles["nia"].hand) == 5


def play(game: Game) -> None:
    t = game.table
    game.done(t.desk, "Kit acts", text="draws her cards with a flourish")
    # The goblin acts; bob answers with a Trap Card on the suit of his deck's bottom card
    # (read from the database: a hit), and casts the free spell it allows.
    game.done(t.gm, "An enemy acts", actor="goblin", text="throws a spear at Nia")
    nia = game.cards()["nia"]
    bottom = nia.deck[-1]
    suit = "C" if is_joker(bottom) else suit_of(bottom)
    game.done(t.phone, "Trap Card: Nia names a suit", suit=suit)
    game.settle()
    assert "a hit" in conflict(t.phone)
    assert "Nia's free spell (Trap Card hit)" in offered(t.phone)
    game.done(t.phone, "Nia's free spell (Trap Card hit)", spell="Frost needle", mp=10)
    game.check()
    for page in t.everyone().values():
        assert "nia casts Frost needle for free (10 MP paid)" in conflict(page)
    # A set matching no effect: refused with the rules' sentence, then, with "play it
    # anyway" ticked, the guard's preview says what it does, and ann cancels.
    kit = game.cards()["kit"]
    nothing = no_effect_set(kit.hand)
    title = next(f for f in offered(t.desk) if f.startswith("Magic Cards: Kit resolves a set"))
    if magic_pair(kit.hand):  # else the title says at once that no set matches an effect
        assert title == "Magic Cards: Kit resolves a set"
    magic = form(t.desk, title)
    refused = game.send(t.desk, title, mp=10, cards=" ".join(nothing))
    assert refused is not None
    assert "matches no effect" in refused, refused
    seq = head_seq(game.db, CAMPAIGN)
    magic.locator('[name="anyway"]').set_checked(True)
    magic.locator("button[type=submit]").click()
    guard = t.desk.locator("dialog#guard")
    guard.wait_for(state="visible")
    said = guard.inner_text()
    assert "no effect" in said, said
    t.desk.locator("#guard-no").click()
    guard.wait_for(state="hidden")
    assert head_seq(game.db, CAMPAIGN) == seq  # nothing was sent
    # A Mulligan that leaves a Magic Pair in the hand (the deck's order is the database's).
    out, pair = pair_plan(kit.hand, kit.deck)
    game.done(t.desk, "Mulligan: Kit discards and draws as many", cards=" ".join(out))
    game.check()
    assert all(card in game.cards()["kit"].hand for card in pair)
    plain = next(card for card in pair if not is_joker(card))
    values: dict[str, str | bool | int] = {"mp": 10, "cards": " ".join(pair)}
    jokers = [card for card in pair if is_joker(card)]
    if jokers:
        values["jokers"] = " ".join(f"{j}={value_of(plain)}{suit_of(plain)}" for j in jokers)
    values["damage_type"] = kit.suit_types[suit_of(plain)]
    game.done(t.desk, "Magic Cards: Kit resolves a set", **values)
    game.check()
    assert "-> Magic Pair" in conflict(t.phone)
    with game.state() as state:
        assert state.characters["kit"].free_attack is not None
        assert state.characters["kit"].mp == 30
    # The pair's free attack, Double or Nothing declared on it, then rolled.
    game.done(
        t.desk,
        "Magic Pair: Kit's free attack (an Accuracy Check)",
        dice="8 10",
        dl=9,
        damage=5,
        target="goblin",
    )
    game.settle()
    check = "k1"
    game.done(t.desk, f"Double or Nothing on Kit's check {check}")
    game.settle()
    if SHOTS:  # the phone's page mid-conflict, down to its first form
        top = t.phone.locator("#conflict-c1 form.action").first.evaluate(
            "e => e.getBoundingClientRect().top + window.scrollY"
        )
        t.phone.screenshot(
            path=str(Path(SHOTS) / "web-phone-ace-of-cards.png"),
            full_page=True,
            clip={"x": 0, "y": 0, "width": 360, "height": top - 8},
        )
    game.check(axe=True)
    game.done(t.desk, f"Roll Kit's check {check} (d8 + d10, DL 9)")
    game.settle()
    # A critical doubles the damage; anything else is a critical failure (don_miss=fumble):
    # either way High or Low opens.
    with game.state() as state:
        rolled = state.conflicts["c1"].checks["k1"].values
    assert rolled is not None
    crit = rolled[0] == rolled[1] >= 6
    said = "double or nothing doubles it" if crit else "double or nothing without a critical"
    for page in t.everyone().values():
        assert said in conflict(page)
    assert "High or Low: Kit draws 1 card" in offered(t.desk)
    game.done(t.desk, "High or Low: Kit draws 1 card")
    game.settle()
    discard = game.cards()["kit"].hand[0]
    game.done(t.desk, "High or Low: Kit discards 1 card", card=discard)
    game.check()
    # The GM calls a Clock Check for bob's Nia, which bob rolls on the phone.
    game.done(t.gm, "Call a Check", character="nia", kind="clock", dice="10 10", dl=10)
    game.settle()
    game.done(t.phone, "Roll Nia's check k2 (d10 + d10, DL 10)")
    game.done(t.gm, "Adjust a character's HP", character="kit", delta=-12, reason="the spear")
    game.done(t.gm, "Adjust a character's MP", character="nia", delta=5, reason="an ether")
    game.check()
    with game.state() as state:
        assert state.characters["kit"].hp == 28
        assert state.characters["nia"].mp == 35  # 40 - 10 (free spell) + 5


def end(game: Game) -> None:
    t = game.table
    game.done(t.gm, "End the conflict (every card put away)")
    game.done(t.gm, "End the session")
    game.check(axe=True)
    for page in t.everyone().values():
        assert "Conflict c1 (ended)" in conflict(page)
    assert "Start a session" in offered(t.gm)
    with game.state() as state:
        assert state.open_conflicts() == []
        assert all(who.pile is None for who in state.characters.values())
