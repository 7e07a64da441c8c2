"""Night Terrors in words: one line per event for `log`, the rule behind each answer and
payment (shared by the log, `show` and the audit), and `state` / `show` as text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tablelog.events.base import Event
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules.cards import (
    RANK_NAMES,
    SUIT_NAMES,
    deciders,
    draw_count,
    n_cards,
)
from tablelog.rulesets.night_terrors.rules.state import NightTerrorsState

# Events and views name characters by key (`alice`); words name them as they were created
# (`Alice`), from the key -> name map of the state (`spellings`). A key the map lacks is
# shown as it is.
Names = Mapping[str, str]
NO_NAMES: Names = {}


def spellings(state: NightTerrorsState) -> dict[str, str]:
    """Each character's key and its name as created."""
    return {key: found.display for key, found in state.characters.items()}


def named(names: Names, key: str) -> str:
    return names.get(key, key)


def listed(names: Names, keys: Iterable[str]) -> str:
    return ", ".join(named(names, k) for k in keys)


def cards(codes: list[str]) -> str:
    return " + ".join(codes) if codes else "no cards"


def suit(code: str) -> str:
    return SUIT_NAMES[code]


def said(narration: str) -> str:
    return f' - "{narration}"' if narration else ""


def raise_words(e: ev.RaiseMade, names: Names = NO_NAMES) -> str:
    trump = "no trump" if e.trump_value is None else f"trump value {e.trump_value}"
    third = f"; {e.reversal_card} is the held reversal card" if e.reversal_card else ""
    return f"{named(names, e.raiser)} raises {cards(e.cards)} = {e.value} ({trump}{third})"


def answer_words(e: ev.RaiseAnswered, names: Names = NO_NAMES) -> str:
    """An answer with the numbers and the rule behind its outcome and each cost."""
    who = named(names, e.answerer)
    against = f"{who} answers {cards(e.cards)} = {e.total} against {e.raise_value}"
    match e.outcome:
        case "reversal":
            how = "reversal: one card meets it, and is kept"
        case "see":
            how = "clean see with 2 cards"
        case "heavy_see":
            how = f"see with {len(e.cards)} cards: fallout {e.fallout}, the highest middle card"
        case _:
            how = f"push: price {e.raise_value} - {e.total} = {e.price}"
    duty = (
        f"; no trump in the answer to a raise holding one: trump fallout {e.trump_fallout}"
        if e.trump_fallout
        else ""
    )
    owed = e.fallout + e.trump_fallout + e.price
    return f"{against}: {how}{duty}; " + (f"owes {owed} in all" if owed else "nothing owed")


def paid_words(e: ev.CostPaid, names: Names = NO_NAMES) -> str:
    parts = [f"{p} {getattr(e, p)}" for p in ("blood", "sweat", "tears") if getattr(e, p)]
    trade = f"; {e.traded} moved off {e.traded_from} by rank trade" if e.traded else ""
    return (
        f"{named(names, e.character_id)} pays {e.amount} ({e.cause.replace('_', ' ')}) under "
        f"{suit(e.trump)}: {', '.join(parts) or 'nothing'}{trade}"
    )


def ended_words(e: ev.ConflictEnded, names: Names = NO_NAMES) -> str:
    if e.abandoned:
        return f"conflict {e.conflict} is abandoned, nobody wins ({e.rule})"
    winners = [named(names, w) for w in e.winners]
    return f"conflict {e.conflict} ends: {deciders(winners)} the stakes ({e.rule})"


def describe(event: Event) -> str:
    """A line of the log with characters named by key (no state at hand)."""
    return describe_named(event, NO_NAMES)


def describe_in(event: Event, state: NightTerrorsState) -> str:
    """A line of the log with characters named as created. A conflict opened with a recorded
    deck also says who draws how many cards (the table deals them; `draw` records them): the
    count `evolve` owes, from the event, the characters' suits and the options alone."""
    line = describe_named(event, spellings(state))
    if state.options.deck == "recorded" and isinstance(event, ev.ConflictOpened):
        owed = [
            f"{who.display} {n_cards(draw_count(who.suit, event.trump, state.options))}"
            for who in (state.characters.get(k) for k in event.participants)
            if who is not None
        ]
        if owed:
            line += f"; to draw (record them with draw): {', '.join(owed)}"
    return line


