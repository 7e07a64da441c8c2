"""Ace of Cards in words: one line per event for the log, `state` and `show` as text.

A line never names a card its reader may not see: a draw says how many cards, not which
(the log's JSON carries them, redacted for whoever may not see them)."""

from __future__ import annotations

from typing import Any

from tablelog.events.base import Event
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules.cards import SUITS
from tablelog.rulesets.ace_of_cards.rules.sets import NAMES
from tablelog.rulesets.ace_of_cards.rules.state import SKILL_TITLES as _SKILLS

NO_EFFECT = "this set matches no effect"


def _cards(cards: list[str]) -> str:
    return " ".join(cards) or "none"


def _jokers(event: ev.MagicCardsUsed) -> str:
    if not event.jokers:
        return ""
    return " (" + ", ".join(f"{j.card} as {j.value}{j.suit}" for j in event.jokers) + ")"


def describe(event: Event) -> str:
    match event:
        case ev.PlayerJoined():
            return f"{event.display} joins"
        case ev.CharacterCreated():
            return f"{event.display} enters play: {event.max_hp} HP, {event.max_mp} MP"
        case ev.DeckBuilt():
            types = ", ".join(f"{SUITS[s]} {t}" for s, t in event.suit_types.items())
            return (
                f"{event.character_id} takes Ace of Cards (+5 max {event.benefit.upper()}) "
                f"and builds a {len(event.cards)}-card deck: {types}"
            )
        case ev.SkillLevelSet():
            return f"{event.character_id}: {_SKILLS[event.skill]} SL {event.sl}"
        case ev.HPChanged() | ev.MPChanged():
            what = "HP" if isinstance(event, ev.HPChanged) else "MP"
            why = f" ({event.reason})" if event.reason else ""
            return f"{event.character_id}: {event.delta:+d} {what}{why}"
        case ev.ConflictStarted():
            return (
                f"conflict {event.conflict} begins: {', '.join(event.party)} against "
                f"{', '.join(event.enemies) or 'no enemy'}"
            )
        case ev.DeckShuffled():
            return f"{event.character_id} shuffles {len(event.order)} cards face down"
        case ev.CardsDrawn():
            why = event.reason.replace("_", " ")
            return f"{event.character_id} draws {len(event.cards)} card(s) ({why})"
        case ev.DiscardShuffledIntoDeck():
            return (
                f"{event.character_id}'s deck runs short: {len(event.order)} discarded cards "
                "shuffled into a new deck"
            )
        case ev.CardsDiscarded():
            return f"{event.character_id} discards {_cards(event.cards)} face up"
        case ev.ActionTaken():
            who = "enemy " if event.enemy else ""
            seen = "" if event.visible else " (unseen)"
            return f"{event.action_id}: {who}{event.actor} acts{seen}: {event.text}"
        case ev.MagicCardsUsed():
            effect = NAMES[event.set] if event.set else f"{NO_EFFECT} (MP and cards spent)"
            return (
                f"{event.character_id} spends {event.mp_spent} MP on Magic Cards: "
                f"{_cards(event.cards)}{_jokers(event)} -> {effect}"
            )
        case ev.SetEffectApplied():
            return _effect(event)
        case ev.MulliganTaken():
            return (
                f"{event.character_id} takes a Mulligan: {_cards(event.discarded)} discarded, "
                f"{len(event.drawn)} drawn"
            )
        case ev.TrapCardRevealed():
            result = "a hit" if event.hit else "a miss"
            return (
                f"{event.character_id} springs Trap Card after {event.trigger_action_id}, "
                f"naming {SUITS[event.named_suit]}: bottom card {event.card}, {result}"
            )
        case ev.FreeSpellCast():
            return f"{event.character_id} casts {event.spell} for free ({event.mp_cost} MP paid)"
        case ev.CheckCalled():
            dice = " + ".join(f"d{s}" for s in event.sizes)
            mod = f" {event.modifier:+d}" if event.modifier else ""
            pair = "" if event.magic_pair is None else " (its Magic Pair's free attack)"
            return (
                f"check {event.check_id}: {event.character_id}'s {event.kind} Check{pair}, "
                f"{dice}{mod} against {event.dl}"
            )
        case ev.DoubleOrNothingDeclared():
            return f"{event.character_id} declares double or nothing on {event.check_id}"
        case ev.CheckRolled():
            faces = ", ".join(str(d.value) for d in event.dice)
            return f"check {event.check_id} rolls {faces}: Result {event.result}"
        case ev.CheckResolved():
            return f"check {event.check_id}: {event.rule}"
        case ev.HighOrLowUsed():
            return f"{event.character_id} uses High or Low: draws 1, discards {event.discarded}"
        case ev.ConflictEnded():
            return f"conflict {event.conflict} ends: every deck's 30 cards put away"
    return event.type_name()


