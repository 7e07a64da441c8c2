"""Managed decks (rules/improv.md §2, §7): shuffled, dealt, played, redrawn, refilled, replayed.

Every test runs on a real SQLite file. Shuffles are injected: `Stacked` puts chosen cards on top
of the deck for each successive shuffle call (the rest in a seeded order), so a test knows what
every hand and every draw will be. Decks are shuffled in sorted deck-name order at session start
(`gm` before `player:...`/`players`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import TablelogError
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import fold
from tablelog.rulesets.improv.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DeckShuffled,
    FateCardDrawn,
    FateChosen,
    FateResolved,
    RoundRevealed,
    TokenSpent,
)
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules import decks as deck_module
from tablelog.rulesets.improv.rules.cards import full_deck
from tablelog.rulesets.improv.rules.state import ImprovState
from tablelog.rulesets.improv.views.views import hand_view, state_view
from tablelog.storage import EventStore, open_store
from tests.unit.improv.table import unsalted

CAMPAIGN = "t"


class Stacked:
    """A shuffle whose n-th call puts `tops[n]` on top, in that order; the rest seeded."""

    def __init__(self, *tops: Sequence[str], seed: int = 7) -> None:
        self.tops = [list(t) for t in tops]
        self.rng = random.Random(seed)
        self.calls: list[list[str]] = []

    def __call__(self, cards: list[str]) -> list[str]:
        self.calls.append(list(cards))
        top = self.tops.pop(0) if self.tops else []
        rest = list(cards)
        for card in top:
            rest.remove(card)
        self.rng.shuffle(rest)
        return top + rest


def seeded(seed: int = 7) -> Any:
    rng = random.Random(seed)
    return lambda cards: rng.sample(cards, len(cards))


class Table:
    """One managed campaign on its own SQLite file."""

    def __init__(self, path: Path, shuffle: Any, **options: str) -> None:
        self.path = path
        self.store: EventStore = open_store(str(path), create=True)
        self.shuffle = shuffle
        create_campaign(
            self.store, CAMPAIGN, ruleset="improv", options={"deck_mode": "managed", **options}
        )

    def do(self, command: c.Command) -> list[Any]:
        """Execute; the events it appended, decoded (random salts cleared, see `unsalted`)."""
        envelopes = execute(self.store, CAMPAIGN, command, ruleset="improv", shuffle=self.shuffle)
        return [unsalted(e.event()) for e in envelopes]

    def refused(self, command: c.Command) -> TablelogError:
        before = self.log()
        with pytest.raises(TablelogError) as caught:
            execute(self.store, CAMPAIGN, command, ruleset="improv", shuffle=self.shuffle)
        assert self.log() == before, "a refused command wrote something"
        return caught.value

    def log(self) -> list[Envelope]:
        return self.store.read(CAMPAIGN)

    def events(self) -> list[Any]:
        return [e.event() for e in self.log()]

    @property
    def state(self) -> ImprovState:
        state: ImprovState = campaign_state(self.store, CAMPAIGN).state
        return state

    def hand(self, owner: str) -> list[str]:
        return list(self.state.hands.get(owner, []))

    def draw_pile(self, deck: str) -> list[str]:
        return list(self.state.decks[deck].draw)

    def discards(self, deck: str) -> list[str]:
        return list(self.state.decks[deck].discard)


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Any]:
    tables: list[Table] = []

    def _make(shuffle: Any = None, *, players: int = 1, **options: str) -> Table:
        table = Table(tmp_path / f"t{len(tables)}.db", shuffle or seeded(), **options)
        tables.append(table)
        for player, character in PEOPLE[:players]:
            table.do(c.CreateCharacter(player=player, character=character, talents=["brawler"]))
        return table

    yield _make
    for table in tables:
        table.store.close()


PEOPLE = [("Bob", "Kit"), ("Sue", "Diana"), ("Ann", "Jason")]


def simple(table: Table, conflict: str = "c1", *, sides: Sequence[str] = ("Kit",)) -> None:
    """Open a simple conflict: GM stake `riso`, each named protagonist opposing it."""
    table.do(c.OpenConflict(conflict=conflict))
    table.do(c.SetStake(conflict=conflict, side="riso", text="Riso keeps the bar", gm=True))
    for side in sides:
        table.do(c.SetStake(conflict=conflict, side=side, text="wins", opposes="riso"))


def census(state: ImprovState, deck: str) -> Counter[str]:
    """Every card belonging to `deck`: draw pile, discards, hands, cards on the table, piles."""
    found = Counter(state.decks[deck].draw) + Counter(state.decks[deck].discard)
    for owner, hand in state.hands.items():
        if state.deck_of(owner) == deck:
            found.update(hand)
    for conflict in state.conflicts.values():
        if conflict.status != "open":
            continue
        for side in conflict.sides.values():
            found.update(p.card for p in side.victory if p.deck == deck)
        for rnd in conflict.rounds:
            for key, play in rnd.plays.items():
                if key in rnd.settled:
                    continue
                side = conflict.sides[key]
                owner = "gm" if side.gm else side.player or "gm"
                if (play.deck or state.deck_of(owner)) == deck:
                    found[play.card] += 1
    return found


def of_type(events: Sequence[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def sides_draws(drawn: Sequence[FateCardDrawn]) -> dict[str, list[str]]:
    """Each side's tie-breaker cards, in the order it drew them."""
    found: dict[str, list[str]] = {}
    for d in drawn:
        found.setdefault(d.side, []).append(d.card)
    return found


