"""Bid & Challenge in words: one line per event for the log, and `state` and `show` as text."""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.events.base import Event
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules.cards import sum_text, value_text
from tablelog.rulesets.bid_and_challenge.rules.lookup import ZONE_WORD as ZONE
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState


def quoted(text: str) -> str:
    """A player's words in a line, between double quotes, as typed (a repr would escape an
    apostrophe when the text holds both kinds of quote)."""
    return f'"{text}"'


def power_text(power: ev.Power | None) -> str:
    match power:
        case None:
            return "no power"
        case ev.Power(type="restore"):
            return f"restore {', '.join(power.cards)} from {power.target}'s Discard to Deck"
        case ev.Power(type="strike"):
            return f"strike {', '.join(power.cards)} from {power.target}'s Deck to Discard"
        case ev.Power(type="detail"):
            return f"define detail {power.detail_id} ({power.text})"
        case ev.Power(type="universe_card") if power.card is not None:
            card = power.card
            return f"create universe card {card.name} {value_text(card.dice, card.mod)}"
    return power.type


def describe(event: Event) -> str:
    match event:
        case ev.PlayerJoined():
            return f"{event.display} joins"
        case ev.DeckRegistered():
            cards = ", ".join(f"{c.name} {value_text(c.dice, c.mod)}" for c in event.cards)
            return (
                f"{event.name} ({event.player_id}), Flow {event.flow}: {cards or 'an empty deck'}"
            )
        case ev.UniverseCardCreated():
            how = f" (won in scene {event.conflict})" if event.conflict else ""
            return (
                f"universe card {event.name} {value_text(event.dice, event.mod)} "
                f"created by {event.by}{how}"
            )
        case ev.CharacterDied():
            return f"{event.character_id} dies for good" + (f": {event.text}" if event.text else "")
        case ev.SceneStarted():
            premise = f": {event.premise}" if event.premise else ""
            return (
                f"scene {event.conflict} starts (asked by {event.requested_by}; seating "
                f"{', '.join(event.seating)}){premise}"
            )
        case ev.RoundStarted():
            return f"scene {event.conflict} round {event.round}: {event.active} is active"
        case ev.BidMade():
            cards = ", ".join(event.cards) or "no cards"
            power = power_text(event.power)
            return f"{event.active} bids {quoted(event.description)} with {cards} ({power})"
        case ev.Passed():
            return f"{event.player} passes ({event.passes} in a row)"
        case ev.ChallengeDeclined():
            return f"{event.player} passes the challenge"
        case ev.ChallengeMade():
            cards = ", ".join(
                c.card_id + (" (universe)" if c.source == "universe" else "") for c in event.cards
            )
            power = f" ({power_text(event.power)})" if event.power is not None else ""
            return f"{event.challenger} challenges {quoted(event.description)} with {cards}{power}"
        case ev.Pushed():
            cards = f"{', '.join(event.cards)} (rotated)" if event.cards else "no extra cards"
            return f"{event.active} pushes {quoted(event.revised_description)} with {cards}"
        case ev.DiceRolled():
            return f"{event.character} ({event.side}) rolls {sum_text(event.rolls)}"
        case ev.RoundResolved():
            void = f"; {event.power_void}" if event.power_void else ""
            return f"round {event.round}: {event.winner} wins ({event.rule}){void}"
        case ev.CardMoved():
            whose = "the universe" if event.owner == ev.UNIVERSE else event.owner
            return (
                f"{event.card_id} goes from {whose}'s {ZONE[event.from_]} to {ZONE[event.to]} "
                f"({event.reason.replace('_', ' ')})"
            )
        case ev.DetailDefined():
            return f"detail {event.detail_id} is defined by {event.by}: {event.text}"
        case ev.SceneEnded():
            return f"scene {event.conflict} ends: {event.reason}"
        case ev.Narrated():
            where = f"round {event.round} of scene {event.conflict}"
            return f"{event.player} narrates {where}: {event.text}"
    return event.type_name()


