"""evolve(state, event): the only place a Night Terrors state changes, one event at a time.

Recorded decisions (values, outcomes, costs, splits, winners) are applied as stored: the audit,
not the fold, recomputes them. What an event leaves owing (cards to draw after a conflict opens
or escalates or a hand resets, a cost after an answer) is derived here, so `decide` reads it
from the state.
"""

from __future__ import annotations

from typing import assert_never

from tablelog.events.core import (
    AccessReissued,
    CampaignCreated,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
)
from tablelog.rules.options import from_recorded
from tablelog.rules.table import evolve_table
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules.cards import DECK, draw_count
from tablelog.rulesets.night_terrors.rules.options import NightTerrorsOptions
from tablelog.rulesets.night_terrors.rules.state import (
    Character,
    Conflict,
    Cost,
    Exchange,
    NightTerrorsState,
    Owed,
    Step,
)

NightTerrorsEvent = (
    ev.PlayerJoined
    | ev.CharacterCreated
    | ev.DeckShuffled
    | ev.CardsDrawn
    | ev.CardsDiscarded
    | ev.ConflictOpened
    | ev.RaiseMade
    | ev.RaiseAnswered
    | ev.ConflictEscalated
    | ev.CostPaid
    | ev.PoolEmptied
    | ev.ParticipantLeft
    | ev.ConflictEnded
    | ev.OutcomeNarrated
    | SessionStarted
    | SessionEnded
    | SceneStarted
    | SceneEnded
    | AccessReissued
)


def initial(created: CampaignCreated) -> NightTerrorsState:
    options = from_recorded(NightTerrorsOptions, created.options)
    return NightTerrorsState(
        campaign=created.campaign,
        gm=created.gm,
        options=options,
        players={created.gm: created.gm},
        deck=list(DECK),
    )


def _reset_hands(state: NightTerrorsState, reason: ev.DrawReason) -> None:
    """A new session or scene: hands above the size discard down, those below draw up, and
    anyone may refresh until a conflict opens."""
    size = state.options.hand_size
    for key, character in state.characters.items():
        held = len(character.hand)
        if held > size:
            state.discards[key] = held - size
        elif held < size:
            state.draws[key] = Owed(count=size - held, reason=reason)
    state.refresh_open, state.refreshed = True, []


def _owe_conflict_draws(
    state: NightTerrorsState, conflict: Conflict, reason: ev.DrawReason
) -> None:
    for key in conflict.still_in:
        count = draw_count(state.characters[key].suit, conflict.trump, state.options)
        state.draws[key] = Owed(count=count, reason=reason, conflict=conflict.key)


def _drawn(state: NightTerrorsState, event: ev.CardsDrawn) -> None:
    character = state.characters[event.character_id]
    character.hand.extend(event.cards)
    for code in event.cards:
        state.deck.remove(code)
    owed = state.draws.get(event.character_id)
    if owed is not None:
        owed.count -= len(event.cards)
        if owed.count <= 0 or event.short:
            del state.draws[event.character_id]


def _answered(state: NightTerrorsState, event: ev.RaiseAnswered) -> None:
    conflict = state.conflicts[event.conflict]
    exchange = conflict.current
    assert exchange is not None
    exchange.answers.append(event)
    exchange.steps.append(event)
    exchange.owing.remove(event.answerer)
    character = state.characters[event.answerer]
    if event.outcome == "reversal":
        character.held = event.cards[0]  # kept in the hand
    else:
        _spend(state, character, event.cards)
    owed = state.costs.setdefault(event.answerer, [])
    for cause, amount in (
        ("fallout", event.fallout),
        ("trump_fallout", event.trump_fallout),
        ("price", event.price),
    ):
        if amount > 0:
            owed.append(Cost(conflict=event.conflict, cause=cause, amount=amount))  # type: ignore[arg-type]
    if not owed:
        del state.costs[event.answerer]


def _spend(state: NightTerrorsState, character: Character, cards: list[str]) -> None:
    for code in cards:
        character.hand.remove(code)
        state.set_aside.append(code)
        if character.held == code:
            character.held = None


def _step(conflict: Conflict, event: Step) -> None:
    """Keep `event` in the exchange it happened in (for `show`)."""
    if conflict.current is not None:
        conflict.current.steps.append(event)


def _raised(state: NightTerrorsState, event: ev.RaiseMade) -> None:
    conflict = state.conflicts[event.conflict]
    for key in conflict.still_in:
        state.characters[key].held = None  # a reversal card is a 3rd raise card only next
    raiser = state.characters[event.raiser]
    for code in event.cards:
        raiser.hand.remove(code)
        state.set_aside.append(code)
    owing = [k for k in conflict.still_in if k != event.raiser]
    conflict.exchanges.append(Exchange(raised=event, owing=owing))


