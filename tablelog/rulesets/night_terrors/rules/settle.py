"""What follows by itself after a command: managed draws, payments the rules leave no choice
in, a pool emptied and its character out, a conflict over. Each step is decided on the state
after everything before it, in the same command."""

from __future__ import annotations

from collections.abc import Callable

from tablelog.events.base import Event
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules import flow, payment
from tablelog.rulesets.night_terrors.rules.payment import Split
from tablelog.rulesets.night_terrors.rules.state import Conflict, Cost, NightTerrorsState

Shuffle = Callable[[list[str]], list[str]]
Evolve = Callable[[NightTerrorsState, Event], NightTerrorsState]

CONSEQUENCE: dict[str, ev.Consequence] = {"blood": "shock", "sweat": "crash", "tears": "snap"}


def deal(state: NightTerrorsState, key: str, shuffle: Shuffle) -> list[Event]:
    """Deal what `key` owes from the top of the deck (a managed deck; or a recorded one with
    no card left anywhere: a short draw of none), shuffling the set-aside pile in under what
    is left when the deck runs short (and a new managed deck first of all)."""
    owed = state.draws[key]
    made: list[Event] = []
    deck = list(state.deck)
    if not state.shuffled and state.options.deck == "managed":
        deck = shuffle(deck)
        made.append(ev.DeckShuffled(order=deck, reason="new_deck"))
    if len(deck) < owed.count and state.set_aside:
        deck = deck + shuffle(list(state.set_aside))
        made.append(ev.DeckShuffled(order=deck, reason="ran_out"))
    cards = deck[: owed.count]
    made.append(
        ev.CardsDrawn(
            character_id=key,
            cards=cards,
            reason=owed.reason,
            conflict=owed.conflict,
            short=len(cards) < owed.count,
        )
    )
    return made


def pay_events(state: NightTerrorsState, key: str, cost: Cost, split: Split) -> list[Event]:
    """A cost paid; each pool it empties, and its character out of its conflict."""
    character = state.characters[key]
    trump = state.conflicts[cost.conflict].trump
    made: list[Event] = [
        ev.CostPaid(
            character_id=key,
            conflict=cost.conflict,
            cause=cost.cause,
            amount=cost.amount,
            trump=trump,  # type: ignore[arg-type]
            blood=split.blood,
            sweat=split.sweat,
            tears=split.tears,
            traded_from=split.traded_from,  # type: ignore[arg-type]
            traded=split.traded,
        )
    ]
    emptied = [p for p, left in character.pools().items() if left > 0 and left - split.of(p) <= 0]
    for pool in emptied:
        made.append(
            ev.PoolEmptied(character_id=key, pool=pool, consequence=CONSEQUENCE[pool])  # type: ignore[arg-type]
        )
    inside = flow.conflict_of(state, key)
    if emptied and inside is not None:
        made.append(
            ev.ParticipantLeft(conflict=inside.key, character_id=key, reason="incapacitated")
        )
    return made


def _ended(state: NightTerrorsState, found: Conflict) -> ev.ConflictEnded | None:
    if len(found.still_in) == 1:
        winner = found.still_in[0]
        return ev.ConflictEnded(
            conflict=found.key, winners=[winner], rule=f"{winner} is the only one left in"
        )
    if not found.still_in:
        return ev.ConflictEnded(conflict=found.key, winners=[], rule="nobody is left in")
    if flow.exchange_over(state, found) and flow.next_raiser(state, found) is None:
        return ev.ConflictEnded(
            conflict=found.key,
            winners=list(found.still_in),
            rule="nobody still in holds 2 cards to raise; those left share the stakes",
        )
    return None


def _step(state: NightTerrorsState, shuffle: Shuffle) -> list[Event]:
    """The next events that follow by themselves, or [] when nothing does."""
    for key in list(state.draws):
        if state.options.deck == "managed" or not (state.deck or state.set_aside):
            return deal(state, key, shuffle)
    for key, owed in state.costs.items():
        if state.options.pay == "ask":
            break
        cost = owed[0]
        character = state.characters[key]
        trump = state.conflicts[cost.conflict].trump
        split = payment.forced(cost.amount, trump, character.rank, character.pools(), state.options)
        if split is not None:
            return pay_events(state, key, cost, split)
    for found in state.open_conflicts():
        ended = _ended(state, found)
        if ended is not None:
            return [ended, *_reshuffled(state, [*state.deck, *state.set_aside], shuffle)]
    return []


def _reshuffled(state: NightTerrorsState, pile: list[str], shuffle: Shuffle) -> list[Event]:
    """A managed deck is shuffled again once a conflict ends, its set-aside pile back in."""
    if state.options.deck != "managed":
        return []
    return [ev.DeckShuffled(order=shuffle(pile), reason="conflict_end")]


def settle(
    state: NightTerrorsState, events: list[Event], shuffle: Shuffle, evolve: Evolve
) -> list[Event]:
    """`events`, then everything that follows from them. `state` is a copy, moved along."""
    done = list(events)
    for event in events:
        evolve(state, event)
        if isinstance(event, ev.ConflictEnded):  # abandoned: the pile is back in the deck
            for shuffled in _reshuffled(state, list(state.deck), shuffle):
                evolve(state, shuffled)
                done.append(shuffled)
    while True:
        more = _step(state, shuffle)
        if not more:
            return done
        for event in more:
            evolve(state, event)
        done.extend(more)
