"""The Ace of Cards account: each conflict's party and enemies, every Magic Cards set with the
effect it fits and the numbers and rule behind it, every Check with its dice, Result and what
Double or Nothing did, Trap Cards, Mulligans and High or Low, and the cards put away.

Built in one walk over the log, each event seen with the state just before it. A card drawn
never enters the account (the hand is private): only how many.
"""

from __future__ import annotations

from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy, Table
from tablelog.projections.book import Book, Chapter
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import sets as s
from tablelog.rulesets.ace_of_cards.rules.cards import SUITS
from tablelog.rulesets.ace_of_cards.rules.play import resolve
from tablelog.rulesets.ace_of_cards.rules.state import AceState
from tablelog.rulesets.ace_of_cards.views.check import Checker
from tablelog.rulesets.ace_of_cards.views.text import describe

# One section in the order things happened: a conflict reads as the turns it was played in.
PLAY = "Play"


class AceAuditor:
    """The Ace of Cards audit's walk (see `Auditor`)."""

    # The checker remembers a Magic Cards set for the effect after it (same conflict).
    checks_every_event = False

    def __init__(self) -> None:
        self.checker = Checker()

    def check(self, state: AceState, seq: int, event: Event) -> list[Discrepancy]:
        return self.checker.check(state, seq, event)

    def explain(self, book: Book, state: AceState, seq: int, event: Event) -> None:
        if isinstance(event, ev.ConflictStarted):
            title = (
                f"conflict {event.conflict} ({', '.join(event.party)} against "
                f"{', '.join(event.enemies) or 'no enemy'})"
            )
            here: Chapter = book.begin(event.conflict, title, seq, state.table.session or None)
            here.section("Party").table = Table(
                columns=["character", "HP", "MP", "Magic Cards", "Mulligan", "Trap Card"],
                rows=[
                    [
                        state.characters[k].display,
                        f"{state.characters[k].hp}/{state.characters[k].max_hp}",
                        f"{state.characters[k].mp}/{state.characters[k].max_mp}",
                        *(
                            str(state.characters[k].sl(x))
                            for x in ("magic_cards", "mulligan", "trap_card")
                        ),
                    ]
                    for k in event.party
                ],
            )
            return
        found = book.chapter(event.conflict_id())
        if found is not None:
            self._conflict_event(state, found, seq, event)

    def finish(self, book: Book, state: AceState) -> None:
        pass

    def _conflict_event(self, state: AceState, here: Chapter, seq: int, event: Event) -> None:
        match event:
            case ev.MagicCardsUsed():
                cards = resolve(event.cards, event.jokers)
                fitting = ", ".join(s.NAMES[f] for f in event.fits) or "no effect"
                chosen = s.NAMES[event.set] if event.set else "no effect"
                cap = min(10 + 5 * state.characters[event.character_id].sl("magic_cards"), 25)
                here.note(
                    PLAY,
                    seq,
                    "set",
                    f"{event.character_id} spends {event.mp_spent} MP (10-{cap} in steps of 5) "
                    f"to resolve {len(cards)} card(s): {s.listed(cards)}; it fits {fitting} "
                    f"(matching is exact): {chosen}",
                    character=event.character_id,
                    mp=event.mp_spent,
                    set=event.set,
                    fits=event.fits,
                )
            case ev.SetEffectApplied():
                used = self.checker.used.get(event.conflict)
                how = s.formula(event.set, resolve(used.cards, used.jokers)) if used else ""
                here.note(
                    PLAY,
                    seq,
                    "effect",
                    f"{describe(event)} ({how})",
                    set=event.set,
                    amount=event.amount,
                    damage_type=event.damage_type,
                    targets=event.targets,
                )
            case ev.CheckResolved():
                check = state.conflicts[event.conflict].checks[event.check_id]
                dice = " + ".join(f"d{x}" for x in check.sizes)
                kind = "offensive Magic" if check.offensive else check.kind
                double = ", double or nothing declared" if check.double else ""
                here.note(
                    PLAY,
                    seq,
                    "check",
                    f"{event.check_id}: {event.character_id}'s {kind} Check ({dice}{double}): "
                    f"{event.rule}",
                    success=event.success,
                    damage=event.damage,
                    sections=event.sections,
                    doubled=event.doubled,
                )
            case ev.TrapCardRevealed():
                rule = "a joker or the named suit hits" if event.hit else "not the named suit"
                here.note(
                    PLAY,
                    seq,
                    "trap",
                    f"{event.character_id} names {SUITS[event.named_suit]} after "
                    f"{event.trigger_action_id}: the deck's bottom card is {event.card} "
                    f"({rule}), put face up on the discard pile",
                    hit=event.hit,
                    card=event.card,
                )
            case ev.FreeSpellCast():
                sl = state.characters[event.character_id].sl("trap_card")
                here.note(
                    PLAY,
                    seq,
                    "free-spell",
                    f"{describe(event)}: at most SL x 5 = {sl * 5} MP",
                )
            case ev.MulliganTaken() | ev.HighOrLowUsed() | ev.ActionTaken():
                here.note(PLAY, seq, event.type_name().split(".")[1], describe(event))
            case ev.DiscardShuffledIntoDeck():
                here.note(PLAY, seq, "reshuffle", describe(event))
            case ev.ConflictEnded():
                here.note("End", seq, "end", describe(event))
                here.closed = True
            case _:
                here.touch(seq)