def describe_named(event: Event, names: Names) -> str:
    e: Any = event
    n = names.get
    match event:
        case ev.PlayerJoined():
            return f"player {e.display} joins"
        case ev.CharacterCreated():
            return f"{e.display} ({e.player}) is the {RANK_NAMES[e.rank]} of {suit(e.suit)}"
        case ev.DeckShuffled():
            return f"the deck is shuffled ({e.reason.replace('_', ' ')}, {len(e.order)} cards)"
        case ev.CardsDrawn():
            short = " (the deck ran short)" if e.short else ""
            who = n(e.character_id, e.character_id)
            return f"{who} draws {n_cards(len(e.cards))} ({e.reason}){short}"
        case ev.CardsDiscarded():
            who = n(e.character_id, e.character_id)
            return f"{who} discards {n_cards(len(e.cards))} ({e.reason})"
        case ev.ConflictOpened():
            return (
                f"conflict {e.conflict} opens: {listed(names, e.participants)}; "
                f"{e.conflict_type}, trump {suit(e.trump)}; "
                f"{n(e.aggressor, e.aggressor)} raises first"
            )
        case ev.RaiseMade():
            return f"{e.conflict}: {raise_words(e, names)}{said(e.narration)}"
        case ev.RaiseAnswered():
            return f"{e.conflict}: {answer_words(e, names)}{said(e.narration)}"
        case ev.ConflictEscalated():
            return f"{e.conflict}: {escalated_words(e, names)}"
        case ev.CostPaid():
            return f"{e.conflict}: {paid_words(e, names)}"
        case ev.PoolEmptied():
            return f"{emptied_words(e, names)}"
        case ev.ParticipantLeft():
            return f"{e.conflict}: {left_words(e, names)}"
        case ev.ConflictEnded():
            return ended_words(e, names)
        case ev.OutcomeNarrated():
            return f"{e.conflict}: {n(e.character_id, e.character_id)} narrates: {e.text}"
    return event.type_name()


def escalated_words(e: ev.ConflictEscalated, names: Names = NO_NAMES) -> str:
    return (
        f"{named(names, e.by)} escalates to {e.conflict_type}, trump "
        f"{suit(e.from_trump)} -> {suit(e.to_trump)}"
    )


def emptied_words(e: ev.PoolEmptied, names: Names = NO_NAMES) -> str:
    return f"{named(names, e.character_id)}'s {e.pool.capitalize()} is 0: {e.consequence}"


def left_words(e: ev.ParticipantLeft, names: Names = NO_NAMES) -> str:
    return f"{named(names, e.character_id)} is out ({e.reason.replace('_', ' ')})"


def show_lines(view: dict[str, Any], names: Names = NO_NAMES) -> list[str]:
    """`night-terrors show` as text, from the show view (its steps are words already)."""
    lines = [
        f"conflict {view['conflict']} ({view['status']}): {view['type']}, trump "
        f"{suit(view['trump'])}; in: {listed(names, view['in']) or 'nobody'}"
    ]
    if view["stakes"]:
        lines.append(f"  stakes: {view['stakes']}")
    for number, exchange in enumerate(view["exchanges"], 1):
        r = exchange["raise"]
        trump = "no trump" if r["trump_value"] is None else f"trump value {r['trump_value']}"
        lines.append(
            f"exchange {number}: {named(names, r['raiser'])} raises {cards(r['cards'])} = "
            f"{r['value']} ({trump})"
        )
        for step in exchange["steps"]:
            lines.append(f"  {step}")
        if exchange["owing"]:
            lines.append(f"  waiting for: {listed(names, exchange['owing'])}")
    for who, reason in view["left"].items():
        lines.append(f"out: {named(names, who)} ({reason.replace('_', ' ')})")
    if view["status"] == "open":
        lines.append(f"next raise: {named(names, view['next_raiser'] or 'after the answers')}")
    else:
        lines.append(f"ended: {listed(names, view['winners']) or 'nobody'} ({view['rule']})")
    for who, text in view["narrations"]:
        lines.append(f"{named(names, who)}: {text}")
    return lines


def state_lines(view: dict[str, Any]) -> list[str]:
    """`tablelog state` for a Night Terrors campaign."""
    names = {key: ch["name"] for key, ch in view["characters"].items()}
    lines = [f"campaign {view['campaign']} ({view['ruleset']}) at seq {view['seq']}"]
    if view["session"]:
        lines.append(f"session {view['session']}" + ("" if view["session_open"] else " (ended)"))
    lines.append(f"deck {view['deck']} cards, set aside {view['set_aside']}")
    for ch in view["characters"].values():
        if ch["hand"] is None:
            hand = f"{ch['hand_size']} hidden"
        else:
            hand = f"{len(ch['hand'])}: {' '.join(ch['hand'])}" if ch["hand"] else "empty"
        owes = "".join(f"; owes {c['amount']} {c['cause'].replace('_', ' ')}" for c in ch["costs"])
        lines.append(
            f"{ch['name']} ({ch['card']}): Blood {ch['blood']}, Sweat {ch['sweat']}, "
            f"Tears {ch['tears']}; hand {hand}{owes}"
        )
    for key, conflict in view["conflicts"].items():
        line = (
            f"conflict {key}: {conflict['status']}, trump {suit(conflict['trump'])}, in: "
            f"{listed(names, conflict['in']) or 'nobody'}"
        )
        current = conflict["raise"]
        if conflict["status"] == "open" and current and current["owing"]:
            line += (
                f"; {named(names, current['raiser'])}'s raise of {current['value']} waits for "
                + listed(names, current["owing"])
            )
        elif conflict["next_raiser"]:
            line += f"; {named(names, conflict['next_raiser'])} raises next"
        lines.append(line)
    return lines
