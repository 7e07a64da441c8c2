"""The conflict: opening it, raising, answering (see or push), escalating, giving, paying and
narrating the outcome. Each command is checked here; its numbers come from `cards`."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.text import optional_text, text_of
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules import flow, payment
from tablelog.rulesets.night_terrors.rules.cards import (
    SUIT_NAMES,
    SUITS,
    TYPE_OF,
    TYPES,
    can_meet,
    deciders,
    judge,
    n_cards,
    trump_value,
    value,
)
from tablelog.rulesets.night_terrors.rules.hands import cards_in_hand
from tablelog.rulesets.night_terrors.rules.settle import pay_events
from tablelog.rulesets.night_terrors.rules.state import Character, Conflict, NightTerrorsState

_CAUSES = {"fallout": "fallout", "trump_fallout": "trump fallout", "price": "price"}


def kind_of(text: str) -> tuple[str, str]:
    """(conflict type, trump suit) from a type (talk, physical, melee, guns) or a suit."""
    given = text.strip().lower()
    if given in TYPES:
        return given, TYPES[given]
    for code, name in SUIT_NAMES.items():
        if given in (code.lower(), name.lower(), name.lower().rstrip("s")):
            return TYPE_OF[code], code
    raise InvalidInput(
        f"conflict type {text.strip()!r} is not one of talk (Diamonds), physical (Hearts), "
        "melee (Clubs), guns (Spades)",
        code="nt-bad-type",
    )


def _ready(state: NightTerrorsState, who: Character) -> None:
    """Nothing left over from a hand reset (discards, recorded draws) before a conflict."""
    if who.key in state.discards:
        raise RuleViolation(
            f"{who.display} holds {n_cards(len(who.hand))} and discards {state.discards[who.key]} "
            "before a conflict opens",
            code="nt-discard-first",
        )
    if who.key in state.draws:
        raise RuleViolation(
            f"{who.display} still draws {n_cards(state.draws[who.key].count)} "
            "(record them with draw)",
            code="nt-draw-first",
        )
    for pool, left in who.pools().items():
        if left <= 0:
            raise RuleViolation(
                f"{who.display}'s {pool.capitalize()} is 0; an emptied character takes no part",
                code="nt-incapacitated",
            )
    busy = flow.conflict_of(state, who.key)
    if busy is not None:
        raise RuleViolation(f"{who.display} is already in conflict {busy.key}", code="nt-busy")


def open_conflict(state: NightTerrorsState, cmd: c.OpenConflict) -> list[Event]:
    kind, trump = kind_of(cmd.kind)
    named = [flow.character(state, n) for n in [cmd.aggressor, *cmd.others]]
    keys = [w.key for w in named]
    if len(set(keys)) != len(keys):
        raise InvalidInput("a character is named twice in the conflict", code="nt-named-twice")
    if len(keys) < 2:
        raise RuleViolation("a conflict takes at least 2 characters; 1 given", code="nt-too-few")
    key = (cmd.conflict or f"c{len(state.conflicts) + 1}").strip().lower()
    if key in state.conflicts:
        raise AlreadyExists(f"conflict {key} already exists", code="conflict-exists")
    for who in named:
        _ready(state, who)
    seats = [k for k in state.characters if k in keys]
    return [
        ev.ConflictOpened(
            conflict=key,
            aggressor=keys[0],
            participants=seats,
            stakes=optional_text(cmd.stakes, "stakes"),
            place=optional_text(cmd.place, "place"),
            approach=optional_text(cmd.approach, "approach"),
            conflict_type=kind,  # type: ignore[arg-type]
            trump=trump,  # type: ignore[arg-type]
        )
    ]


def _no_debts(state: NightTerrorsState, found: Conflict, who: Character) -> None:
    if who.key in found.still_in and who.key in flow.drawing(state, found):
        owed = state.draws[who.key]
        raise RuleViolation(
            f"{who.display} still draws {n_cards(owed.count)} (record them with draw)",
            code="nt-draw-first",
        )
    costs = state.costs.get(who.key)
    if costs:
        raise RuleViolation(
            f"{who.display} owes {costs[0].amount} ({_CAUSES[costs[0].cause]}); pay it first",
            code="nt-pay-first",
        )


def make_raise(state: NightTerrorsState, cmd: c.Raise) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    who = flow.member(state, found, cmd.character)
    exchange = found.current
    if exchange is not None and exchange.owing:
        raise RuleViolation(
            f"{flow.shown(state, exchange.owing[0])} has not answered the raise of "
            f"{exchange.raised.value} yet",
            code="nt-answers-owed",
        )
    for key in found.still_in:
        _no_debts(state, found, state.characters[key])
    turn = flow.next_raiser(state, found)
    if turn != who.key:
        raise RuleViolation(
            f"it is {flow.shown(state, turn or '')}'s raise", code="nt-not-your-raise"
        )
    held = who.held
    allowed = 3 if held is not None else 2
    if len(cmd.cards) != 2 and not (len(cmd.cards) == 3 and allowed == 3):
        raise RuleViolation(
            "a raise uses exactly 2 cards (3 only with your own held reversal card); "
            f"got {len(cmd.cards)}",
            code="nt-raise-shape",
        )
    codes = cards_in_hand(who, cmd.cards)
    if len(codes) == 3 and held not in codes:
        raise RuleViolation(
            f"a 3-card raise includes your held reversal card {held}; it is not among "
            f"{', '.join(codes)}",
            code="nt-raise-shape",
        )
    options = state.options
    return [
        ev.RaiseMade(
            conflict=found.key,
            raiser=who.key,
            cards=codes,
            value=value(codes, options),
            trump_value=trump_value(codes, found.trump, options),
            trump_at_raise=found.trump,  # type: ignore[arg-type]
            reversal_card=held if len(codes) == 3 else None,
            narration=optional_text(cmd.narration, "narration"),
        )
    ]


def _answering(state: NightTerrorsState, found: Conflict, name: str) -> Character:
    who = flow.member(state, found, name)
    exchange = found.current
    if exchange is None:
        turn = flow.next_raiser(state, found) if flow.exchange_over(state, found) else None
        raise RuleViolation(
            f"there is no raise to answer in {found.key}"
            + (
                f"; it is {flow.shown(state, turn)}'s raise"
                if turn
                else "; the cards are still being drawn"
            ),
            code="nt-no-raise",
        )
    if who.key == exchange.raised.raiser:
        raise RuleViolation(
            f"{who.display} made this raise; the others answer it", code="nt-own-raise"
        )
    if who.key not in exchange.owing:
        raise RuleViolation(f"{who.display} already answered this raise", code="nt-answered")
    _no_debts(state, found, who)
    return who


def _cannot_see(state: NightTerrorsState, found: Conflict, who: Character, what: str) -> None:
    raised = found.current.raised if found.current else None
    if state.options.cannot_see == "free" or raised is None:
        return
    if can_meet(who.hand, raised.value, state.options):
        raise RuleViolation(
            f"{who.display} can meet the raise of {raised.value} with cards in hand; {what} is for "
            "one who cannot see (see it, or give)",
            code="nt-can-see",
        )


def answer(state: NightTerrorsState, cmd: c.See | c.Push) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    who = _answering(state, found, cmd.character)
    assert found.current is not None
    raised = found.current.raised
    push = isinstance(cmd, c.Push)
    if not push and not cmd.cards:
        raise InvalidInput("a see plays at least one card", code="nt-no-cards")
    codes = cards_in_hand(who, cmd.cards)
    judged = judge(
        codes, raised.value, raised.trump_value, raised.trump_at_raise, push, state.options
    )
    if judged.outcome == "short":
        # Push and escalate are for one who cannot see (cannot_see=strict): offer them only
        # when the hand as a whole falls short, or the next command is refused too.
        if state.options.cannot_see == "strict" and can_meet(who.hand, raised.value, state.options):
            then = "your hand can meet it: play more cards, or give"
        else:
            then = f"push (price {judged.price}), escalate or give"
        raise RuleViolation(
            f"{judged.total} does not meet the raise of {raised.value}; {then}",
            code="nt-does-not-meet",
        )
    if push and judged.total >= raised.value:
        raise RuleViolation(
            f"{judged.total} meets the raise of {raised.value}; see it instead of pushing",
            code="nt-push-meets",
        )
    if push:
        _cannot_see(state, found, who, "a push")
    return [
        ev.RaiseAnswered(
            conflict=found.key,
            answerer=who.key,
            cards=codes,
            total=judged.total,
            raise_value=raised.value,
            outcome=judged.outcome,  # type: ignore[arg-type]
            fallout=judged.fallout,
            trump_fallout=judged.trump_fallout,
            price=judged.price,
            narration=optional_text(cmd.narration, "narration"),
        )
    ]


def escalate(state: NightTerrorsState, cmd: c.Escalate) -> list[Event]:
    found = flow.open_conflict(state, cmd.conflict)
    who = _answering(state, found, cmd.character)
    now = SUITS.index(found.trump)
    if now == len(SUITS) - 1:
        raise RuleViolation(
            f"conflict {found.key} is already at Spades; it cannot escalate further",
            code="nt-at-spades",
        )
    kind, to = (TYPE_OF[SUITS[now + 1]], SUITS[now + 1]) if cmd.to is None else kind_of(cmd.to)
    if SUITS.index(to) <= now:
        raise RuleViolation(
            f"escalation only goes up ({SUIT_NAMES[found.trump]} to {SUIT_NAMES[to]} refused)",
            code="nt-escalate-down",
        )
    _cannot_see(state, found, who, "escalation")
    return [
        ev.ConflictEscalated(
            conflict=found.key,
            by=who.key,
            from_trump=found.trump,  # type: ignore[arg-type]
            to_trump=to,  # type: ignore[arg-type]
            conflict_type=kind,  # type: ignore[arg-type]
        )
    ]


def give(state: NightTerrorsState, cmd: c.Give) -> list[Event]:
    """A character still in leaves, at any time but while its own raise waits for answers
    (that raise stands for everyone who owes it)."""
    found = flow.open_conflict(state, cmd.conflict)
    who = flow.member(state, found, cmd.character)
    exchange = found.current
    if exchange is not None and exchange.owing and exchange.raised.raiser == who.key:
        raise RuleViolation(
            f"{who.display}'s raise of {exchange.raised.value} still waits for "
            f"{flow.listed(state, exchange.owing)}; {who.display} may give once it is answered",
            code="nt-raise-waits",
        )
    owes = exchange is not None and who.key in exchange.owing
    reason: ev.LeftReason = "gave"
    if (
        owes
        and exchange is not None
        and not can_meet(who.hand, exchange.raised.value, state.options)
    ):
        reason = "no_answer"
    return [ev.ParticipantLeft(conflict=found.key, character_id=who.key, reason=reason)]


def pay(state: NightTerrorsState, cmd: c.Pay) -> list[Event]:
    who = flow.character(state, cmd.character)
    owed = state.costs.get(who.key)
    if not owed:
        raise RuleViolation(f"{who.display} owes nothing", code="nt-nothing-owed")
    cost = owed[0]
    trump = state.conflicts[cost.conflict].trump
    split = payment.check(
        {"blood": cmd.blood, "sweat": cmd.sweat, "tears": cmd.tears},
        cost.amount,
        trump,
        who.rank,
        who.pools(),
        state.options,
    )
    return pay_events(state, who.key, cost, split)


def abandon(state: NightTerrorsState, cmd: c.Abandon) -> list[Event]:
    """The GM's way out of a conflict that cannot go on: any of its characters may stall it
    (a raise, an answer or a payment only its player gives), and while it is open no scene
    or session starts. Nobody wins; costs already owed stay owed."""
    found = flow.open_conflict(state, cmd.conflict)
    reason = text_of(cmd.reason, "reason")
    return [
        ev.ConflictEnded(
            conflict=found.key, winners=[], rule=f"the GM abandoned it: {reason}", abandoned=True
        )
    ]


def narrate(state: NightTerrorsState, cmd: c.Narrate) -> list[Event]:
    found = flow.conflict(state, cmd.conflict)
    who = flow.character(state, cmd.character)
    if found.status == "open":
        raise RuleViolation(
            f"conflict {found.key} is still open; whoever is left narrates once it ends",
            code="nt-still-open",
        )
    deciding = found.winners or found.opened.participants
    if who.key not in deciding:
        raise RuleViolation(
            f"only {deciders([flow.shown(state, k) for k in deciding])} the stakes of "
            f"{found.key}; {who.display} is out",
            code="nt-not-winner",
        )
    text = text_of(cmd.text, "narration")
    return [ev.OutcomeNarrated(conflict=found.key, character_id=who.key, text=text)]
