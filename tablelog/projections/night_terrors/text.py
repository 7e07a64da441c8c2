"""Night Terrors in words: one line per event for `log`, the rule behind each answer and
payment (shared by the log, `show` and the audit), and `state` / `show` as text."""

from __future__ import annotations

from typing import Any

from tablelog.events import night_terrors as ev
from tablelog.events.base import Event
from tablelog.rules.night_terrors.cards import RANK_NAMES, SUIT_NAMES


def cards(codes: list[str]) -> str:
    return " + ".join(codes) if codes else "no cards"


def suit(code: str) -> str:
    return SUIT_NAMES[code]


def said(narration: str) -> str:
    return f' - "{narration}"' if narration else ""


def raise_words(e: ev.RaiseMade) -> str:
    trump = "no trump" if e.trump_value is None else f"trump value {e.trump_value}"
    third = f"; {e.reversal_card} is the held reversal card" if e.reversal_card else ""
    return f"{e.raiser} raises {cards(e.cards)} = {e.value} ({trump}{third})"


def answer_words(e: ev.RaiseAnswered) -> str:
    """An answer with the numbers and the rule behind its outcome and each cost."""
    against = f"{e.answerer} answers {cards(e.cards)} = {e.total} against {e.raise_value}"
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


def paid_words(e: ev.CostPaid) -> str:
    parts = [f"{p} {getattr(e, p)}" for p in ("blood", "sweat", "tears") if getattr(e, p)]
    trade = f"; {e.traded} moved off {e.traded_from} by rank trade" if e.traded else ""
    return (
        f"{e.character_id} pays {e.amount} ({e.cause.replace('_', ' ')}) under "
        f"{suit(e.trump)}: {', '.join(parts) or 'nothing'}{trade}"
    )


def describe(event: Event) -> str:
    e: Any = event
    match event:
        case ev.PlayerJoined():
            return f"player {e.display} joins"
        case ev.CharacterCreated():
            return f"{e.display} ({e.player}) is the {RANK_NAMES[e.rank]} of {suit(e.suit)}"
        case ev.DeckShuffled():
            return f"the deck is shuffled ({e.reason.replace('_', ' ')}, {len(e.order)} cards)"
        case ev.CardsDrawn():
            short = " (the deck ran short)" if e.short else ""
            return f"{e.character_id} draws {len(e.cards)} cards ({e.reason}){short}"
        case ev.CardsDiscarded():
            return f"{e.character_id} discards {len(e.cards)} cards ({e.reason})"
        case ev.ConflictOpened():
            return (
                f"conflict {e.conflict} opens: {', '.join(e.participants)}; {e.conflict_type}, "
                f"trump {suit(e.trump)}; {e.aggressor} raises first"
            )
        case ev.RaiseMade():
            return f"{e.conflict}: {raise_words(e)}{said(e.narration)}"
        case ev.RaiseAnswered():
            return f"{e.conflict}: {answer_words(e)}{said(e.narration)}"
        case ev.ConflictEscalated():
            return (
                f"{e.conflict}: {e.by} escalates to {e.conflict_type}, trump "
                f"{suit(e.from_trump)} -> {suit(e.to_trump)}"
            )
        case ev.CostPaid():
            return f"{e.conflict}: {paid_words(e)}"
        case ev.PoolEmptied():
            return f"{e.character_id}'s {e.pool.capitalize()} is 0: {e.consequence}"
        case ev.ParticipantLeft():
            return f"{e.conflict}: {e.character_id} is out ({e.reason.replace('_', ' ')})"
        case ev.ConflictEnded():
            who = ", ".join(e.winners) or "nobody"
            return f"conflict {e.conflict} ends: {who} decide(s) the stakes ({e.rule})"
        case ev.OutcomeNarrated():
            return f"{e.conflict}: {e.character_id} narrates: {e.text}"
    return event.type_name()


def show_lines(view: dict[str, Any]) -> list[str]:
    """`night-terrors show` as text, from the show view."""
    lines = [
        f"conflict {view['conflict']} ({view['status']}): {view['type']}, trump "
        f"{suit(view['trump'])}; in: {', '.join(view['in']) or 'nobody'}"
    ]
    if view["stakes"]:
        lines.append(f"  stakes: {view['stakes']}")
    for number, exchange in enumerate(view["exchanges"], 1):
        r = exchange["raise"]
        trump = "no trump" if r["trump_value"] is None else f"trump value {r['trump_value']}"
        lines.append(
            f"exchange {number}: {r['raiser']} raises {cards(r['cards'])} = {r['value']} ({trump})"
        )
        for step in exchange["steps"]:
            lines.append(f"  {step}")
        if exchange["owing"]:
            lines.append(f"  waiting for: {', '.join(exchange['owing'])}")
    for who, reason in view["left"].items():
        lines.append(f"out: {who} ({reason.replace('_', ' ')})")
    if view["status"] == "open":
        lines.append(f"next raise: {view['next_raiser'] or 'after the answers'}")
    else:
        lines.append(f"ended: {', '.join(view['winners']) or 'nobody'} ({view['rule']})")
    for who, text in view["narrations"]:
        lines.append(f"{who}: {text}")
    return lines


def state_lines(view: dict[str, Any]) -> list[str]:
    """`tablelog state` for a Night Terrors campaign."""
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
            f"{', '.join(conflict['in']) or 'nobody'}"
        )
        current = conflict["raise"]
        if conflict["status"] == "open" and current and current["owing"]:
            line += f"; {current['raiser']}'s raise of {current['value']} waits for " + ", ".join(
                current["owing"]
            )
        elif conflict["next_raiser"]:
            line += f"; {conflict['next_raiser']} raises next"
        lines.append(line)
    return lines