def _effect(event: ev.SetEffectApplied) -> str:
    name = NAMES[event.set]
    targets = ", ".join(event.targets) or "nobody"
    if event.recovered:
        gains = ", ".join(f"{r.character_id} +{r.hp} HP +{r.mp} MP" for r in event.recovered)
        return f"{name}: {event.amount} HP and MP to the party ({gains})"
    if event.statuses:
        how = "cured of" if event.cured else "suffer"
        return f"{name}: {targets} {how} {' and '.join(event.statuses)}"
    if event.amount is not None:
        return f"{name}: {event.amount} {event.damage_type} damage to {targets}"
    return f"{name}: a free attack, its damage {event.damage_type}"


def state_lines(view: dict[str, Any]) -> list[str]:
    lines = [f"{view['campaign']} (ace-of-cards), seq {view['seq']}, session {view['session']}"]
    for key, who in view["characters"].items():
        skills = ", ".join(f"{_SKILLS[s]} {sl}" for s, sl in who["skills"].items() if sl)
        lines.append(
            f"  {who['name']} ({who['player']}): HP {who['hp']}/{who['max_hp']}, "
            f"MP {who['mp']}/{who['max_mp']}" + (f"; {skills}" if skills else "")
        )
        cards = who.get("cards")
        if cards:
            hand = (
                _cards(cards["hand"])
                if cards["hand"] is not None
                else (f"{cards['hand_size']} cards")
            )
            lines.append(
                f"    deck {cards['deck']}, hand {hand}, discard {_cards(cards['discard'])}"
            )
        del key
    for key, conflict in view["conflicts"].items():
        lines.append(
            f"  conflict {key} ({conflict['status']}): {', '.join(conflict['party'])} against "
            f"{', '.join(conflict['enemies']) or 'no enemy'}"
        )
    return lines


def conflict_lines(view: dict[str, Any]) -> list[str]:
    lines = [
        f"conflict {view['conflict']} ({view['status']}): {', '.join(view['party'])} against "
        f"{', '.join(view['enemies']) or 'no enemy'}"
    ]
    for ace, cards in view["aces"].items():
        if cards is None:
            continue
        hand = _cards(cards["hand"]) if cards["hand"] is not None else f"{cards['hand_size']} cards"
        lines.append(
            f"  {ace}: deck {cards['deck']}, hand {hand}, discard {_cards(cards['discard'])}"
        )
    actions = {action["id"]: action for action in view["actions"]}
    for kind, ref in view["order"]:
        if kind == "action":
            lines.append(f"  {ref}: {actions[ref]['actor']}: {actions[ref]['text']}")
        elif kind == "set":
            lines.append("  " + _set_line(view["sets"][int(ref)]))
        elif kind == "check":
            lines.append("  " + _check_line(ref, view["checks"][ref]))
        else:
            lines.append("  " + _reaction_line(view["reactions"][int(ref)]))
    return lines


def outcome(summary: dict[str, Any]) -> list[str]:
    """A conflict's outcome in words: each set's effect and each rolled Check's, in order."""
    found: list[str] = []
    for kind, ref in summary["order"]:
        if kind == "set":
            found.append(_set_line(summary["sets"][int(ref)]))
        elif kind == "check" and summary["checks"][ref]["rolled"] is not None:
            found.append(_check_line(ref, summary["checks"][ref]))
    return found


def _set_line(played: dict[str, Any]) -> str:
    return (
        f"{played['character']} Magic Cards {played['mp']} MP: {_cards(played['cards'])} "
        f"-> {played['name']}{_effect_words(played)}"
    )


def _effect_words(played: dict[str, Any]) -> str:
    targets = ", ".join(played["targets"])
    if played["statuses"]:
        how = "cured of" if played["cured"] else "suffer"
        return f": {targets} {how} {' and '.join(played['statuses'])}"
    if played["amount"] is not None and played["damage_type"]:
        return f" {played['amount']} {played['damage_type']} to {targets}"
    if played["amount"] is not None:
        return f" {played['amount']} HP and MP to {targets}"
    if played["damage_type"]:  # Magic Pair: the type its free attack's damage takes
        attack = f" (check {played['attack']})" if played.get("attack") else ""
        return f", its free attack's damage {played['damage_type']}{attack}"
    return ""


def _check_line(key: str, check: dict[str, Any]) -> str:
    state = "called" if check["rolled"] is None else check["rule"] or "rolled"
    double = " (double or nothing)" if check["double_or_nothing"] else ""
    pair = ", Magic Pair's free attack" if check.get("magic_pair") is not None else ""
    return f"check {key} ({check['character']}, {check['kind']}{pair}){double}: {state}"


def _reaction_line(reaction: dict[str, Any]) -> str:
    who = reaction["character"]
    match reaction["kind"]:
        case "trap-card":
            result = "a hit" if reaction["hit"] else "a miss"
            return (
                f"{who} Trap Card after {reaction['action']}, naming {SUITS[reaction['suit']]}: "
                f"bottom card {reaction['card']}, {result}"
            )
        case "free-spell":
            return f"{who} casts {reaction['spell']} for free ({reaction['mp']} MP paid)"
        case "mulligan":
            return (
                f"{who} Mulligan: {_cards(reaction['discarded'])} discarded, "
                f"{reaction['drawn']} drawn"
            )
    return f"{who} High or Low after {reaction['check']}: draws 1, discards {reaction['card']}"
