"""Deciding the table-wide commands: characters, sessions, scenes, awards, redraws, bribes."""

from __future__ import annotations

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.common import JoinPlayer
from tablelog.rules.names import new_player_name
from tablelog.rulesets.improv.events import (
    CardsDiscarded,
    CharacterCreated,
    PlayerJoined,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
    TokenAwarded,
    TokenSpent,
)
from tablelog.rulesets.improv.rules import lookup
from tablelog.rulesets.improv.rules.cards import parse_card
from tablelog.rulesets.improv.rules.commands import (
    Award,
    Bribe,
    CreateCharacter,
    EndScene,
    EndSession,
    Redraw,
    StartScene,
    StartSession,
)
from tablelog.rulesets.improv.rules.decks import DeckWork, Shuffle
from tablelog.rulesets.improv.rules.state import GM, ImprovState


def create_character(state: ImprovState, cmd: CreateCharacter, shuffle: Shuffle) -> list[Event]:
    player, character = (
        lookup.key(cmd.player, "player name"),
        lookup.key(cmd.character, "character name"),
    )
    if player in (GM, state.gm):
        raise RuleViolation(
            "the GM has no protagonist; name the player whose character this is (the GM may "
            "still run it for them)",
            code="gm-character",
        )
    if character in state.characters:
        raise AlreadyExists(f"a character named {cmd.character!r} already exists")
    new_player_name(cmd.player, gm=state.gm, players=_names(state))
    existing = state.character_of(player)
    if existing is not None:
        raise RuleViolation(
            f"{cmd.player} already plays {existing.display}; each player has one protagonist",
            code="one-protagonist",
        )
    talents: dict[str, str] = {}
    for talent in cmd.talents:
        talent_key = lookup.talent_key(talent)
        if talent_key in talents:
            raise InvalidInput(f"talent {talent!r} is listed twice", code="duplicate-talent")
        talents[talent_key] = talent
    events: list[Event] = []
    if player not in state.players:
        events.append(PlayerJoined(player=player, display=cmd.player.strip()))
    events.append(
        CharacterCreated(
            player=player, character=character, display=cmd.character.strip(), talents=talents
        )
    )
    if state.managed and state.session_open:
        # Joining mid-session: the new player is dealt a hand like everyone at the start.
        work = DeckWork(state, shuffle)
        deck = state.deck_of(player)
        if deck not in state.decks:
            work.new_deck(deck, reason="new")
        work.deal(deck, player, state.options.player_hand, reason="joined")
        events.extend(work.events)
    return events


def _names(state: ImprovState) -> dict[str, str]:
    return {key: p.display for key, p in state.players.items()}


def join(state: ImprovState, cmd: JoinPlayer) -> list[Event]:
    """A player invited to the service joins (no event when already a player)."""
    player = lookup.key(cmd.player, "player name")
    if player in (GM, state.gm):
        raise RuleViolation("the GM is already part of the campaign", code="gm-player")
    new_player_name(cmd.player, gm=state.gm, players=_names(state))
    if player in state.players:
        return []
    return [PlayerJoined(player=player, display=cmd.player.strip())]


def start_session(state: ImprovState, _cmd: StartSession, shuffle: Shuffle) -> list[Event]:
    if state.session_open:
        raise RuleViolation(
            f"session {state.session} is still running; `tablelog session end` ends it",
            code="session-running",
        )
    players = sorted({c.player for c in state.characters.values()})
    if not players:
        raise RuleViolation(
            "no player has a character yet; `tablelog improv character PLAYER NAME` adds one",
            code="no-players",
        )
    options, count = state.options, len(players)
    ledger = state.ledger
    carried = {p: ledger.players.get(p, 0) for p in players} if options.carry_tokens else {}
    cleared = {h: ledger.held(h) for h in ("gm", "pool", "bank", "out_of_play", "table")}
    cleared |= {p: n for p, n in ledger.players.items() if n and p not in carried}
    events: list[Event] = [
        SessionStarted(
            session=state.session + 1,
            players=players,
            gm_tokens=options.gm_tokens_per_player * count,
            pool=options.pool_per_player * count,
            player_tokens={p: carried.get(p, 0) for p in ledger.players},
            cleared={h: n for h, n in cleared.items() if n},
        )
    ]
    if state.managed:
        work = DeckWork(state, shuffle)
        decks = {GM} | {state.deck_of(p) for p in players}
        for deck in sorted(decks):
            work.new_deck(deck, reason="session")
        work.deal(GM, GM, options.gm_hand_base + count, reason="session")
        for player in players:
            work.deal(state.deck_of(player), player, options.player_hand, reason="session")
        events.extend(work.events)
    return events


def end_session(state: ImprovState, _cmd: EndSession) -> list[Event]:
    lookup.require_session(state)
    _no_open_conflicts(state, "end the session")
    return [SessionEnded(session=state.session)]