def without(cards: Sequence[str], *gone: str) -> list[str]:
    rest = list(cards)
    for card in gone:
        rest.remove(card)
    return rest


# --- dealing --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3])
def test_session_start_shuffles_and_deals_full_hands_from_the_stored_orders(
    make: Any, players: int
) -> None:
    calls: list[list[str]] = []
    shuffle = seeded(11)

    def recording(cards: list[str]) -> list[str]:
        calls.append(list(cards))
        return list(shuffle(cards))

    table = make(recording, players=players)
    events = table.do(c.StartSession())
    shuffled = of_type(events, DeckShuffled)
    assert [(s.deck, s.reason) for s in shuffled] == [("gm", "session"), ("players", "session")]
    assert calls == [full_deck(), full_deck()]  # each deck a fresh 54-card deck
    for s in shuffled:
        assert Counter(s.order) == Counter(full_deck())
    orders = {s.deck: s.order for s in shuffled}
    # The stored orders are what the log holds, byte for byte, and what the deck became.
    stored = [unsalted(e) for e in table.events() if isinstance(e, DeckShuffled)]
    assert stored == shuffled
    state = table.state
    gm_size = 3 + players
    assert state.hands["gm"] == orders["gm"][:gm_size]
    assert state.decks["gm"].draw == orders["gm"][gm_size:]
    keys = sorted(p.lower() for p, _ in PEOPLE[:players])
    for index, player in enumerate(keys):
        assert state.hands[player] == orders["players"][4 * index : 4 * index + 4]
    assert state.decks["players"].draw == orders["players"][4 * players :]
    assert [(d.deck, d.owner, d.reason) for d in of_type(events, CardsDrawn)] == [
        ("gm", "gm", "session"),
        *[("players", p, "session") for p in keys],
    ]
    for deck in ("gm", "players"):
        assert census(state, deck) == Counter(full_deck())
        assert state.decks[deck].discard == []
    assert hand_view(state, keys[0]) == {
        "cards": state.hands[keys[0]],
        "deck": 54 - 4 * players,
        "discard": 0,
    }


def test_a_new_session_shuffles_fresh_decks_and_deals_new_hands(make: Any) -> None:
    table = make(Stacked(["AS", "KS", "QS"], ["2C", "3C", "4C", "5C"], ["9H"], ["8D"]), players=1)
    table.do(c.StartSession())
    simple(table)
    table.do(c.PlayCard(conflict="c1", side="Kit", card="2C"))
    table.do(c.PlayCard(conflict="c1", side="riso", card="AS"))
    table.do(c.Reveal(conflict="c1"))
    table.do(c.Close(conflict="c1"))
    table.do(c.EndSession())
    events = table.do(c.StartSession())
    assert [s.reason for s in of_type(events, DeckShuffled)] == ["session", "session"]
    state = table.state
    assert state.hands["gm"][0] == "9H"
    assert state.hands["bob"][0] == "8D"
    assert (len(state.hands["gm"]), len(state.hands["bob"])) == (4, 4)
    for deck in ("gm", "players"):
        assert state.decks[deck].discard == []
        assert census(state, deck) == Counter(full_deck())


# --- playing from the hand ------------------------------------------------------------------


def test_playing_a_card_removes_it_from_the_hand(make: Any) -> None:
    table = make(players=2)
    table.do(c.StartSession())
    simple(table, sides=["Kit", "Diana"])
    bob, sue, gm = table.hand("bob"), table.hand("sue"), table.hand("gm")
    players_pile = table.draw_pile("players")
    card = bob[2]
    [played] = table.do(c.PlayCard(conflict="c1", side="kit", card=card.lower()))
    assert played == CardPlayed(conflict="c1", round=1, side="kit", card=card)
    assert table.hand("bob") == without(bob, card)
    assert table.draw_pile("players") == players_pile  # nothing drawn
    table.do(c.PlayCard(conflict="c1", side="riso", card=gm[0]))
    assert table.hand("gm") == gm[1:]
    assert table.hand("sue") == sue


