"""The winner narrates: after a round is decided (rolled, or a bid nobody challenged), its
winner may say what happens, once. It is optional: the next round goes on without it, and the
words may come until another round of the scene is decided (after the scene's end, until
another scene starts)."""

from __future__ import annotations

from tablelog.errors import RuleViolation
from tablelog.events.base import Event
from tablelog.rules.text import text_of
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import lookup
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Round, Scene


def decided(scene: Scene) -> Round | None:
    """The scene's latest decided round (the one its winner may narrate), if any."""
    return next((r for r in reversed(scene.rounds) if r.resolved is not None), None)


def narrate(state: BidAndChallengeState, cmd: c.Narrate) -> list[Event]:
    scene = lookup.scene(state, cmd.conflict)
    if scene.compacted:
        raise RuleViolation(
            f"scene {scene.key} has ended and another scene has started since; its rounds "
            "can no longer be narrated",
            code="scene-closed",
        )
    who = lookup.character(state, cmd.player)
    rnd = decided(scene)
    if rnd is None or rnd.resolved is None:
        raise RuleViolation(
            f"no round of scene {scene.key} has been decided yet; the winner narrates once "
            "the round is resolved",
            code="no-round-decided",
        )
    winner = rnd.resolved.winner
    if who.key != winner:
        raise RuleViolation(
            f"only a round's winner narrates it: round {rnd.number} of scene {scene.key} was "
            f"won by {winner}, not {who.key}",
            code="not-winner",
        )
    if rnd.narration is not None:
        raise RuleViolation(
            f"{winner} has narrated round {rnd.number} of scene {scene.key} already; a round "
            "is narrated once",
            code="narrated-twice",
        )
    text = text_of(cmd.text, "a narration")
    return [ev.Narrated(conflict=scene.key, round=rnd.number, player=who.key, text=text)]
