"""The end of a round: the dice of every committed card, the winner (`cards.decide_round`),
where every card goes, the winner's power, and the next round."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import lookup, powers, turns
from tablelog.rulesets.bid_and_challenge.rules.cards import (
    FACES,
    decide_round,
    total_of,
    value_text,
)
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Round, Scene

Shuffle = Callable[[list[str]], list[str]]


def side_cards(rnd: Round) -> dict[ev.SideName, list[tuple[str, str]]]:
    """Each side's committed cards as (owner, card), in the order committed."""
    assert rnd.bid is not None
    active = [(rnd.active, card) for card in rnd.bid.cards + rnd.pushed]
    challenger: list[tuple[str, str]] = []
    if rnd.challenge is not None:
        who = rnd.challenge.challenger
        challenger = [
            (who if one.source == "own" else ev.UNIVERSE, one.card_id)
            for one in rnd.challenge.cards
        ]
    return {"active": active, "challenger": challenger}


def roll(state: BidAndChallengeState, cmd: c.Roll, shuffle: Shuffle) -> list[Event]:
    scene = lookup.open_scene(state, cmd.conflict)
    lookup.expect(scene, ("push", "roll"), "roll")
    rnd = scene.current
    assert rnd.challenge is not None
    expecting = cmd.expect_winner is not None or cmd.expect_totals is not None
    if expecting and state.options.dice == "managed":
        raise InvalidInput(
            "with managed dice nobody knows the faces before the roll; expect nothing",
            code="managed-dice",
        )
    cards = side_cards(rnd)
    given = {"active": cmd.active_faces, "challenger": cmd.challenger_faces}
    who = {"active": rnd.active, "challenger": rnd.challenge.challenger}
    rolled: list[ev.DiceRolled] = []
    for side in ("active", "challenger"):
        rolls = _roll_side(state, side, cards[side], given[side], shuffle)
        rolled.append(
            ev.DiceRolled(
                conflict=scene.key,
                round=rnd.number,
                side=side,
                character=who[side],
                rolls=rolls,
                total=total_of(rolls),
            )
        )
    settled = settle(state, scene, rolled)
    _as_expected(state, cmd, settled[0])
    return [*rolled, *settled]


def _as_expected(state: BidAndChallengeState, cmd: c.Roll, resolved: Event) -> None:
    """The table's own reckoning of recorded faces, checked against the rules'."""
    assert isinstance(resolved, ev.RoundResolved)
    if cmd.expect_winner is None and cmd.expect_totals is None:
        return
    expected_totals = cmd.expect_totals
    if expected_totals is not None and len(expected_totals) != 2:
        raise InvalidInput(
            "the expected totals are two numbers, the active side's and the challenger's "
            f"(e.g. 10,12); got {len(expected_totals)}",
            code="bad-values",
        )
    totals = [resolved.active_total, resolved.challenger_total]
    winner = resolved.winner
    expected = cmd.expect_winner.strip().casefold() if cmd.expect_winner else winner
    if expected != winner or (expected_totals is not None and expected_totals != totals):
        wanted = " and ".join(
            part
            for part in (
                f"{expected} to win" if cmd.expect_winner else "",
                f"totals {_pair(expected_totals)}" if expected_totals is not None else "",
            )
            if part
        )
        raise RuleViolation(
            f"the faces give totals {_pair(totals)}, so {resolved.rule}; expected {wanted}",
            code="unexpected-result",
        )


def _pair(totals: Sequence[int | None]) -> str:
    active, challenger = totals
    return f"{active} (active) and {challenger} (challenger)"


def _roll_side(
    state: BidAndChallengeState,
    side: ev.SideName,
    cards: Sequence[tuple[str, str]],
    faces: list[int] | None,
    shuffle: Shuffle,
) -> list[ev.CardRoll]:
    printed = [state.holder(owner).cards[card] for owner, card in cards]
    dice = sum(card.dice for card in printed)
    if state.options.dice == "managed":
        if faces:
            raise InvalidInput(
                "tablelog rolls the dice in this campaign (option dice=managed); give no faces",
                code="managed-dice",
            )
        faces = [int(shuffle([str(n) for n in range(1, FACES + 1)])[0]) for _ in range(dice)]
    faces = list(faces or [])
    if len(faces) != dice:
        values = ", ".join(f"{card.name} {value_text(card.dice, card.mod)}" for card in printed)
        raise InvalidInput(
            f"recorded dice: the {side} side rolls {dice} {'die' if dice == 1 else 'dice'} "
            f"({values}); {len(faces)} face{'' if len(faces) == 1 else 's'} given",
            code="faces-count",
        )
    for face in faces:
        if not 1 <= face <= FACES:
            raise InvalidInput(f"a d6 shows 1 to {FACES}; got {face}", code="bad-face")
    rolls: list[ev.CardRoll] = []
    for (owner, _), card in zip(cards, printed, strict=True):
        taken, faces = faces[: card.dice], faces[card.dice :]
        rolls.append(ev.CardRoll(card_id=card.card_id, owner=owner, faces=taken, mod=card.mod))
    return rolls


def settle(
    state: BidAndChallengeState, scene: Scene, rolled: Sequence[ev.DiceRolled]
) -> list[Event]:
    """The round's resolution on the state before it (`rolled`: both sides' dice, none when
    nobody challenged): the winner, the cards back where they go, the winner's power, and
    the next round with the player on the active player's left."""
    rnd = scene.current
    assert rnd.bid is not None
    totals = {r.side: r.total for r in rolled}
    challenger = rnd.challenge.challenger if rnd.challenge is not None else None
    decision = decide_round(rnd.active, challenger, totals.get("active"), totals.get("challenger"))
    active_lost = decision.winner != rnd.active
    moves: list[Event] = []
    zones: dict[tuple[str, str], ev.Zone] = {}
    committed = side_cards(rnd)
    for owner, card in committed["active"] + committed["challenger"]:
        lost = owner == rnd.active and card in rnd.pushed and active_lost
        to: ev.Zone = "discard" if lost else "deck"
        zones[(owner, card)] = to
        moves.append(
            ev.CardMoved(
                conflict=scene.key,
                card_id=card,
                owner=owner,
                from_="play",
                to=to,
                reason="push_lost" if lost else "return",
            )
        )
    power = rnd.bid.power if not active_lost else None
    if active_lost and rnd.challenge is not None:
        power = rnd.challenge.power
    effects, void = (
        powers.apply(state, power, decision.winner, scene.key, rnd.number, zones)
        if power is not None
        else ([], "")
    )
    resolved = ev.RoundResolved(
        conflict=scene.key,
        round=rnd.number,
        winner=decision.winner,
        loser=decision.loser,
        active_total=totals.get("active"),
        challenger_total=totals.get("challenger"),
        rule=decision.rule,
        power_applied=bool(effects),
        power_void=void,
    )
    return [resolved, *moves, *effects, turns.after_round(state, scene, [*moves, *effects])]