def test_a_card_not_in_the_hand_is_refused_and_nothing_is_written(make: Any) -> None:
    table = make(players=2)
    table.do(c.StartSession())
    simple(table, sides=["Kit"])
    bob, sue, gm = table.hand("bob"), table.hand("sue"), table.hand("gm")
    elsewhere = next(card for card in full_deck() if card not in bob)
    error = table.refused(c.PlayCard(conflict="c1", side="Kit", card=elsewhere))
    assert error.code == "not-in-hand"
    # Sue's card is not Bob's, and a GM card is not in Bob's hand either.
    assert table.refused(c.PlayCard(conflict="c1", side="Kit", card=sue[0])).code == "not-in-hand"
    not_gms = next(card for card in full_deck() if card not in gm)
    assert table.refused(c.PlayCard(conflict="c1", side="riso", card=not_gms)).code == (
        "not-in-hand"
    )
    # Managed mode still needs a card named; a player may not play blind.
    assert table.refused(c.PlayCard(conflict="c1", side="Kit")).code == "card-required"
    assert table.refused(c.PlayCard(conflict="c1", side="Kit", from_deck=True)).code == (
        "player-blind"
    )
    # A card already played has left the hand.
    table.do(c.PlayCard(conflict="c1", side="Kit", card=bob[0]))
    table.do(c.PlayCard(conflict="c1", side="riso", card=gm[0]))
    table.do(c.Reveal(conflict="c1"))
    table.do(c.Close(conflict="c1"))
    simple(table, "c2", sides=["Kit"])
    assert bob[0] not in table.hand("bob")
    assert table.refused(c.PlayCard(conflict="c2", side="Kit", card=bob[0])).code == "not-in-hand"
    assert table.refused(c.PlayCard(conflict="c2", side="riso", card=gm[0])).code == "not-in-hand"
    assert (table.hand("bob")[:3], table.hand("sue")) == (bob[1:], sue)


def test_the_gm_from_deck_plays_the_gm_decks_top_card(make: Any) -> None:
    table = make(players=1)
    table.do(c.StartSession())
    simple(table)
    gm_hand, gm_pile = table.hand("gm"), table.draw_pile("gm")
    error = table.refused(c.PlayCard(conflict="c1", side="riso", card=gm_hand[0], from_deck=True))
    assert error.code == "blind"
    [played] = table.do(c.PlayCard(conflict="c1", side="riso", from_deck=True))
    assert played == CardPlayed(
        conflict="c1", round=1, side="riso", card=gm_pile[0], from_deck=True, deck="gm"
    )
    assert table.hand("gm") == gm_hand
    assert table.draw_pile("gm") == gm_pile[1:]
    bob = table.hand("bob")
    table.do(c.PlayCard(conflict="c1", side="Kit", card=bob[0]))
    [revealed, *_] = table.do(c.Reveal(conflict="c1"))
    assert revealed.cards == {"riso": gm_pile[0], "kit": bob[0]}
    assert gm_pile[0] in table.discards("gm")
    assert bob[0] in table.discards("players")
    closed = table.do(c.Close(conflict="c1"))
    # The GM's hand never shrank: only Bob draws back up.
    refills = of_type(closed, CardsDrawn)
    assert [(d.deck, d.owner, d.reason, len(d.cards)) for d in refills] == [
        ("players", "bob", "refill", 1)
    ]
    assert table.hand("gm") == gm_hand
    assert census(table.state, "gm") == Counter(full_deck())


# --- redraw ---------------------------------------------------------------------------------


def test_a_players_redraw_spends_a_token_out_of_play_and_replaces_the_cards(make: Any) -> None:
    table = make(players=2)
    table.do(c.StartSession())
    assert table.refused(c.Redraw(player="Bob", cards=[table.hand("bob")[0]])).code == "no-token"
    table.do(c.Award(giver="Sue", receiver="Bob"))
    bob, pile = table.hand("bob"), table.draw_pile("players")
    ledger = table.state.ledger
    before = (ledger.players["bob"], ledger.out_of_play, ledger.pool, ledger.total())
    assert before[0] == 1
    elsewhere = next(card for card in full_deck() if card not in bob)
    error = table.refused(c.Redraw(player="Bob", cards=[bob[0], elsewhere]))
    assert error.code == "not-in-hand"
    events = table.do(c.Redraw(player="bob", cards=[bob[1], bob[3].lower()]))
    assert events[0] == TokenSpent(
        player="bob", to="out_of_play", purpose="redraw", cards=[bob[1], bob[3]]
    )
    assert of_type(events, CardsDiscarded) == [
        CardsDiscarded(owner="bob", cards=[bob[1], bob[3]], reason="redraw")
    ]
    assert of_type(events, CardsDrawn) == [
        CardsDrawn(deck="players", owner="bob", cards=pile[:2], reason="redraw")
    ]
    assert table.hand("bob") == [bob[0], bob[2], *pile[:2]]
    assert table.draw_pile("players") == pile[2:]
    assert table.discards("players") == [bob[1], bob[3]]
    ledger = table.state.ledger
    assert (ledger.players["bob"], ledger.out_of_play, ledger.pool, ledger.total()) == (
        0,
        before[1] + 1,
        before[2],
        before[3],
    )
    assert census(table.state, "players") == Counter(full_deck())


