"""A scene and its rounds: opening a scene, the bid or pass, the challenge offer, the push,
and the scene's end (every player passing in a row, or the GM between rounds; whose turn it
is, `turns`). A command naming a character not seated in the scene is refused for that first,
whatever the round waits for."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.names import player_name
from tablelog.rules.text import optional_text, text_of
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import lookup, powers, turns
from tablelog.rulesets.bid_and_challenge.rules.resolve import settle
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Scene

MAX_SEATS = 40


def open_scene(state: BidAndChallengeState, cmd: c.OpenScene) -> list[Event]:
    key = player_name(cmd.conflict, "scene id") if cmd.conflict else _next_id(state)
    if key in state.scenes:
        raise AlreadyExists(f"scene {key} already exists", code="conflict-exists")
    if not 2 <= len(cmd.seating) <= MAX_SEATS:
        raise RuleViolation(
            f"a scene seats 2 to {MAX_SEATS} players (a bid needs someone to challenge it); "
            f"{len(cmd.seating)} given",
            code="too-few-players",
        )
    busy = {seat: s.key for s in state.open_scenes() for seat in s.seating}
    seating: list[str] = []
    for name in cmd.seating:
        who = lookup.character(state, name)
        if who.key in seating:
            raise InvalidInput(f"{who.name} is seated twice", code="seated-twice")
        if who.dead:
            raise RuleViolation(f"{who.name} is dead", code="dead")
        if who.key in busy:
            raise RuleViolation(
                f"{who.name} already sits in open scene {busy[who.key]}", code="busy"
            )
        seating.append(who.key)
    asked = lookup.character(state, cmd.requested_by).key
    starting = lookup.character(state, cmd.starting).key if cmd.starting else asked
    for role, seat in (
        ("the player asking for the scene", asked),
        ("the starting player", starting),
    ):
        if seat not in seating:
            raise RuleViolation(
                f"{role} ({seat}) must sit in the scene (seating: {', '.join(seating)})",
                code="not-seated",
            )
    premise = optional_text(cmd.premise, "the premise")
    first = turns.starting(state, seating, starting)
    if first is None:
        raise RuleViolation(
            f"no seated character has a card in Deck (seating: {', '.join(seating)}): nobody "
            "could be the active player, so the scene cannot start (option empty_deck)",
            code="no-deck",
        )
    return [
        ev.SceneStarted(
            conflict=key,
            seating=seating,
            starting_player=first,
            requested_by=asked,
            premise=premise,
        ),
        ev.RoundStarted(conflict=key, round=1, active=first),
    ]


def _next_id(state: BidAndChallengeState) -> str:
    n = len(state.scenes) + 1
    while f"s{n}" in state.scenes:
        n += 1
    return f"s{n}"


def bid(state: BidAndChallengeState, cmd: c.Bid) -> list[Event]:
    scene = lookup.open_scene(state, cmd.conflict)
    bidder = lookup.seated(state, scene, cmd.active)
    lookup.expect(scene, ("bid",), "bid")
    rnd = scene.current
    if not bidder.in_zone("deck"):
        then = "pass" if bidder.key == rnd.active else f"it is {rnd.active}'s turn"
        raise RuleViolation(
            f"{bidder.key}'s deck is empty: {bidder.key} cannot be the active player "
            f"({bidder.key} may still challenge); {then}",
            code="empty-deck",
        )
    if bidder.key != rnd.active:
        raise RuleViolation(
            f"it is {rnd.active}'s turn to bid or pass; {bidder.key} is not the active player",
            code="not-active",
        )
    least = state.options.min_bid
    if len(cmd.cards) < least:
        raise RuleViolation(
            f"a bid commits at least {least} card{'' if least == 1 else 's'} (option min_bid); "
            f"got {len(cmd.cards)}",
            code="min-bid",
        )
    if len(cmd.cards) > bidder.flow:
        raise RuleViolation(
            f"bid commits {len(cmd.cards)} cards but {bidder.key}'s Flow is {bidder.flow}",
            code="flow-limit",
        )
    cards = lookup.own_cards(state, bidder, cmd.cards)
    description = text_of(cmd.description, "a bid's description")
    power = powers.power_of(state, cmd.power, bidder)
    return [
        ev.BidMade(
            conflict=scene.key,
            round=rnd.number,
            active=bidder.key,
            description=description,
            power=power,
            cards=cards,
        ),
        *_commits(scene, bidder.key, cards),
    ]


def _commits(scene: Scene, owner: str, cards: list[str]) -> list[Event]:
    return [
        ev.CardMoved(
            conflict=scene.key, card_id=card, owner=owner, from_="deck", to="play", reason="commit"
        )
        for card in cards
    ]


def pass_(state: BidAndChallengeState, cmd: c.Pass) -> list[Event]:
    scene = lookup.open_scene(state, cmd.conflict)
    who = lookup.seated(state, scene, cmd.player)
    lookup.expect(scene, ("bid", "challenge"), "pass")
    rnd = scene.current
    if rnd.phase == "challenge":
        if who.key != rnd.asked:
            raise RuleViolation(
                f"it is {rnd.asked}'s turn to accept or pass the challenge; not {who.key}'s",
                code="not-your-turn",
            )
        declined = ev.ChallengeDeclined(conflict=scene.key, round=rnd.number, player=who.key)
        if len(rnd.declined) + 1 < len(rnd.offers):
            return [declined]
        return [declined, *settle(state, scene, [])]  # nobody challenged: the bid succeeds
    if who.key != rnd.active:
        raise RuleViolation(
            f"it is {rnd.active}'s turn to bid or pass; {who.key} is not the active player",
            code="not-active",
        )
    return turns.after_pass(state, scene, who.key)


def challenge(state: BidAndChallengeState, cmd: c.Challenge) -> list[Event]:
    scene = lookup.open_scene(state, cmd.conflict)
    who = lookup.seated(state, scene, cmd.challenger)
    lookup.expect(scene, ("challenge",), "challenge")
    rnd = scene.current
    assert rnd.bid is not None
    if who.key != rnd.asked:
        raise RuleViolation(
            f"it is {rnd.asked}'s turn to accept or pass the challenge; not {who.key}'s",
            code="not-your-turn",
        )
    count, limit = len(cmd.cards) + len(cmd.universe), len(rnd.bid.cards)
    if count < 1:
        raise RuleViolation(
            "a challenge commits at least 1 card (own or universe); got 0", code="min-challenge"
        )
    if count > limit:
        raise RuleViolation(
            f"challenger may commit at most {limit} card{'' if limit == 1 else 's'} (the bid's "
            f"count); got {count}",
            code="challenge-limit",
        )
    own = lookup.own_cards(state, who, cmd.cards)
    universe = lookup.cards_in(state.universe, cmd.universe, "deck", "the universe")
    description = text_of(cmd.description, "a challenge's description")
    power = None
    if cmd.power is not None:
        if not state.options.challenger_power:
            raise RuleViolation(
                "the challenger's win is narrative only (option challenger_power is false); "
                "name no power",
                code="challenger-power",
            )
        power = powers.power_of(state, cmd.power, who)
    committed = [ev.Committed(card_id=k, source="own") for k in own] + [
        ev.Committed(card_id=k, source="universe") for k in universe
    ]
    return [
        ev.ChallengeMade(
            conflict=scene.key,
            round=rnd.number,
            challenger=who.key,
            description=description,
            cards=committed,
            power=power,
        ),
        *_commits(scene, who.key, own),
        *_commits(scene, ev.UNIVERSE, universe),
    ]


def push(state: BidAndChallengeState, cmd: c.Push) -> list[Event]:
    scene = lookup.open_scene(state, cmd.conflict)
    who = lookup.seated(state, scene, cmd.active)
    rnd = scene.current
    if rnd.phase == "roll":
        raise RuleViolation(
            f"{rnd.active} has pushed already in round {rnd.number}; roll", code="pushed-twice"
        )
    lookup.expect(scene, ("push",), "push")
    if who.key != rnd.active:
        raise RuleViolation(
            f"only the active player may push; {who.key} is not {rnd.active}", code="only-active"
        )
    if len(cmd.cards) > who.flow:
        raise RuleViolation(
            f"push adds {len(cmd.cards)} cards but Flow is {who.flow}", code="push-limit"
        )
    cards = lookup.own_cards(state, who, cmd.cards)
    description = text_of(cmd.description, "a push's revised description")
    return [
        ev.Pushed(
            conflict=scene.key,
            round=rnd.number,
            active=who.key,
            revised_description=description,
            cards=cards,
        ),
        *_commits(scene, who.key, cards),
    ]


def close_scene(state: BidAndChallengeState, cmd: c.CloseScene) -> list[Event]:
    scene = lookup.open_scene(state, cmd.conflict)
    if scene.current.phase not in ("bid", "done"):
        raise RuleViolation(
            f"scene {scene.key} has cards in Play (it waits for {lookup.waiting_for(scene)}); "
            "end it between rounds",
            code="mid-round",
        )
    reason = optional_text(cmd.reason, "the reason") or "ended by the GM"
    return [ev.SceneEnded(conflict=scene.key, reason=reason)]