def state_lines(view: dict[str, Any]) -> list[str]:
    lines = [f"{view['campaign']} (bid-and-challenge), seq {view['seq']}"]
    for key, who in view["characters"].items():
        dead = ", dead" if who["dead"] else ""
        lines.append(
            f"{who['name']} ({who['player']}), Flow {who['flow']}{dead}: "
            + "; ".join(f"{z.capitalize()} {_cards(who, z)}" for z in ("deck", "play", "discard"))
        )
        del key
    universe = view["universe"]
    lines.append("universe: " + "; ".join(f"{z} {_cards(universe, z)}" for z in ("deck", "play")))
    for key, detail in view["details"].items():
        lines.append(f"detail {key} (by {detail['by']}): {detail['text']}")
    for key, scene in view["conflicts"].items():
        now = f"ended: {scene['ended']}" if scene["ended"] else f"waits for {scene['waiting_for']}"
        lines.append(f"scene {key} ({scene['status']}), round {scene['round']}: {now}")
    return lines


def _cards(holder: dict[str, Any], zone: str) -> str:
    names = [holder["cards"][k]["name"] for k in holder[zone]]
    return ", ".join(names) if names else "-"


def _named(state: BidAndChallengeState, owner: str, card: str) -> str:
    """`Brawn 1d6+2`, or the key when the card is unknown to this state."""
    holder = state.universe if owner == ev.UNIVERSE else state.characters.get(owner)
    found = holder.cards.get(card) if holder is not None else None
    return f"{found.name} {value_text(found.dice, found.mod)}" if found else card


def _roll_text(roll: dict[str, Any]) -> str:
    faces = [str(f) for r in roll["rolls"] for f in r["faces"]]
    mod = sum(r["mod"] for r in roll["rolls"])
    if mod or not faces:
        faces.append(str(mod))
    return f"{'+'.join(faces).replace('+-', '-')} = {roll['total']}"


def show_lines(state: BidAndChallengeState, view: dict[str, Any]) -> list[str]:
    lines = [
        f"scene {view['conflict']} ({view['status']}); seating {', '.join(view['seating'])}"
        + (f": {view['premise']}" if view["premise"] else "")
    ]
    for rnd in view["rounds"]:
        active = rnd["active"]
        lines.append(f"round {rnd['round']}: {active} is active")
        if rnd["passed"]:
            lines.append(f"  {active} passes")
        if rnd["bid"]:
            bid = rnd["bid"]
            cards = ", ".join(_named(state, active, k) for k in bid["cards"])
            power = power_text(msgspec.convert(bid["power"], ev.Power))
            lines.append(f"  bid {quoted(bid['description'])} with {cards}; if it wins: {power}")
        for who in rnd["declined"]:
            lines.append(f"  {who} passes the challenge")
        if rnd["challenge"]:
            ch = rnd["challenge"]
            who = ch["challenger"]
            cards = ", ".join(
                _named(state, who if c["source"] == "own" else ev.UNIVERSE, c["card"])
                for c in ch["cards"]
            )
            power = ch["power"]
            won = f"; if it wins: {power_text(msgspec.convert(power, ev.Power))}" if power else ""
            lines.append(f"  {who} challenges {quoted(ch['description'])} with {cards}{won}")
        if rnd["push"]:
            cards = ", ".join(_named(state, active, k) for k in rnd["push"]["cards"])
            lines.append(f"  push {quoted(rnd['push']['description'])} with {cards or 'no cards'}")
        for side, roll in rnd["rolls"].items():
            if roll:
                lines.append(f"  {roll['character']} ({side}) rolls {_roll_text(roll)}")
        if rnd["winner"]:
            lines.append(f"  {rnd['winner']} wins: {rnd['rule']}")
        if rnd["narration"]:
            lines.append(f"  {rnd['narration']['player']} narrates: {rnd['narration']['text']}")
        if rnd["power_void"]:
            lines.append(f"  {rnd['power_void']}")
        for move in rnd["moves"]:
            if move["reason"] != "return":
                lines.append(
                    f"  {_named(state, move['owner'], move['card'])}: {ZONE[move['from']]} to "
                    f"{ZONE[move['to']]} ({move['reason'].replace('_', ' ')})"
                )
        for detail in rnd["details"]:
            lines.append(f"  detail {detail['detail']} defined: {detail['text']}")
        for card in rnd["universe_cards"]:
            lines.append(f"  universe card {card['card']} {card['value']} created")
    if view["status"] == "open":
        lines.append(f"waits for {view['waiting_for']}")
    else:
        lines.append(f"ended: {view['ended']}")
    due = view["narration_due"]
    if due and view["status"] == "open":
        lines.append(f"{due['winner']} may narrate round {due['round']} (`narrate`)")
    return lines