def test_the_gms_redraw_sends_its_token_to_the_pool(make: Any) -> None:
    table = make(players=1)
    table.do(c.StartSession())
    gm, pile = table.hand("gm"), table.draw_pile("gm")
    ledger = table.state.ledger
    gm_tokens, pool = ledger.gm, ledger.pool
    events = table.do(c.Redraw(player="gm", cards=[gm[0]]))
    assert events[0] == TokenSpent(player="gm", to="pool", purpose="redraw", cards=[gm[0]])
    assert table.hand("gm") == [*gm[1:], pile[0]]
    assert table.discards("gm") == [gm[0]]
    ledger = table.state.ledger
    assert (ledger.gm, ledger.pool) == (gm_tokens - 1, pool + 1)
    assert len(table.hand("bob")) == 4


# --- Hand of Fate ---------------------------------------------------------------------------


def test_an_exact_tie_draws_tie_breakers_from_each_sides_deck_until_they_differ(
    make: Any,
) -> None:
    # GM deck: hand 7H 2C 3C 4C, then tie-breakers 9S, 2S. Players deck: hand 7H 5D 6D 8D,
    # then tie-breakers 9S (another exact tie: draw again) and KD.
    table = make(
        Stacked(["7H", "2C", "3C", "4C", "9S", "2S"], ["7H", "5D", "6D", "8D", "9S", "KD"]),
        players=1,
    )
    table.do(c.StartSession())
    simple(table)
    table.do(c.PlayCard(conflict="c1", side="Kit", card="7H"))
    table.do(c.PlayCard(conflict="c1", side="riso", card="7H"))
    events = table.do(c.Reveal(conflict="c1"))
    revealed = events[0]
    assert isinstance(revealed, RoundRevealed)
    assert revealed.ties == [["kit", "riso"]]
    assert revealed.beats == []
    drawn = of_type(events, FateCardDrawn)
    assert sides_draws(drawn) == {"kit": ["9S", "KD"], "riso": ["9S", "2S"]}
    assert all(d.deck == ("gm" if d.side == "riso" else "players") for d in drawn)
    [resolved] = of_type(events, FateResolved)
    assert (resolved.winner, resolved.loser) == ("kit", "riso")
    assert resolved.draws == [["9S", "9S"], ["KD", "2S"]]
    state = table.state
    conflict = state.conflicts["c1"]
    assert conflict.beats == [("kit", "riso")]
    assert conflict.rounds[0].fate.pending == []
    # The tie-breakers left the decks' tops and were discarded with the played cards.
    assert Counter(state.decks["gm"].discard) == Counter(["7H", "9S", "2S"])
    assert Counter(state.decks["players"].discard) == Counter(["7H", "9S", "KD"])
    assert not {"9S", "2S"} & set(state.decks["gm"].draw)
    assert not {"9S", "KD"} & set(state.decks["players"].draw)
    assert table.hand("bob") == ["5D", "6D", "8D"]
    assert table.refused(c.Fate(conflict="c1", side="Kit", draw="2C")).code == "fate-managed"
    for deck in ("gm", "players"):
        assert census(state, deck) == Counter(full_deck())
    table.do(c.Close(conflict="c1"))
    assert len(table.hand("bob")) == 4
    assert table.state.conflicts["c1"].status == "closed"


def test_a_talent_can_make_an_exact_tie_from_the_dealt_hands(make: Any) -> None:
    # Kit's 4H + talent (+3) = 7 against the GM's 7H: equal totals, same suit.
    table = make(Stacked(["7H", "2C", "3C", "4C", "QC"], ["4H", "5D", "6D", "8D", "JD"]))
    table.do(c.StartSession())
    simple(table)
    table.do(c.PlayCard(conflict="c1", side="Kit", card="4H"))
    table.do(c.PlayCard(conflict="c1", side="riso", card="7H"))
    table.do(c.PlaceBonus(conflict="c1", on="Kit", talent="brawler"))
    events = table.do(c.Reveal(conflict="c1"))
    assert events[0].totals == {"kit": 7, "riso": 7}
    assert events[0].ties == [["kit", "riso"]]
    drawn = of_type(events, FateCardDrawn)
    assert sides_draws(drawn) == {"kit": ["JD"], "riso": ["QC"]}
    assert all(d.deck == ("gm" if d.side == "riso" else "players") for d in drawn)
    [resolved] = of_type(events, FateResolved)
    assert (resolved.winner, resolved.loser) == ("riso", "kit")  # bonuses ignored: Q > J


