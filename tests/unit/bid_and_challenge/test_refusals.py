"""Every command check of rules/bid-and-challenge.md as a row: given a table, the command is
refused with its stable code and one sentence, and nothing is appended (`Table.refuse` checks
the log and its head)."""

from __future__ import annotations

import pytest

from tablelog.rules.common import Command
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tests.unit.bid_and_challenge.table import (
    DECKS,
    DETAIL,
    RECORDED,
    Tables,
    bid,
    cards,
    challenge,
    narrate,
    pass_,
    power,
    push,
    roll,
    seated,
)

SEATED = seated()
CARA_FIRST = seated(start="Cara")
# Anna bid Brawn + Sword (2 cards); Cara is asked first.
BID = [*SEATED, bid("Anna", "Brawn", "Sword")]
# Anna bid Brawn alone; Cara is asked first.
ONE_CARD_BID = [*SEATED, bid("Anna", "Brawn")]
# Cara passed, Ben challenged with Dodge and Storm: Anna may push, or roll.
CHALLENGED = [*BID, pass_("Cara"), challenge("Ben", "Dodge", universe=["Storm"])]
PUSHED = [*CHALLENGED, push("Anna", "QuickWits")]
# Then Ben passed: Anna is active again (Cara's Deck is empty: the turn passes over her).
BEN_ACTIVE = [*PUSHED, roll([4, 2, 1], [5, 6])]  # BC-1 played: QuickWits in Discard; Ben won
ANNA_AGAIN = [*BEN_ACTIVE, pass_("Ben")]
# gate-open defined by Anna's unchallenged bid; Ben is active.
DEFINED = [*SEATED, bid("Anna", "Brawn"), pass_("Cara"), pass_("Ben")]
ENDED = [*SEATED, pass_("Anna"), pass_("Ben")]  # both seats with a Deck passed
DAN = c.RegisterDeck(player="dan", character="Dan", flow=1, cards=cards("Luck:1d6"))
EVE = c.RegisterDeck(player="eve", character="Eve", flow=1, cards=[])  # an empty Deck too
DECKS_ONLY = [*DECKS, DAN]
# Ben won round 1 and narrated it; then the GM ended s1 and s2 started.
NARRATED = [*BEN_ACTIVE, narrate("Ben")]
MOVED_ON = [*BEN_ACTIVE, c.CloseScene(conflict="s1"), DAN,
            c.OpenScene(seating=["Anna", "Dan"], requested_by="Dan")]  # fmt: skip

