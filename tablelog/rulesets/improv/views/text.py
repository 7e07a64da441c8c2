"""Improv in words: one line per event, and a conflict round by round, for terminals."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tablelog.events.base import Event
from tablelog.events.core import CampaignCreated
from tablelog.rulesets.improv import events as ev
from tablelog.rulesets.improv.rules.cards import pretty
from tablelog.rulesets.improv.rules.state import Conflict, ImprovState
from tablelog.rulesets.improv.views import narration


def describe(event: Event) -> str:
    match event:
        case ev.PlayerJoined():
            return f"player {event.display} joins"
        case ev.CharacterCreated():
            talents = ", ".join(event.talents.values()) or "no talents"
            return f"{event.player} plays {event.display} ({talents})"
        case ev.SessionStarted():
            return (
                f"session {event.session} starts: GM {event.gm_tokens} tokens, pool "
                f"{event.pool}, players {', '.join(event.players)}"
            )
        case ev.SessionEnded():
            return f"session {event.session} ends"
        case ev.SceneStarted():
            return f"scene {event.scene} starts" + (f": {event.title}" if event.title else "")
        case ev.SceneEnded():
            return f"scene {event.scene} ends"
        case ev.DeckShuffled():
            return f"the {event.deck} deck is shuffled ({len(event.order)} cards, {event.reason})"
        case ev.CardsDrawn():
            return f"{event.owner} draws {len(event.cards)} card(s) from the {event.deck} deck"
        case ev.CardsDiscarded():
            return f"{event.owner} discards {len(event.cards)} card(s)"
        case ev.ConflictOpened():
            rounds = f", {event.rounds} rounds" if event.kind == "extended" else ""
            return f"conflict {event.conflict} opens ({event.kind}{rounds})"
        case ev.StakeSet():
            against = f", opposing {event.opposes}" if event.opposes else ""
            who = "GM stake" if event.gm else "stake"
            return f"{event.conflict}: {who} {event.display}{against}: {event.text}"
        case ev.CardPlayed():
            how = " blind from the deck" if event.from_deck else ""
            how += " (an empty hand: unseen by anyone)" if event.unseen else ""
            return f"{event.conflict} round {event.round}: {event.side} plays a card face down{how}"
        case ev.CardSealed():
            return (
                f"{event.conflict} round {event.round}: {event.side} plays a sealed card "
                f"(commitment {event.commitment[:12]}...)"
            )
        case ev.CardOpened():
            return (
                f"{event.conflict} round {event.round}: {event.side} opens its sealed card: "
                f"{pretty(event.card)} (matches its commitment)"
            )
        case ev.OpeningDeadlineSet():
            return (
                f"{event.conflict} round {event.round}: the sealed cards must be opened by "
                f"{_utc(event.deadline)}"
            )
        case ev.OpeningForfeited():
            return (
                f"{event.conflict} round {event.round}: {event.side} did not open its sealed card "
                f"by the deadline ({_utc(event.deadline)}) and forfeits the round: its card counts "
                "as the lowest card"
            )
        case ev.BonusPlaced():
            what = (
                f"{event.count} story-token(s)"
                if event.kind == "token"
                else f"talent-marker ({event.talent})"
            )
            return f"{event.conflict} round {event.round}: {event.by} puts {what} on {event.on}"
        case ev.RoundRevealed():
            return reveal_line(event)
        case ev.FateCardDrawn():
            return f"{event.conflict}: Hand of Fate, {event.side} draws {pretty(event.card)}"
        case ev.FateResolved():
            cards = ", ".join(f"{pretty(w)} vs {pretty(lo)}" for w, lo in event.draws)
            return (
                f"{event.conflict}: the Hand of Fate favours {event.winner} over "
                f"{event.loser} ({cards})"
            )
        case ev.FateChosen():
            outcome = {
                "eliminated": "is eliminated, losing its stakes and victory cards",
                "stayed": "stays in, seriously harmed",
                "destroyed": "is destroyed (a second Hand-of-Fate loss)",
            }[event.outcome]
            return f"{event.conflict}: {event.side} {outcome}"
        case ev.VictoryCardGiven():
            return f"{event.conflict}: {event.giver} gives {pretty(event.card)} to {event.receiver}"
        case ev.TokenAwarded():
            return f"{event.giver} awards a story-token to {event.receiver} ({event.source})"
        case ev.TokenSpent():
            return f"{event.player} spends a story-token on a {event.purpose} (to {event.to})"
        case ev.Narrated():
            final = "final narration" if event.final else "narrates"
            return f"{event.conflict}: {event.side} {final}: {event.text}"
        case ev.ConflictClosed():
            if event.reason is not None:
                return (
                    f"conflict {event.conflict} is abandoned by the GM: {event.reason}; nobody "
                    f"wins, its cards are discarded{_moves(event.token_moves)}"
                )
            if event.abandoned:
                return f"conflict {event.conflict} closes before any card was played"
            beats = ", ".join(f"{w} beats {lo}" for w, lo in event.beats) or "nobody beats anybody"
            return f"conflict {event.conflict} closes: {beats}{_moves(event.token_moves)}"
        case CampaignCreated():
            return f"campaign {event.campaign} created ({event.ruleset}, GM {event.gm})"
    return event.type_name()


def reveal_line(event: ev.RoundRevealed) -> str:
    plays = ", ".join(f"{s} {pretty(event.cards[s])}={event.totals[s]}" for s in event.ranking)
    beats = "; ".join(f"{w} beats {lo}" for w, lo in event.beats)
    ties = "; ".join(
        f"{a} ties {b}: each draws a tie-breaker (Hand of Fate)" for a, b in event.ties
    )
    alone = "; ".join(
        f"{s} is unopposed: it beats nobody" for s in event.unopposed if s in event.cards
    )
    outcome = "; ".join(x for x in (beats, ties, alone) if x) or "no contest"
    return (
        f"{event.conflict} round {event.round} revealed: {plays}. {outcome}"
        f"{_moves(event.token_moves)}"
    )


def _moves(moves: list[ev.TokenMove]) -> str:
    """Where tokens went, and why: a play-by-post GM should not have to diff the state."""
    if not moves:
        return ""
    places = {"pool": "the pool", "bank": "the bank", "out_of_play": "out of play", "gm": "the GM"}
    return ". Tokens: " + "; ".join(
        f"{m.count} to {places.get(m.to, m.to)} ({m.reason})" for m in moves
    )


def conflict_text(state: ImprovState, conflict: Conflict, view: dict[str, Any]) -> list[str]:
    """The lines of `improv show`: each round's plays, totals and outcome."""
    status = "abandoned" if conflict.abandoned is not None else conflict.status
    lines = [
        f"conflict {conflict.key} ({conflict.kind}, {status}, {conflict.planned_rounds} round(s))"
    ]
    if conflict.abandoned is not None:
        lines.append(f"  abandoned by the GM: {conflict.abandoned}; nobody wins")
    for side in conflict.sides.values():
        against = f" vs {side.opposes}" if side.opposes else ""
        pile = " ".join(pretty(p.card) for p in side.victory)
        lines.append(
            f"  {side.display}{' (GM)' if side.gm else ''}{against} [{side.status}]: "
            f"{side.text}" + (f"  pile: {pile}" if pile else "")
        )
    names = {side.key: side.display for side in conflict.sides.values()}
    for rnd in view["rounds"]:
        lines.append(f"round {rnd['round']}{'' if rnd['revealed'] else ' (face down)'}:")
        for side, play in rnd["plays"].items():
            card = pretty(play["card"]) if play["card"] else "blind" if play["unseen"] else "??"
            extras = [
                f"+{b['count']} token(s) by {b['by']}"
                if b["kind"] == "token"
                else f"talent {b['talent']} by {b['by']}"
                for b in play["bonuses"]
            ]
            total = play["total"] if play["total"] is not None else "?"
            lines.append(f"    {side:<12} {card:>6} {' '.join(extras):<24} total {total}")
        if rnd["beats"]:
            lines.append("    " + "; ".join(f"{w} beats {lo}" for w, lo in rnd["beats"]))
        if rnd["ties"]:
            lines.append(
                "    waiting for the Hand of Fate: "
                + "; ".join(f"{a} / {b} draw tie-breakers" for a, b in rnd["ties"])
            )
        if narration.multi_way(rnd["ranking"]):
            found = [
                narration.Rights(side=side, total=rnd["plays"][side]["total"], over=over)
                for side, over in rnd["narration_rights"].items()
            ]
            lines.append("    " + narration.sentence(found, lambda k: names.get(k, k)))
        choosing = [s for s in rnd["choices_due"] if conflict.sides[s].fate_losses < 2]
        if choosing:
            lines.append("    to choose --eliminate or --stay: " + ", ".join(choosing))
        lost_twice = [s for s in rnd["choices_due"] if s not in choosing]
        if lost_twice:  # a log written before a second loss destroyed on its own
            lines.append("    destroyed by a second Hand-of-Fate loss: " + ", ".join(lost_twice))
    if view["beats"]:
        lines.append("outcome: " + "; ".join(f"{w} beats {lo}" for w, lo in view["beats"]))
    return lines