def test_a_tie_breaker_that_reshuffles_keeps_the_revealed_cards(make: Any) -> None:
    # GM hand 53 of 54 cards: one card left in the GM deck. (Regression: the first
    # implementation reshuffled only the older discards, and the revealed 7H vanished.)
    gm_order = ["7H", *without(full_deck(), "7H")]
    table = make(Stacked(gm_order, ["7H", "3C", "4C", "5C"]), gm_hand_base="52")
    table.do(c.StartSession())
    simple(table)
    table.do(c.PlayCard(conflict="c1", side="Kit", card="3C"))
    table.do(c.PlayCard(conflict="c1", side="riso", card="2C"))
    table.do(c.Reveal(conflict="c1"))
    table.do(c.Close(conflict="c1"))  # the GM draws the last card: draw pile empty, 2C discarded
    assert (table.draw_pile("gm"), table.discards("gm")) == ([], ["2C"])
    simple(table, "c2")
    table.do(c.PlayCard(conflict="c2", side="Kit", card="7H"))
    table.do(c.PlayCard(conflict="c2", side="riso", card="7H"))
    events = table.do(c.Reveal(conflict="c2"))  # exact tie; the GM deck must reshuffle
    [reshuffle] = [e for e in of_type(events, DeckShuffled) if e.deck == "gm"]
    assert Counter(reshuffle.order) == Counter(["2C", "7H"])  # both discards, incl. the 7H
    assert census(table.state, "gm") == Counter(full_deck())


def test_a_gm_stake_tied_with_two_protagonists_resolves_both_ties(make: Any) -> None:
    # Kit 4H + talent = 7, Diana 7H, Riso 7H: two exact ties against Riso. The protagonists'
    # first tie-breakers are 9S and KD (in whichever order they draw), Riso's 9S: one pair is
    # decided (KD beats 9S), the other ties again and draws once more: 2C against Riso's 3C.
    # (Regression: the first implementation never resolved either pair and stuck the conflict.)
    table = make(
        Stacked(
            ["7H", "2D", "3D", "4D", "5D", "9S", "3C"],
            ["4H", "5S", "6S", "8S", "7H", "5H", "6H", "8H", "9S", "KD", "2C"],
        ),
        players=2,
    )
    table.do(c.StartSession())
    simple(table, sides=["Kit", "Diana"])
    table.do(c.PlayCard(conflict="c1", side="Kit", card="4H"))
    table.do(c.PlayCard(conflict="c1", side="Diana", card="7H"))
    table.do(c.PlayCard(conflict="c1", side="riso", card="7H"))
    table.do(c.PlaceBonus(conflict="c1", on="Kit", talent="brawler"))
    events = table.do(c.Reveal(conflict="c1"))
    assert events[0].ties == [["kit", "riso"], ["diana", "riso"]]
    drawn = of_type(events, FateCardDrawn)
    by_side = sides_draws(drawn)
    assert by_side["riso"] == ["9S", "3C"]  # one draw per attempt, counting in both pairs
    lucky = "kit" if by_side["kit"] == ["KD"] else "diana"
    unlucky = "diana" if lucky == "kit" else "kit"
    assert (by_side[lucky], by_side[unlucky]) == (["KD"], ["9S", "2C"])
    assert all(d.deck == ("gm" if d.side == "riso" else "players") for d in drawn)
    resolved = {(r.winner, r.loser): r.draws for r in of_type(events, FateResolved)}
    assert resolved == {
        (lucky, "riso"): [["KD", "9S"]],
        ("riso", unlucky): [["9S", "9S"], ["3C", "2C"]],
    }
    state = table.state
    assert state.conflicts["c1"].rounds[0].fate.pending == []
    assert set(state.conflicts["c1"].beats) == {(lucky, "riso"), ("riso", unlucky)}
    for deck in ("gm", "players"):
        assert census(state, deck) == Counter(full_deck())
    table.do(c.Close(conflict="c1"))
    assert {o: len(h) for o, h in table.state.hands.items()} == {"gm": 5, "bob": 4, "sue": 4}


def destroyed_kit(table: Table) -> None:
    """An extended conflict of 2 rounds in which Kit loses two Hands of Fate: destroyed."""
    table.do(c.StartSession())
    table.do(c.OpenConflict(conflict="fight", extended=True, rounds=2))
    table.do(c.SetStake(conflict="fight", side="riso", text="Riso wins", gm=True))
    table.do(c.SetStake(conflict="fight", side="Kit", text="Kit wins", opposes="riso"))
    for card in ("7H", "8H"):
        table.do(c.PlayCard(conflict="fight", side="Kit", card=card))
        table.do(c.PlayCard(conflict="fight", side="riso", card=card))
        events = table.do(c.Reveal(conflict="fight"))
        assert [(r.winner, r.loser) for r in of_type(events, FateResolved)] == [("riso", "kit")]
        if card == "7H":
            table.do(c.Fate(conflict="fight", side="Kit", choice="stay"))
        else:  # the second loss destroys at once, in the reveal's events
            assert [(e.side, e.outcome) for e in of_type(events, FateChosen)] == [
                ("kit", "destroyed")
            ]
    kit = table.state.conflicts["fight"].sides["kit"]
    assert (kit.status, kit.victory) == ("destroyed", [])


