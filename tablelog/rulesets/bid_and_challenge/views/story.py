"""The story of a Bid & Challenge scene on the page, in plain words, for one viewer.

Every step of a round is played face up (bids, challenges, pushes, rolls), so all of it is
public; the winner's narration of each round is a quote with who said it, and the outcome
reads "You won round 1 (12 vs 10)" for the winner's player.
"""

from __future__ import annotations

from tablelog.projections.page import Quote
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Round, Scene


def _name(state: BidAndChallengeState, key: str, mine: list[str], *, start: bool = False) -> str:
    if len(mine) == 1 and key == mine[0]:
        return "You" if start else "you"
    found = state.characters.get(key)
    return found.name if found is not None else key


def _round(state: BidAndChallengeState, rnd: Round, mine: list[str]) -> list[str]:
    def name(key: str) -> str:
        found = state.characters.get(key)
        return found.name if found is not None else key

    told = [f"Round {rnd.number}: {name(rnd.active)} is active."]
    if rnd.passed:
        told.append(f"{name(rnd.active)} passed.")
    if rnd.bid is not None:
        cards = " + ".join(rnd.bid.cards)
        told.append(f"{name(rnd.active)} bid '{rnd.bid.description}' with {cards}.")
    for key in rnd.declined:
        told.append(f"{name(key)} let the bid stand.")
    if rnd.challenge is not None:
        count = len(rnd.challenge.cards)
        told.append(
            f"{name(rnd.challenge.challenger)} challenged: '{rnd.challenge.description}' "
            f"with {count} card{'s' if count != 1 else ''}."
        )
    if rnd.push is not None:
        told.append(
            f"{name(rnd.push.active)} pushed: '{rnd.push.revised_description}' "
            f"(+{' + '.join(rnd.push.cards)})."
        )
    for roll in rnd.rolls.values():
        told.append(f"{name(roll.character)} rolled {roll.total}.")
    if rnd.resolved is not None:
        told.append(
            f"{_name(state, rnd.resolved.winner, mine, start=True)} won: {rnd.resolved.rule}."
        )
        if rnd.resolved.power_void:
            told.append(f"Not done: {rnd.resolved.power_void}.")
    return told


def story(state: BidAndChallengeState, scene: Scene, mine: list[str]) -> list[str]:
    """What happened in the scene, oldest first."""
    premise = f": {scene.premise}" if scene.premise else ""
    told = [f"The scene began{premise}."]
    for rnd in scene.rounds:
        told += _round(state, rnd, mine)
    if scene.status == "ended":
        told.append(f"The scene ended: {scene.ended_reason}.")
    return told


def quotes(state: BidAndChallengeState, scene: Scene) -> list[Quote]:
    found = []
    for rnd in scene.rounds:
        if rnd.narration is not None:
            key = rnd.narration.player
            who = state.characters[key].name if key in state.characters else key
            found.append(Quote(who=who, text=rnd.narration.text, when=f"round {rnd.number}"))
    return found


def result(state: BidAndChallengeState, scene: Scene, mine: list[str]) -> str:
    """Each decided round for the viewer ("You won round 1 (12 vs 10)"); the latest one while
    the scene is open, all of them once it has ended."""
    said = []
    for rnd in scene.rounds:
        done = rnd.resolved
        if done is None:
            continue
        winner = _name(state, done.winner, mine, start=True)
        if done.loser is None:
            said.append(f"{winner} won round {rnd.number} unchallenged")
            continue
        active = done.winner == rnd.active
        won, lost = (
            (done.active_total, done.challenger_total)
            if active
            else (done.challenger_total, done.active_total)
        )
        if _name(state, done.loser, mine) == "you":
            said.append(f"You lost round {rnd.number} to {winner} ({lost} vs {won})")
        else:
            said.append(f"{winner} won round {rnd.number} ({won} vs {lost})")
    if scene.status == "open":
        return said[-1] if said else ""
    return "; ".join(said) or "Nobody won a round"
