"""The Bid & Challenge account: every round with its bid, the challenge offer, the push, each
side's cards and dice, the winner and the rule that made it, and where every card went.

Built in one walk over the log, each event seen with the state just before it. `check`
recomputes each side's total from its faces and printed cards, and each resolution with
`decide_round` (the one function the command used) and the round's cards.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy, Note, Table
from tablelog.projections.book import Book
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import turns
from tablelog.rulesets.bid_and_challenge.rules.cards import (
    decide_round,
    pool_text,
    sum_text,
    total_of,
)
from tablelog.rulesets.bid_and_challenge.rules.narration import decided
from tablelog.rulesets.bid_and_challenge.rules.resolve import settle, side_cards
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState
from tablelog.rulesets.bid_and_challenge.views.text import describe, power_text, quoted

# `mods` beside `faces`, so a row adds up to its total on its own (faces 4 2 1, mods +3: 10).
_COLUMNS = ["side", "character", "cards", "faces", "mods", "total"]


def _card_list(state: BidAndChallengeState, pairs: list[tuple[str, str]]) -> str:
    cards = [state.holder(owner).cards[card] for owner, card in pairs]
    named = " + ".join(f"{c.name}" for c in cards)
    return f"{named} = {pool_text(cards)}" if cards else "no cards"


def _count(n: int, what: str = "card") -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


class BidAndChallengeAuditor:
    """The Bid & Challenge audit's walk (see `Auditor`)."""

    checks_every_event = False

    def __init__(self) -> None:
        # Per scene: the events the resolution just checked must be followed by (the cards
        # back where they go, the power's effect, the next round), recomputed by `settle`.
        self.following: dict[str, list[Event]] = {}

    def check(self, state: BidAndChallengeState, seq: int, event: Event) -> list[Discrepancy]:
        found: list[Discrepancy] = []
        scene_key = event.conflict_id() or ""
        due = self.following.get(scene_key)
        if due:
            expected_event = due.pop(0)
            if expected_event != event:
                found.append(
                    Discrepancy(
                        seq=seq,
                        conflict=scene_key,
                        type=event.type_name(),
                        field="event",
                        recorded=msgspec.to_builtins(event),
                        expected=msgspec.to_builtins(expected_event),
                    )
                )
            return found

        def differs(field: str, recorded: Any, expected: Any) -> None:
            if recorded != expected:
                found.append(
                    Discrepancy(
                        seq=seq,
                        conflict=event.conflict_id(),
                        type=event.type_name(),
                        field=field,
                        recorded=recorded,
                        expected=expected,
                    )
                )

        match event:
            case ev.DiceRolled():
                rnd = state.scenes[event.conflict].current
                pairs = side_cards(rnd)[event.side]
                printed = [state.holder(o).cards[c] for o, c in pairs]
                differs("cards", [r.card_id for r in event.rolls], [c.card_id for c in printed])
                differs("mods", [r.mod for r in event.rolls], [c.mod for c in printed])
                differs("dice", [len(r.faces) for r in event.rolls], [c.dice for c in printed])
                differs("faces", all(1 <= f <= 6 for r in event.rolls for f in r.faces), True)
                differs("total", event.total, total_of(event.rolls))
            case ev.RoundResolved():
                rnd = state.scenes[event.conflict].current
                challenger = rnd.challenge.challenger if rnd.challenge else None
                totals = {side: roll.total for side, roll in rnd.rolls.items()}
                expected = decide_round(
                    rnd.active, challenger, totals.get("active"), totals.get("challenger")
                )
                differs("winner", event.winner, expected.winner)
                differs("loser", event.loser, expected.loser)
                differs("active_total", event.active_total, totals.get("active"))
                differs("challenger_total", event.challenger_total, totals.get("challenger"))
                rolled = [rnd.rolls[side] for side in ("active", "challenger") if side in rnd.rolls]
                recomputed = settle(state, state.scenes[event.conflict], rolled)
                again = recomputed[0]
                assert isinstance(again, ev.RoundResolved)
                # `power_void` is words, like `rule`, and older logs lack it: not compared.
                differs("power_applied", event.power_applied, again.power_applied)
                self.following[event.conflict] = recomputed[1:]
            case ev.Passed():
                scene = state.scenes[event.conflict]
                recomputed = turns.after_pass(state, scene, event.player)
                again = recomputed[0]
                assert isinstance(again, ev.Passed)
                differs("passes", event.passes, again.passes)
                self.following[event.conflict] = recomputed[1:]
            case ev.Narrated():
                # Only the winner of the scene's latest decided round, once.
                last = decided(state.scenes[event.conflict])
                resolved = last.resolved if last is not None else None
                differs("round", event.round, last.number if last is not None else None)
                differs("player", event.player, resolved.winner if resolved else None)
                differs("narrated before", last is not None and last.narration is not None, False)
        return found

    def explain(self, book: Book, state: BidAndChallengeState, seq: int, event: Event) -> None:
        if isinstance(event, ev.Narrated):
            _narration(book, event, seq)
            return
        if isinstance(event, ev.SceneStarted):
            title = f"scene {event.conflict} ({', '.join(event.seating)})"
            if event.premise:
                title += f": {event.premise}"
            book.begin(event.conflict, title, seq, state.table.session or None)
            return
        here = book.chapter(event.conflict_id())
        if here is None:
            return
        scene = state.scenes.get(event.conflict_id() or "")
        number = scene.current.number if scene and scene.rounds else 0
        title = f"Round {number}"
        match event:
            case ev.RoundStarted():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "round",
                    f"round {event.round}: {event.active} is active",
                    active=event.active,
                )
            case ev.BidMade():
                bidder = state.characters[event.active]
                cards = _card_list(state, [(event.active, c) for c in event.cards])
                here.note(
                    title,
                    seq,
                    "bid",
                    f"{event.active} bids {quoted(event.description)} with {cards} "
                    f"({_count(len(event.cards))}; Flow {bidder.flow}); if it wins: "
                    f"{power_text(event.power)}",
                    cards=len(event.cards),
                    flow=bidder.flow,
                )
            case ev.ChallengeMade():
                assert scene is not None
                assert scene.current.bid is not None
                owner = {"own": event.challenger, "universe": ev.UNIVERSE}
                pairs = [(owner[c.source], c.card_id) for c in event.cards]
                limit = len(scene.current.bid.cards)
                power = f"; if it wins: {power_text(event.power)}" if event.power else ""
                here.note(
                    title,
                    seq,
                    "challenge",
                    f"{event.challenger} challenges {quoted(event.description)} with "
                    f"{_card_list(state, pairs)} ({_count(len(pairs))}; at most {limit}, the "
                    f"bid's count){power}",
                    cards=len(pairs),
                    limit=limit,
                )
            case ev.Pushed():
                flow = state.characters[event.active].flow
                cards = _card_list(state, [(event.active, c) for c in event.cards])
                here.note(
                    title,
                    seq,
                    "push",
                    f"{event.active} pushes {quoted(event.revised_description)}, rotating {cards} "
                    f"({_count(len(event.cards), 'extra card')}, at most Flow {flow}); "
                    "lost if the bid loses",
                    cards=len(event.cards),
                    flow=flow,
                )
            case ev.DiceRolled():
                section = here.section(title)
                rows = section.table.rows if section.table else []
                faces = " ".join(str(f) for r in event.rolls for f in r.faces) or "-"
                cards = ", ".join(r.card_id for r in event.rolls)
                mods = f"{sum(r.mod for r in event.rolls):+d}"
                row = [event.side, event.character, cards, faces, mods, str(event.total)]
                section.table = Table(columns=_COLUMNS, rows=[*rows, row])
                here.note(
                    title,
                    seq,
                    "roll",
                    f"{event.character} ({event.side}) rolls {sum_text(event.rolls)}",
                    total=event.total,
                )
            case ev.RoundResolved():
                rnd = state.scenes[event.conflict].current
                back = "; the cards in Play return to their origin decks"
                if rnd.pushed and event.winner != rnd.active:
                    back += f", but {rnd.active}'s pushed cards go to Discard (the bid lost)"
                here.note(
                    title,
                    seq,
                    "outcome",
                    f"{event.winner} wins: {event.rule}{back}"
                    + (f"; {event.power_void}" if event.power_void else ""),
                    winner=event.winner,
                    loser=event.loser,
                    active_total=event.active_total,
                    challenger_total=event.challenger_total,
                )
            case ev.CardMoved() if event.reason not in ("commit", "return"):
                here.note(title, seq, "card", describe(event))
            case ev.Passed() | ev.ChallengeDeclined() | ev.DetailDefined():
                here.note(title, seq, event.type_name().removeprefix("bc."), describe(event))
            case ev.UniverseCardCreated():
                here.note(title, seq, "universe-card", describe(event))
            case ev.SceneEnded():
                here.note("End", seq, "end", describe(event))
                here.closed = True
            case _:
                here.touch(seq)

    def finish(self, book: Book, state: BidAndChallengeState) -> None:
        pass


def _narration(book: Book, event: ev.Narrated, seq: int) -> None:
    """The winner's words, in the section of the round they narrate (which the next round's
    start, or the scene's end, may already follow)."""
    chapter = book.chapters.get(event.conflict)
    if chapter is None:
        return
    title = f"Round {event.round}"
    sections = [s for s in chapter.account.sections if s.title == title]
    note = Note(
        seq=seq,
        kind="narration",
        text=f"{event.player} narrates: {event.text}",
        data={"winner": event.player, "round": event.round},
    )
    if sections:
        sections[-1].notes.append(note)
        chapter.account.last_seq = seq
    else:
        chapter.note(title, seq, note.kind, note.text, **note.data)