def _no_open_conflicts(state: ImprovState, doing: str) -> None:
    still_open = [c.key for c in state.open_conflicts()]
    if still_open:
        raise RuleViolation(
            f"close conflict(s) {', '.join(still_open)} before you {doing}", code="conflict-open"
        )


def start_scene(state: ImprovState, cmd: StartScene) -> list[Event]:
    lookup.require_session(state)
    if state.scene_open:
        raise RuleViolation(
            f"scene {state.scene} is still running; `tablelog scene end` ends it",
            code="scene-running",
        )
    title = lookup.text_of(cmd.title, "the scene title") if cmd.title else None
    return [SceneStarted(scene=state.scene + 1, title=title)]


def end_scene(state: ImprovState, _cmd: EndScene) -> list[Event]:
    if not state.scene_open:
        raise RuleViolation("no scene is running", code="no-scene")
    return [SceneEnded(scene=state.scene)]


def award(state: ImprovState, cmd: Award) -> list[Event]:
    lookup.require_session(state)
    giver, receiver = lookup.player(state, cmd.giver), lookup.player(state, cmd.receiver)
    if giver == GM or receiver == GM:
        raise RuleViolation(
            "awards pass between players; the GM neither gives nor receives them",
            code="award-players",
        )
    if giver == receiver:
        raise RuleViolation(f"{cmd.giver} cannot award a token to themself", code="award-self")
    source = "pool" if state.options.award_source == "pool" else giver
    if state.ledger.held(source) < 1:
        where = "the pool is empty" if source == "pool" else f"{cmd.giver} holds no story-token"
        raise RuleViolation(f"{where}; an award needs 1 token, 0 available", code="award-empty")

    def award_event(conflict: str | None = None, number: int | None = None) -> TokenAwarded:
        return TokenAwarded(
            giver=giver,
            receiver=receiver,
            source=source,
            conflict=conflict,
            round=number,
            scene=state.scene,
            session=state.session,
            in_scene=state.scene_open,
        )

    conflict = None
    if cmd.conflict is not None or state.open_conflicts():
        conflict = lookup.conflict(state, cmd.conflict)
    if conflict is not None:
        # Awards follow the narration they reward: they count toward the last revealed round
        # (round 1 before any reveal), also while the next round's cards are going down.
        number = max((r.number for r in conflict.rounds if r.revealed), default=1)
        if (number, giver) in conflict.awarders:
            raise RuleViolation(
                f"{cmd.giver} already awarded a token in round {number} of conflict "
                f"{conflict.key}; one award per giver per round",
                code="award-once",
            )
        return [award_event(conflict.key, number)]
    bucket = (state.session, state.scene, state.scene_open, giver)
    if bucket in state.scene_awarders:
        where = "in this scene" if state.scene_open else "since the last scene"
        raise RuleViolation(
            f"{cmd.giver} already awarded a token {where}; one award per giver per scene",
            code="award-once",
        )
    return [award_event()]


def _spend_one(state: ImprovState, payer: str, given: str, purpose: str) -> None:
    if state.ledger.held(payer) < 1:
        raise RuleViolation(
            f"{given} has no story-token to spend on a {purpose}; 1 needed, 0 held",
            code="no-token",
        )


def redraw(state: ImprovState, cmd: Redraw, shuffle: Shuffle) -> list[Event]:
    lookup.require_session(state)
    payer = lookup.player(state, cmd.player)
    if not cmd.cards:
        raise InvalidInput("name the cards to redraw", code="no-cards")
    cards = [parse_card(c) for c in cmd.cards]
    _spend_one(state, payer, cmd.player, "redraw")
    to = "pool" if payer == GM else "out_of_play"
    events: list[Event] = [TokenSpent(player=payer, to=to, purpose="redraw", cards=cards)]
    if state.managed:
        hand = list(state.hands.get(payer, []))
        for card in cards:
            if card not in hand:
                raise RuleViolation(
                    f"{card} is not in {cmd.player}'s hand ({', '.join(hand) or 'empty'})",
                    code="not-in-hand",
                )
            hand.remove(card)
        deck = state.deck_of(payer)
        events.append(CardsDiscarded(owner=payer, cards=cards, reason="redraw"))
        work = DeckWork(state, shuffle)
        work.discard(deck, cards)
        work.deal(deck, payer, len(cards), reason="redraw")
        events.extend(work.events)
    return events


def bribe(state: ImprovState, cmd: Bribe) -> list[Event]:
    lookup.require_session(state)
    giver, receiver = lookup.player(state, cmd.giver), lookup.player(state, cmd.receiver)
    if giver == receiver:
        raise RuleViolation(f"{cmd.giver} cannot bribe themself", code="bribe-self")
    _spend_one(state, giver, cmd.giver, "bribe")
    conflict = lookup.conflict(state, cmd.conflict).key if cmd.conflict else None
    return [TokenSpent(player=giver, to=receiver, purpose="bribe", conflict=conflict)]