ROWS: list[tuple[str, list[Command], Command, str, str]] = [
    # name, given, command, code, the sentence (or its start)
    ("bid over Flow", BEN_ACTIVE, bid("Ben", "Dodge", "Sneak", "Mind"),
     "flow-limit", "bid commits 3 cards but ben's Flow is 2"),
    ("bid of no card", SEATED, bid("Anna"), "min-bid",
     "a bid commits at least 1 card (option min_bid); got 0"),
    ("bid out of turn", SEATED, bid("Ben", "Sneak"), "not-active",
     "it is anna's turn to bid or pass; ben is not the active player"),
    ("empty deck bids", CARA_FIRST, bid("Cara", "Storm"), "empty-deck",
     "cara's deck is empty: cara cannot be the active player (cara may still challenge); it is "
     "anna's turn"),
    ("card in Discard", ANNA_AGAIN, bid("Anna", "QuickWits"), "card-not-in-deck",
     "card QuickWits is not in anna's Deck (it is in Discard)"),
    ("unknown card", SEATED, bid("Anna", "Axe"), "unknown-card", "anna has no card 'Axe'"),
    ("card twice", SEATED, bid("Anna", "Brawn", "brawn"), "card-twice",
     "card Brawn is given twice"),
    ("detail redefined", DEFINED, bid("Ben", "Sneak", spec=DETAIL), "detail-defined",
     "detail gate-open was defined by anna; details cannot be redefined"),
    ("detail redefined under another spelling", DEFINED,
     bid("Ben", "Sneak", spec=power("detail", detail="Gate_Open", text="shut")),
     "detail-defined", "detail gate-open was defined by anna; details cannot be redefined "
     "(gate_open is that id: ids that differ only in case or punctuation are one)"),
    ("restore over Flow", ANNA_AGAIN,
     bid("Anna", "Brawn", spec=power("restore", target="Anna", cards=["a", "b", "c", "d"])),
     "restore-limit", "restore power moves at most Flow (3) cards and at least 1; got 4"),
    ("restore from Deck", ANNA_AGAIN,
     bid("Anna", "Brawn", spec=power("restore", target="Anna", cards=["Sword"])),
     "card-not-in-discard", "card Sword is not in anna's Discard (it is in Deck)"),
    ("strike two", SEATED,
     bid("Anna", "Brawn", spec=power("strike", target="Ben", cards=["Dodge", "Mind"])),
     "strike-one", "strike power moves one card from Deck to Discard; got 2"),
    ("strike no target", SEATED, bid("Anna", "Brawn", spec=power("strike", cards=["Dodge"])),
     "no-target", "the strike power names a major character (target)"),
    ("universe card taken", SEATED,
     bid("Anna", "Brawn", spec=power("universe_card", card=cards("storm:2d6")[0])),
     "universe-card-exists", "the universe deck already has a card storm"),
    ("bad card value", SEATED,
     bid("Anna", "Brawn", spec=power("universe_card", card=cards("Fog:2d8")[0])),
     "bad-card-value", "card Fog's value '2d8' is not Nd6+M"),
    ("power with stray fields", SEATED,
     bid("Anna", "Brawn", spec=power("detail", detail="x", text="y", target="Ben")),
     "power-fields", "the detail power takes detail and text; target given too"),
    ("empty description", SEATED, bid("Anna", "Brawn", text="  "), "empty-text",
     "a bid's description must not be empty"),
    ("unknown character", SEATED, bid("Zed", "Brawn"), "unknown-character",
     "there is no character 'Zed'"),
    ("not seated", [*SEATED, DAN], bid("Dan", "Luck"), "not-seated",
     "dan does not sit in scene s1 (seating: anna, ben, cara)"),
    ("bid while the challenge is offered", BID, bid("Anna", "Body"), "wrong-phase",
     "scene s1 round 1 waits for cara to accept or pass the challenge; it is not the time to "
     "bid"),
    ("challenge out of turn", BID, challenge("Ben", "Dodge"), "not-your-turn",
     "it is cara's turn to accept or pass the challenge; not ben's"),
    ("pass out of turn", BID, pass_("Ben"), "not-your-turn",
     "it is cara's turn to accept or pass the challenge; not ben's"),
    # Whatever the round waits for (here the push or the roll), a seat not in the scene is
    # told so first.
    ("pass by a player not seated", [*CHALLENGED, DAN], pass_("Dan"), "not-seated",
     "dan does not sit in scene s1 (seating: anna, ben, cara)"),
    ("challenge by a player not seated", [*BID, DAN], challenge("Dan", "Luck"), "not-seated",
     "dan does not sit in scene s1 (seating: anna, ben, cara)"),
    ("push by a player not seated", [*PUSHED, DAN], push("Dan", "Luck"), "not-seated",
     "dan does not sit in scene s1 (seating: anna, ben, cara)"),
    ("challenge over the bid's count", ONE_CARD_BID,
     challenge("Cara", universe=["Storm", "Crowd"]), "challenge-limit",
     "challenger may commit at most 1 card (the bid's count); got 2"),
    ("challenge with no card", BID, challenge("Cara"), "min-challenge",
     "a challenge commits at least 1 card (own or universe); got 0"),
    ("a universe card as one's own", BID, challenge("Cara", "Storm"), "unknown-card",
     "cara has no card 'Storm' (cards: none); Storm is a universe card, which only a "
     "challenger commits (--universe)"),
    ("unknown universe card", BID, challenge("Cara", universe=["Moon"]), "unknown-card",
     "the universe has no card 'Moon'"),
    ("challenger power off", BID, challenge("Cara", universe=["Storm"], power=DETAIL),
     "challenger-power", "the challenger's win is narrative only (option challenger_power is "
     "false); name no power"),
    ("push by the challenger", CHALLENGED, push("Ben", "Mind"), "only-active",
     "only the active player may push; ben is not anna"),
    ("push over Flow", CHALLENGED, push("Anna", "QuickWits", "Persuade", "Body", "Brawn"),
     "push-limit", "push adds 4 cards but Flow is 3"),
    ("push twice", PUSHED, push("Anna", "Body"), "pushed-twice",
     "anna has pushed already in round 1; roll"),
    ("push before a challenge", BID, push("Anna", "Body"), "wrong-phase",
     "scene s1 round 1 waits for cara to accept or pass the challenge; it is not the time to "
     "push"),
    ("roll before a challenge", SEATED, roll([1], [1]), "wrong-phase",
     "scene s1 round 1 waits for anna to bid or pass; it is not the time to roll"),
    ("too few faces", PUSHED, roll([4, 2], [5, 6]), "faces-count",
     "recorded dice: the active side rolls 3 dice (Brawn 1d6+2, Sword 1d6+1, QuickWits 1d6); "
     "2 faces given"),
    ("one face for three dice", PUSHED, roll([4], [5, 6]), "faces-count",
     "recorded dice: the active side rolls 3 dice (Brawn 1d6+2, Sword 1d6+1, QuickWits 1d6); "
     "1 face given"),
    ("two faces for one die", [*ONE_CARD_BID, pass_("Cara"), challenge("Ben", "Dodge")],
     roll([4, 2], [5]), "faces-count",
     "recorded dice: the active side rolls 1 die (Brawn 1d6+2); 2 faces given"),
    ("impossible face", PUSHED, roll([4, 2, 7], [5, 6]), "bad-face", "a d6 shows 1 to 6; got 7"),
    ("the table expected another winner", PUSHED,
     c.Roll(conflict=None, active_faces=[4, 2, 1], challenger_faces=[5, 6], expect_winner="Anna"),
     "unexpected-result", "the faces give totals 10 (active) and 12 (challenger), so ben 12 "
     "beats anna 10; expected anna to win"),
    ("the table expected other totals", PUSHED,
     c.Roll(conflict=None, active_faces=[4, 2, 1], challenger_faces=[5, 6],
            expect_totals=[10, 11]),
     "unexpected-result", "the faces give totals 10 (active) and 12 (challenger), so ben 12 "
     "beats anna 10; expected totals 10 (active) and 11 (challenger)"),
    ("the table expected one total", PUSHED,
     c.Roll(conflict=None, active_faces=[4, 2, 1], challenger_faces=[5, 6], expect_totals=[10]),
     "bad-values", "the expected totals are two numbers, the active side's and the "
     "challenger's (e.g. 10,12); got 1"),
    ("no such scene", SEATED, c.Pass(conflict="s9", player="Anna"), "unknown-conflict",
     "there is no scene 's9' (scenes: s1)"),
    ("no scene open", DECKS_ONLY, pass_("Anna"), "no-conflict",
     "no bid-and-challenge scene is open; start one with `tablelog bid-and-challenge open "
     "SEAT... --asked-by SEAT` (`tablelog scene start` only frames the table)"),
    ("scene over", ENDED, c.Pass(conflict="s1", player="Anna"), "scene-ended",
     "scene s1 has ended"),
    ("a scene of one", [*DECKS_ONLY], c.OpenScene(seating=["Anna"], requested_by="Anna"),
     "too-few-players", "a scene seats 2 to 40 players"),
    ("a seat twice", [*DECKS_ONLY], c.OpenScene(seating=["Anna", "anna"], requested_by="Anna"),
     "seated-twice", "Anna is seated twice"),
    ("asker not seated", [*DECKS_ONLY], c.OpenScene(seating=["Anna", "Ben"], requested_by="Cara"),
     "not-seated", "the player asking for the scene (cara) must sit in the scene"),
    ("busy in another scene", [*SEATED, DAN],
     c.OpenScene(seating=["Anna", "Dan"], requested_by="Anna"), "busy",
     "Anna already sits in open scene s1"),
    ("a scene where nobody has a Deck", [*DECKS, EVE],
     c.OpenScene(seating=["Cara", "Eve"], requested_by="Cara"), "no-deck",
     "no seated character has a card in Deck (seating: cara, eve): nobody could be the active "
     "player, so the scene cannot start (option empty_deck)"),
    ("scene id taken", ENDED, c.OpenScene(seating=["Anna", "Ben"], requested_by="Anna",
     conflict="S1"), "conflict-exists", "scene s1 already exists"),
    ("death with cards in Deck", SEATED, c.KillCharacter(character="Anna"), "deck-not-empty",
     "anna's Deck holds 5 cards: a character can die permanently only when its player's deck is "
     "empty"),
    ("death in a scene", SEATED, c.KillCharacter(character="Cara"), "in-scene",
     "cara sits in open scene s1; end the scene first"),
    ("deck twice", SEATED, c.RegisterDeck(player="anna", character="ANNA", flow=1, cards=[]),
     "character-exists", "character ANNA already has a deck"),
    ("a card twice in a deck", [], c.RegisterDeck(player="x", character="X", flow=1,
     cards=cards("A:1d6", "a:2d6")), "card-twice", "card a is given twice"),
    ("narration before any round is decided", SEATED, narrate("Anna"), "no-round-decided",
     "no round of scene s1 has been decided yet; the winner narrates once the round is "
     "resolved"),
    ("narration by the loser", BEN_ACTIVE, narrate("Anna"), "not-winner",
     "only a round's winner narrates it: round 1 of scene s1 was won by ben, not anna"),
    ("narration by a player not in the round", BEN_ACTIVE, narrate("Cara"), "not-winner",
     "only a round's winner narrates it: round 1 of scene s1 was won by ben, not cara"),
    ("narration twice", NARRATED, narrate("Ben", "And again"), "narrated-twice",
     "ben has narrated round 1 of scene s1 already; a round is narrated once"),
    ("empty narration", BEN_ACTIVE, narrate("Ben", "  "), "empty-text",
     "a narration must not be empty"),
    ("narration once another scene started", MOVED_ON, narrate("Ben", scene="s1"),
     "scene-closed", "scene s1 has ended and another scene has started since; its rounds can "
     "no longer be narrated"),
    ("end mid-round", BID, c.CloseScene(conflict="s1"), "mid-round",
     "scene s1 has cards in Play (it waits for cara to accept or pass the challenge); end it "
     "between rounds"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("given", "command", "code", "sentence"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_refused_with_its_code_and_nothing_appended(
    new: Tables, given: list[Command], command: Command, code: str, sentence: str
) -> None:
    table = new(RECORDED).given(given)
    refused = table.refuse(command, code)
    assert refused.message.startswith(sentence), refused.message
    assert "\n" not in refused.message


def test_managed_dice_take_no_faces_and_no_expectation(new: Tables) -> None:
    table = new().given(CHALLENGED)
    refused = table.refuse(roll([1, 2], [3, 4]), "managed-dice")
    assert refused.message == (
        "tablelog rolls the dice in this campaign (option dice=managed); give no faces"
    )
    expecting = c.Roll(conflict=None, expect_winner="anna")
    refused = table.refuse(expecting, "managed-dice")
    assert refused.message == (
        "with managed dice nobody knows the faces before the roll; expect nothing"
    )


def test_a_roll_as_the_table_expected_is_written(new: Tables) -> None:
    table = new(RECORDED).given(PUSHED)
    table.given(
        c.Roll(
            conflict=None,
            active_faces=[4, 2, 1],
            challenger_faces=[5, 6],
            expect_winner="BEN",
            expect_totals=[10, 12],
        )
    )
    assert table.state.scenes["s1"].rounds[0].resolved is not None


def test_the_challenger_power_option_lets_a_challenge_name_one(new: Tables) -> None:
    table = new({**RECORDED, "challenger_power": "true"}).given(BID, pass_("Cara"))
    strike = power("strike", target="Anna", cards=["Body"])
    table.given(challenge("Ben", "Dodge", universe=["Storm"], power=strike))
    table.given(roll([1, 1], [6, 6]))  # Ben wins: Anna's Body goes to Discard
    assert table.zone("anna", "discard") == ["body"]