def test_a_destroyed_side_without_victory_cards_gives_its_decks_top_card(make: Any) -> None:
    # Ties 7H/7H and 8H/8H; Kit's tie-breakers 2C, 3C lose to the GM's AS, AH.
    table = make(
        Stacked(["7H", "8H", "4D", "5D", "AS", "AH"], ["7H", "8H", "4C", "5C", "2C", "3C"])
    )
    destroyed_kit(table)
    top = table.draw_pile("players")[0]
    [given] = table.do(c.Give(conflict="fight", giver="Kit", receiver="riso", random=True))
    assert (given.card, given.random) == (top, True)
    state = table.state
    assert [p.card for p in state.conflicts["fight"].sides["riso"].victory] == ["7H", "8H", top]
    assert top not in state.decks["players"].draw
    assert census(state, "players") == Counter(full_deck())
    table.do(c.Close(conflict="fight"))
    assert top in table.discards("players")  # back to its own deck, not the GM's
    for deck in ("gm", "players"):
        assert census(table.state, deck) == Counter(full_deck())


def test_a_random_gift_from_an_empty_deck_records_the_reshuffle(make: Any) -> None:
    # Bob holds 52 of the players' cards; the two left are Kit's tie-breakers, so the players'
    # draw pile is empty when the destroyed Kit gives a random card.
    players_order = ["7H", "8H", *without(full_deck(), "7H", "8H", "2C", "3C"), "2C", "3C"]
    table = make(Stacked(["7H", "8H", "4D", "5D", "AS", "AH"], players_order), player_hand="52")
    destroyed_kit(table)
    assert table.draw_pile("players") == []
    events = table.do(c.Give(conflict="fight", giver="Kit", receiver="riso", random=True))
    assert [(e.deck, e.reason) for e in of_type(events, DeckShuffled)] == [("players", "reshuffle")]
    assert census(table.state, "players") == Counter(full_deck())


# --- refills and reshuffles -----------------------------------------------------------------


def test_no_refill_between_rounds_and_a_full_hand_for_every_player_at_close(make: Any) -> None:
    table = make(players=3)
    table.do(c.StartSession())
    table.do(c.OpenConflict(conflict="fight", extended=True, rounds=2))
    table.do(c.SetStake(conflict="fight", side="riso", text="Riso wins", gm=True))
    table.do(c.SetStake(conflict="fight", side="Kit", text="Kit wins", opposes="riso"))
    table.do(c.SetStake(conflict="fight", side="Diana", text="Diana wins", opposes="riso"))
    # Jason (Ann) is a bystander.
    for _round in (1, 2):
        hands = {o: table.hand(o) for o in ("bob", "sue", "gm")}
        table.do(c.PlayCard(conflict="fight", side="Kit", card=hands["bob"][0]))
        table.do(c.PlayCard(conflict="fight", side="Diana", card=hands["sue"][0]))
        table.do(c.PlayCard(conflict="fight", side="riso", card=hands["gm"][0]))
        events = table.do(c.Reveal(conflict="fight"))
        assert of_type(events, CardsDrawn) == []
        for d in of_type(events, FateCardDrawn):  # exact ties are possible with two decks
            assert d.deck == ("gm" if d.side == "riso" else "players")
        # A Hand of Fate loser chooses to stay in so the second round can be played.
        for side in table.state.conflicts["fight"].rounds[-1].fate.choices_due:
            table.do(c.Fate(conflict="fight", side=side, choice="stay"))
    state = table.state
    assert (len(state.hands["bob"]), len(state.hands["sue"]), len(state.hands["gm"])) == (2, 2, 4)
    assert len(state.hands["ann"]) == 4
    piles = {k: [p.card for p in s.victory] for k, s in state.conflicts["fight"].sides.items()}
    pile_cards = Counter(card for cards in piles.values() for card in cards)
    players_pile, gm_pile = table.draw_pile("players"), table.draw_pile("gm")
    events = table.do(c.Close(conflict="fight"))
    refills = of_type(events, CardsDrawn)
    assert [(d.deck, d.owner, d.reason) for d in refills] == [
        ("players", "bob", "refill"),
        ("gm", "gm", "refill"),
        ("players", "sue", "refill"),
    ]
    assert refills[1].cards == gm_pile[:2]
    assert refills[0].cards + refills[2].cards == players_pile[:4]
    state = table.state
    assert {o: len(h) for o, h in state.hands.items()} == {"gm": 6, "bob": 4, "sue": 4, "ann": 4}
    # The victory piles went back to their decks' discards at the end.
    discarded = Counter(state.decks["gm"].discard) + Counter(state.decks["players"].discard)
    assert not pile_cards - discarded
    for deck in ("gm", "players"):
        assert census(state, deck) == Counter(full_deck())


