"""evolve(state, event): the only place an Ace of Cards state changes, one event at a time.

Recorded decisions (a set's effect, a Check's outcome) are applied as stored: the audit, not
the fold, recomputes them. The match ends in `assert_never`.
"""

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
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules.options import AceOfCardsOptions
from tablelog.rulesets.ace_of_cards.rules.state import (
    AceState,
    Action,
    Character,
    Check,
    Conflict,
    Pile,
    Reaction,
    SetPlayed,
)

AceEvent = (
    ev.PlayerJoined
    | ev.CharacterCreated
    | ev.DeckBuilt
    | ev.SkillLevelSet
    | ev.HPChanged
    | ev.MPChanged
    | ev.ConflictStarted
    | ev.DeckShuffled
    | ev.CardsDrawn
    | ev.DiscardShuffledIntoDeck
    | ev.CardsDiscarded
    | ev.ActionTaken
    | ev.MagicCardsUsed
    | ev.SetEffectApplied
    | ev.MulliganTaken
    | ev.TrapCardRevealed
    | ev.FreeSpellCast
    | ev.CheckCalled
    | ev.DoubleOrNothingDeclared
    | ev.CheckRolled
    | ev.CheckResolved
    | ev.HighOrLowUsed
    | ev.ConflictEnded
    | SessionStarted
    | SessionEnded
    | SceneStarted
    | SceneEnded
    | AccessReissued
)


# Options a campaign created before they existed plays on with, where that differs from
# the default a new campaign records (a new campaign's creation event holds every option,
# defaults filled in: commands.campaigns.plan_campaign).
BEFORE_OPTION = {"class_skills": "all"}  # issue 26: Double or Nothing, High or Low for all


def initial(created: CampaignCreated) -> AceState:
    return AceState(
        campaign=created.campaign,
        gm=created.gm,
        options=from_recorded(AceOfCardsOptions, {**BEFORE_OPTION, **created.options}),
        players={created.gm: created.gm},
    )


def _pile(state: AceState, key: str) -> Pile:
    pile = state.characters[key].pile
    if pile is None:
        raise LookupError(f"{key} has no cards out of a conflict")
    return pile


def _take(cards: list[str], taken: list[str]) -> None:
    for card in taken:
        cards.remove(card)


def _acted(state: AceState, key: str) -> None:
    """An action of its own: a new turn's Mulligan may come at its end."""
    character = state.characters.get(key)
    if character is not None:
        character.mulligan_done = False


def _next_action(state: AceState, conflict: Conflict) -> None:
    """Another action begins: a Trap Card's free spell and a Magic Pair's free attack, which
    come at once, are gone."""
    for key in conflict.party:
        state.characters[key].trap_window = state.characters[key].free_attack = None


def _react(state: AceState, conflict: str, reaction: Reaction) -> None:
    found = state.conflicts[conflict]
    found.order.append(["reaction", str(len(found.reactions))])
    found.reactions.append(reaction)


