"""Folding Bid & Challenge's events into its state. `evolve` trusts the log: it never refuses."""

from __future__ import annotations

from typing import assert_never

from tablelog.events.core import (
    AccessReissued,
    CampaignCreated,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
)
from tablelog.rules.options import from_recorded
from tablelog.rules.table import evolve_table
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules.options import LEGACY, BidAndChallengeOptions
from tablelog.rulesets.bid_and_challenge.rules.state import (
    BidAndChallengeState,
    Character,
    Detail,
    Round,
    Scene,
    offers_for,
)

BidAndChallengeEvent = (
    SessionStarted
    | SessionEnded
    | SceneStarted
    | SceneEnded
    | AccessReissued
    | ev.PlayerJoined
    | ev.DeckRegistered
    | ev.UniverseCardCreated
    | ev.CharacterDied
    | ev.SceneStarted
    | ev.RoundStarted
    | ev.BidMade
    | ev.Passed
    | ev.ChallengeDeclined
    | ev.ChallengeMade
    | ev.Pushed
    | ev.DiceRolled
    | ev.RoundResolved
    | ev.CardMoved
    | ev.DetailDefined
    | ev.SceneEnded
    | ev.Narrated
)


def initial(created: CampaignCreated) -> BidAndChallengeState:
    return BidAndChallengeState(
        campaign=created.campaign,
        gm=created.gm,
        # A creation event written before an option existed keeps the rule it was played by.
        options=from_recorded(BidAndChallengeOptions, {**LEGACY, **created.options}),
    )


def evolve(state: BidAndChallengeState, event: BidAndChallengeEvent) -> BidAndChallengeState:
    state.seq += 1
    match event:
        case SessionStarted() | SessionEnded() | SceneStarted() | SceneEnded():
            evolve_table(state.table, event)
        case AccessReissued():
            pass  # who holds a token is no part of the table
        case ev.PlayerJoined():
            state.players[event.player] = event.display
        case ev.DeckRegistered():
            state.characters[event.character_id] = Character(
                key=event.character_id,
                name=event.name,
                player=event.player_id,
                flow=event.flow,
                cards={c.card_id: c for c in event.cards},
                zones={c.card_id: "deck" for c in event.cards},
            )
        case ev.UniverseCardCreated():
            card = ev.Card(card_id=event.card_id, name=event.name, dice=event.dice, mod=event.mod)
            state.universe.cards[card.card_id] = card
            state.universe.zones[card.card_id] = "deck"
            if event.conflict is not None:
                state.scenes[event.conflict].current.created.append(event)
        case ev.CharacterDied():
            state.characters[event.character_id].dead = True
        case ev.SceneStarted():
            for ended in state.scenes.values():
                if ended.status == "ended" and not ended.compacted:
                    ended.compact()
            state.scenes[event.conflict] = Scene(
                key=event.conflict,
                seating=list(event.seating),
                starting=event.starting_player,
                requested_by=event.requested_by,
                premise=event.premise,
            )
        case ev.RoundStarted():
            scene = state.scenes[event.conflict]
            scene.rounds.append(
                Round(
                    number=event.round,
                    active=event.active,
                    offers=offers_for(scene.seating, event.active),
                )
            )
        case ev.BidMade():
            scene = state.scenes[event.conflict]
            scene.current.bid, scene.current.phase = event, "challenge"
            scene.passes = 0
        case ev.Passed():
            scene = state.scenes[event.conflict]
            scene.current.passed, scene.current.phase = True, "done"
            scene.passes = event.passes
        case ev.ChallengeDeclined():
            state.scenes[event.conflict].current.declined.append(event.player)
        case ev.ChallengeMade():
            rnd = state.scenes[event.conflict].current
            rnd.challenge, rnd.phase = event, "push"
        case ev.Pushed():
            rnd = state.scenes[event.conflict].current
            rnd.push, rnd.phase = event, "roll"
        case ev.DiceRolled():
            state.scenes[event.conflict].current.rolls[event.side] = event
        case ev.RoundResolved():
            rnd = state.scenes[event.conflict].current
            rnd.resolved, rnd.phase = event, "done"
        case ev.CardMoved():
            state.holder(event.owner).zones[event.card_id] = event.to
            scene = state.scenes[event.conflict]
            if scene.current.resolved is not None:
                scene.current.moves.append(event)
        case ev.DetailDefined():
            state.details[event.detail_id] = Detail(event.text, event.by, event.conflict)
            state.scenes[event.conflict].current.details.append(event)
        case ev.SceneEnded():
            scene = state.scenes[event.conflict]
            scene.status, scene.ended_reason = "ended", event.reason
            scene.ended_at = state.seq
        case ev.Narrated():
            scene = state.scenes[event.conflict]
            for rnd in scene.rounds:
                if rnd.number == event.round:
                    rnd.narration = event
            if scene.status == "ended":  # the scene's last round, narrated after its end
                scene.ended_at = state.seq
        case _:
            assert_never(event)
    return state