def state_lines(view: dict[str, Any]) -> list[str]:
    """`tablelog state` for an Improv campaign: the session, the token ledger, talents and
    each conflict's outcome."""
    lines = [f"campaign {view['campaign']} ({view['ruleset']}) at seq {view['seq']}"]
    lines.append(f"session {view['session']}" + ("" if view["session_open"] else " (ended)"))
    tokens = view["tokens"]
    players = ", ".join(f"{p} {n}" for p, n in tokens["players"].items()) or "none"
    lines.append(
        f"tokens: GM {tokens['gm']}, pool {tokens['pool']}, bank {tokens['bank']}, "
        f"out of play {tokens['out_of_play']}, on cards {tokens['table']}; players: {players}"
    )
    for character, use in view["talents"].items():
        lines.append(f"talents of {character}: {use['used']} of {use['limit']} used this session")
    for key, conflict in view["conflicts"].items():
        beats = "; ".join(f"{w} beats {lo}" for w, lo in conflict["beats"])
        status = "abandoned" if conflict.get("abandoned") is not None else conflict["status"]
        lines.append(
            f"conflict {key}: {conflict['kind']}, {status}, round "
            f"{conflict['round']} of {conflict['rounds']}" + (f"; {beats}" if beats else "")
        )
    return lines


def _utc(micros: int) -> str:
    return datetime.fromtimestamp(micros / 1_000_000, tz=UTC).strftime("%Y-%m-%d %H:%M:%SZ")