def _paid(state: NightTerrorsState, event: ev.CostPaid) -> None:
    character = state.characters[event.character_id]
    cap = state.options.pool_size
    character.blood = min(cap, max(0, character.blood - event.blood))
    character.sweat = min(cap, max(0, character.sweat - event.sweat))
    character.tears = min(cap, max(0, character.tears - event.tears))
    _step(state.conflicts[event.conflict], event)
    owed = state.costs.get(event.character_id)
    if owed:  # a log written before emptied pools dropped the rest may pay on
        owed.pop(0)
    if not owed:
        state.costs.pop(event.character_id, None)


def _left(state: NightTerrorsState, event: ev.ParticipantLeft) -> None:
    conflict = state.conflicts[event.conflict]
    conflict.still_in.remove(event.character_id)
    conflict.left[event.character_id] = event.reason
    _step(conflict, event)
    exchange = conflict.current
    if exchange is not None and event.character_id in exchange.owing:
        exchange.owing.remove(event.character_id)
    owed = state.draws.get(event.character_id)
    if owed is not None and owed.conflict == event.conflict:
        del state.draws[event.character_id]


def _ended(state: NightTerrorsState, event: ev.ConflictEnded) -> None:
    for older in state.conflicts.values():
        if older.status == "ended" and older.kept_at is None:
            older.kept_at, older.exchange_count = state.seq - 1, len(older.exchanges)
            older.exchanges = []
    conflict = state.conflicts[event.conflict]
    conflict.status, conflict.winners, conflict.rule = "ended", list(event.winners), event.rule
    for key in conflict.opened.participants:
        state.characters[key].held = None
        owed = state.draws.get(key)
        if owed is not None and owed.conflict == event.conflict:
            del state.draws[key]
    state.deck.extend(state.set_aside)  # a DeckShuffled follows with the new order
    state.set_aside = []


def evolve(state: NightTerrorsState, event: NightTerrorsEvent) -> NightTerrorsState:
    state.seq += 1
    match event:
        case ev.PlayerJoined():
            state.players[event.player] = event.display
        case ev.CharacterCreated():
            cap = state.options.pool_size
            state.characters[event.character_id] = Character(
                key=event.character_id,
                display=event.display,
                player=event.player,
                rank=event.rank,
                suit=event.suit,
                blood=cap,
                sweat=cap,
                tears=cap,
            )
            if state.table.session_open:  # dealt in like everyone at the session's start
                state.draws[event.character_id] = Owed(
                    count=state.options.hand_size, reason="session"
                )
        case SessionStarted():
            evolve_table(state.table, event)
            _reset_hands(state, "session")
        case SceneStarted():
            evolve_table(state.table, event)
            _reset_hands(state, "scene_reset")
        case SessionEnded() | SceneEnded():
            evolve_table(state.table, event)
        case AccessReissued():
            pass  # who holds a token is no part of the table
        case ev.DeckShuffled():
            state.deck, state.shuffled = list(event.order), True
            if event.reason == "ran_out":
                state.set_aside = []
        case ev.CardsDrawn():
            _drawn(state, event)
        case ev.CardsDiscarded():
            _spend(state, state.characters[event.character_id], event.cards)
            if event.reason == "scene_reset":
                state.discards.pop(event.character_id, None)
            else:
                state.refreshed.append(event.character_id)
                gap = state.options.hand_size - len(state.characters[event.character_id].hand)
                if gap > 0:
                    state.draws[event.character_id] = Owed(count=gap, reason="refresh")
        case ev.ConflictOpened():
            conflict = Conflict(
                key=event.conflict,
                opened=event,
                trump=event.trump,
                conflict_type=event.conflict_type,
                still_in=list(event.participants),
            )
            state.conflicts[event.conflict] = conflict
            state.refresh_open = False
            _owe_conflict_draws(state, conflict, "conflict")
        case ev.RaiseMade():
            _raised(state, event)
        case ev.RaiseAnswered():
            _answered(state, event)
        case ev.ConflictEscalated():
            conflict = state.conflicts[event.conflict]
            conflict.trump, conflict.conflict_type = event.to_trump, event.conflict_type
            _step(conflict, event)
            _owe_conflict_draws(state, conflict, "escalation")
        case ev.CostPaid():
            _paid(state, event)
        case ev.PoolEmptied():
            state.characters[event.character_id].emptied.append(event.consequence)
            # "Any excess cost is lost": what the character still owed goes with the pool.
            state.costs.pop(event.character_id, None)
            inside = next(
                (c for c in state.open_conflicts() if event.character_id in c.still_in), None
            )
            if inside is not None:
                _step(inside, event)
        case ev.ParticipantLeft():
            _left(state, event)
        case ev.ConflictEnded():
            _ended(state, event)
        case ev.OutcomeNarrated():
            state.conflicts[event.conflict].narrations.append((event.character_id, event.text))
        case _:
            assert_never(event)
    return state