def evolve(state: AceState, event: AceEvent) -> AceState:
    match event:
        case ev.PlayerJoined():
            state.players[event.player] = event.display
        case ev.CharacterCreated():
            state.characters[event.character_id] = Character(
                key=event.character_id,
                display=event.display,
                player=event.player,
                max_hp=event.max_hp,
                max_mp=event.max_mp,
                hp=event.max_hp,
                mp=event.max_mp,
            )
        case ev.DeckBuilt():
            character = state.characters[event.character_id]
            character.cards, character.suit_types = list(event.cards), dict(event.suit_types)
            character.benefit = event.benefit
            if event.benefit == "hp":  # the free benefit: +5 maximum HP or MP
                character.max_hp += 5
                character.hp += 5
            else:
                character.max_mp += 5
                character.mp += 5
        case ev.SkillLevelSet():
            state.characters[event.character_id].skills[event.skill] = event.sl
        case ev.HPChanged():
            state.characters[event.character_id].hp += event.delta
        case ev.MPChanged():
            state.characters[event.character_id].mp += event.delta
        case ev.ConflictStarted():
            state.conflicts[event.conflict] = Conflict(
                key=event.conflict, party=list(event.party), enemies=list(event.enemies)
            )
            for key in event.party:
                state.characters[key].conflict = event.conflict
        case ev.DeckShuffled():
            character = state.characters[event.character_id]
            character.pile = Pile(deck=list(event.order))
            character.mulligan_done, character.trapped = False, []
        case ev.CardsDrawn():
            pile = _pile(state, event.character_id)
            _take(pile.deck, event.cards)
            pile.hand.extend(event.cards)
            if event.reason == "high_or_low":
                character = state.characters[event.character_id]
                character.owes_discard, character.high_or_low = character.high_or_low, None
                character.drew = event.cards[0] if event.cards else None
        case ev.DiscardShuffledIntoDeck():
            pile = _pile(state, event.character_id)
            _take(pile.discard, event.order)
            pile.deck.extend(event.order)
        case ev.CardsDiscarded():
            pile = _pile(state, event.character_id)
            _take(pile.hand, event.cards)
            pile.discard.extend(event.cards)
        case ev.ActionTaken():
            conflict = state.conflicts[event.conflict]
            conflict.actions.append(
                Action(event.action_id, event.actor, event.enemy, event.visible, event.text)
            )
            conflict.order.append(["action", event.action_id])
            _next_action(state, conflict)
            _acted(state, event.actor)
        case ev.MagicCardsUsed():
            character = state.characters[event.character_id]
            character.mp -= event.mp_spent
            _acted(state, event.character_id)
            conflict = state.conflicts[event.conflict]
            _next_action(state, conflict)  # Magic Cards is an action, whoever's
            conflict.order.append(["set", str(len(conflict.sets))])
            conflict.sets.append(
                SetPlayed(
                    len(conflict.sets), event.character_id, event.mp_spent, event.cards, event.set
                )
            )
        case ev.SetEffectApplied():
            conflict = state.conflicts[event.conflict]
            played = conflict.sets[-1]
            played.amount, played.damage_type = event.amount, event.damage_type
            played.targets = list(event.targets)
            played.statuses, played.cured = list(event.statuses), event.cured
            for recovery in event.recovered:
                character = state.characters[recovery.character_id]
                character.hp += recovery.hp
                character.mp += recovery.mp
            if event.damage_type is not None and event.amount:
                conflict.beats.extend([event.character_id, t] for t in event.targets)
            if event.set == "magic-pair":  # its free attack may follow, as a Check
                state.characters[event.character_id].free_attack = played.seq_index
        case ev.MulliganTaken():
            state.characters[event.character_id].mulligan_done = True
            _react(
                state,
                event.conflict,
                Reaction(
                    "mulligan",
                    event.character_id,
                    discarded=list(event.discarded),
                    drawn=len(event.drawn),
                ),
            )
        case ev.TrapCardRevealed():
            character = state.characters[event.character_id]
            pile = _pile(state, event.character_id)
            pile.deck.remove(event.card)
            pile.discard.append(event.card)
            character.trapped.append(event.trigger_action_id)
            character.trap_window = event.trigger_action_id if event.hit else None
            _react(
                state,
                event.conflict,
                Reaction(
                    "trap-card",
                    event.character_id,
                    action=event.trigger_action_id,
                    suit=event.named_suit,
                    card=event.card,
                    hit=event.hit,
                ),
            )
        case ev.FreeSpellCast():
            character = state.characters[event.character_id]
            character.mp -= event.mp_cost
            character.trap_window = None
            _react(
                state,
                event.conflict,
                Reaction("free-spell", event.character_id, spell=event.spell, mp=event.mp_cost),
            )
        case ev.CheckCalled():
            state.conflicts[event.conflict].order.append(["check", event.check_id])
            _next_action(state, state.conflicts[event.conflict])  # a Check is an action's
            state.conflicts[event.conflict].checks[event.check_id] = Check(
                check_id=event.check_id,
                character_id=event.character_id,
                kind=event.kind,
                offensive=event.offensive,
                sizes=list(event.sizes),
                modifier=event.modifier,
                dl=event.dl,
                damage=event.damage,
                target=event.target,
                magic_pair=event.magic_pair,
            )
            sets = state.conflicts[event.conflict].sets
            if event.magic_pair is not None and 0 <= event.magic_pair < len(sets):
                sets[event.magic_pair].attack = event.check_id  # (else: the audit names it)
        case ev.DoubleOrNothingDeclared():
            state.conflicts[event.conflict].checks[event.check_id].double = True
        case ev.CheckRolled():
            check = state.conflicts[event.conflict].checks[event.check_id]
            check.values = [d.value for d in event.dice]
            character = state.characters[event.character_id]
            character.high_or_low = None  # a window stays open until the next Check
            _acted(state, event.character_id)
        case ev.CheckResolved():
            conflict = state.conflicts[event.conflict]
            check = conflict.checks[event.check_id]
            check.success, check.dealt, check.sections = event.success, event.damage, event.sections
            check.rule, check.damage_type = event.rule, event.damage_type
            if event.damage and check.target in conflict.enemies:
                conflict.beats.append([event.character_id, check.target])
            if event.high_or_low:
                character = state.characters[event.character_id]
                if character.pile is not None:
                    character.high_or_low = event.check_id
        case ev.HighOrLowUsed():
            character = state.characters[event.character_id]
            character.owes_discard = character.drew = None
            _react(
                state,
                event.conflict,
                Reaction(
                    "high-or-low",
                    event.character_id,
                    card=event.discarded,
                    check=event.check_id,
                    drawn=1,
                ),
            )
        case ev.ConflictEnded():
            conflict = state.conflicts[event.conflict]
            conflict.status = "ended"
            for key in conflict.party:
                character = state.characters[key]
                character.conflict, character.pile = None, None  # all 30 put away
                character.high_or_low = character.owes_discard = character.trap_window = None
                character.free_attack = None
                character.drew = None
                character.mulligan_done, character.trapped = False, []
        case SessionStarted() | SessionEnded() | SceneStarted() | SceneEnded():
            evolve_table(state.table, event)
        case AccessReissued():
            pass  # a core event: who holds a token is no part of the table
        case _:
            assert_never(event)
    return state