def test_a_deck_that_runs_out_reshuffles_its_own_discards(make: Any) -> None:
    # Bob holds 53 of the players' 54 cards: one left to draw.
    players_order = ["2C", "3C", *without(full_deck(), "2C", "3C", "9D"), "9D"]
    table = make(Stacked(["AS", "KS", "QS", "JS"], players_order), player_hand="53")
    table.do(c.StartSession())
    assert table.draw_pile("players") == ["9D"]
    table.do(c.OpenConflict(conflict="fight", extended=True, rounds=2))
    table.do(c.SetStake(conflict="fight", side="riso", text="Riso wins", gm=True))
    table.do(c.SetStake(conflict="fight", side="Kit", text="Kit wins", opposes="riso"))
    for card, gm_card in (("2C", "AS"), ("3C", "KS")):  # Kit loses both rounds: discards
        table.do(c.PlayCard(conflict="fight", side="Kit", card=card))
        table.do(c.PlayCard(conflict="fight", side="riso", card=gm_card))
        table.do(c.Reveal(conflict="fight"))
    assert table.discards("players") == ["2C", "3C"]
    assert [p.card for p in table.state.conflicts["fight"].sides["riso"].victory] == ["AS", "KS"]
    gm_pile = table.draw_pile("gm")
    events = table.do(c.Close(conflict="fight"))
    kinds = [(type(e).__name__, getattr(e, "deck", None)) for e in events[1:]]
    assert kinds == [
        ("CardsDrawn", "players"),
        ("DeckShuffled", "players"),
        ("CardsDrawn", "players"),
        ("CardsDrawn", "gm"),
    ]
    first, reshuffle, second, gm_refill = events[1:]
    assert (gm_refill.owner, gm_refill.cards) == ("gm", gm_pile[:2])
    assert first.cards == ["9D"]
    assert reshuffle.reason == "reshuffle"
    assert Counter(reshuffle.order) == Counter(["2C", "3C"])
    assert second.cards == reshuffle.order[:1]
    state = table.state
    assert len(state.hands["bob"]) == 53
    assert state.decks["players"].draw == reshuffle.order[1:]
    assert state.decks["players"].discard == []
    # The GM's victory pile went to the GM discards; nothing left the GM deck for good.
    assert Counter(state.decks["gm"].discard) == Counter(["AS", "KS"])
    for deck in ("gm", "players"):
        assert census(state, deck) == Counter(full_deck())


def test_the_gm_deck_reshuffles_for_a_blind_play_when_it_runs_out(make: Any) -> None:
    table = make(gm_hand_base="50")  # 1 player: the GM holds 51, 3 cards left
    table.do(c.StartSession())
    blind: list[str] = []
    for number in range(1, 5):
        conflict = f"c{number}"
        simple(table, conflict)
        events = table.do(c.PlayCard(conflict=conflict, side="riso", from_deck=True))
        shuffles = of_type(events, DeckShuffled)
        if number < 4:
            assert shuffles == []
        else:
            [shuffle] = shuffles
            assert (shuffle.deck, shuffle.reason) == ("gm", "reshuffle")
            assert Counter(shuffle.order) == Counter(blind)
            assert events[-1].card == shuffle.order[0]
        blind.append(events[-1].card)
        table.do(c.PlayCard(conflict=conflict, side="Kit", card=table.hand("bob")[0]))
        table.do(c.Reveal(conflict=conflict))
        table.do(c.Close(conflict=conflict))
        assert census(table.state, "gm") == Counter(full_deck())


# --- per-player decks -----------------------------------------------------------------------


def test_per_player_decks_each_player_draws_from_their_own_deck(make: Any) -> None:
    table = make(
        Stacked(
            ["6H", "2C", "3C", "4C", "5C", "QS"],  # gm: 3 + 2 players, then a tie-breaker
            ["6H", "2D", "3D", "4D", "KH"],  # player:bob
            ["AS", "2H", "3H", "4H", "5H", "6H"],  # player:sue
        ),
        players=2,
        player_decks="per_player",
    )
    events = table.do(c.StartSession())
    assert [s.deck for s in of_type(events, DeckShuffled)] == ["gm", "player:bob", "player:sue"]
    state = table.state
    assert state.hands == {
        "gm": ["6H", "2C", "3C", "4C", "5C"],
        "bob": ["6H", "2D", "3D", "4D"],
        "sue": ["AS", "2H", "3H", "4H"],
    }
    assert "players" not in state.decks
    for deck in ("gm", "player:bob", "player:sue"):
        assert census(state, deck) == Counter(full_deck())
    simple(table, sides=["Kit", "Diana"])
    table.do(c.PlayCard(conflict="c1", side="Kit", card="6H"))
    table.do(c.PlayCard(conflict="c1", side="Diana", card="AS"))
    table.do(c.PlayCard(conflict="c1", side="riso", card="6H"))
    events = table.do(c.Reveal(conflict="c1"))
    assert sorted((d.side, d.card, d.deck) for d in of_type(events, FateCardDrawn)) == [
        ("kit", "KH", "player:bob"),
        ("riso", "QS", "gm"),
    ]
    assert table.discards("player:bob") == ["6H", "KH"]
    assert table.discards("player:sue") == ["AS"]
    events = table.do(c.Close(conflict="c1"))
    assert sorted((d.deck, d.owner) for d in of_type(events, CardsDrawn)) == [
        ("gm", "gm"),
        ("player:bob", "bob"),
        ("player:sue", "sue"),
    ]
    assert table.hand("sue") == ["2H", "3H", "4H", "5H"]
    table.do(c.Award(giver="Bob", receiver="Sue"))
    sue_pile = table.draw_pile("player:sue")
    bob_pile = table.draw_pile("player:bob")
    events = table.do(c.Redraw(player="Sue", cards=["2H"]))
    assert of_type(events, CardsDrawn) == [
        CardsDrawn(deck="player:sue", owner="sue", cards=sue_pile[:1], reason="redraw")
    ]
    assert table.draw_pile("player:bob") == bob_pile
    assert table.discards("player:sue") == ["AS", "2H"]
    for deck in ("gm", "player:bob", "player:sue"):
        assert census(table.state, deck) == Counter(full_deck())


# --- replay ---------------------------------------------------------------------------------


def test_a_replay_after_reopening_gives_the_same_hands_and_never_shuffles(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make(players=2)
    table.do(c.StartSession())
    table.do(c.Award(giver="Sue", receiver="Bob"))
    table.do(c.Redraw(player="Bob", cards=table.hand("bob")[:2]))
    simple(table, sides=["Kit", "Diana"])
    table.do(c.PlayCard(conflict="c1", side="Kit", card=table.hand("bob")[-1]))
    table.do(c.PlayCard(conflict="c1", side="Diana", card=table.hand("sue")[0]))
    table.do(c.PlayCard(conflict="c1", side="riso", from_deck=True))
    table.do(c.Reveal(conflict="c1"))
    table.do(c.Close(conflict="c1"))
    table.do(c.OpenConflict(conflict="fight", extended=True, rounds=2))
    table.do(c.SetStake(conflict="fight", side="riso", text="Riso wins", gm=True))
    table.do(c.SetStake(conflict="fight", side="Kit", text="Kit wins", opposes="riso"))
    table.do(c.PlayCard(conflict="fight", side="Kit", card=table.hand("bob")[0]))
    table.do(c.PlayCard(conflict="fight", side="riso", card=table.hand("gm")[0]))
    table.do(c.Reveal(conflict="fight"))
    live = table.state
    live_view = state_view(live)
    live_hands = {owner: list(cards) for owner, cards in live.hands.items()}
    live_decks = {name: (list(d.draw), list(d.discard)) for name, d in live.decks.items()}
    table.store.close()

    def no_shuffle(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a replay shuffled")

    monkeypatch.setattr(deck_module.DeckWork, "__init__", no_shuffle)
    monkeypatch.setattr(random.Random, "shuffle", no_shuffle)
    monkeypatch.setattr(random.Random, "sample", no_shuffle)
    store = open_store(str(table.path))
    try:
        replayed = fold(store.read(CAMPAIGN)).state
        again = campaign_state(store, CAMPAIGN).state
    finally:
        store.close()
    for state in (replayed, again):
        assert state.hands == live_hands
        assert {n: (d.draw, d.discard) for n, d in state.decks.items()} == live_decks
        assert state.ledger == live.ledger
        assert state_view(state) == live_view
    # Bob played in the open extended round (no refill yet); Sue was refilled at c1's close.
    assert {o: len(h) for o, h in replayed.hands.items()} == {"gm": 4, "bob": 3, "sue": 4}


def test_hidden_fields_are_salted_and_the_salt_is_hidden_with_them(make: Any) -> None:
    """A face-down card's hash must not give the card away: 54 codes are quickly tried, so
    the event carries random salt, which the service hides along with the card."""
    from tablelog.projections.fold import fold
    from tablelog.projections.registry import redact, views_for

    table = make(players=2)
    table.do(c.StartSession())
    simple(table, sides=["Kit", "Diana"])
    card = table.hand("bob")[0]
    table.do(c.PlayCard(conflict="c1", side="kit", card=card))
    stored = [e.event() for e in table.store.read(CAMPAIGN)]
    salts = [getattr(e, "salt", None) for e in stored if e.hidden]
    assert salts
    assert all(isinstance(s, str) and len(s) == 32 for s in salts)
    assert len(set(salts)) == len(salts)  # fresh for every event
    played = [e for e in stored if isinstance(e, CardPlayed)][-1]
    state = fold(table.store.read(CAMPAIGN)).state
    shown = redact(views_for("improv"), played, "sue", state)
    assert shown is not None
    assert (shown["card"], shown["salt"]) == (None, None)
    assert redact(views_for("improv"), played, "bob", state) is None  # its owner sees it all
