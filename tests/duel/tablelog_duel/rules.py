"""The duel's rules: its state, commands, `decide`, `evolve` and who may do what."""

from __future__ import annotations

from typing import Any, assert_never

import msgspec

from tablelog.errors import NotFound, RuleViolation
from tablelog.events.base import Event
from tablelog.events.core import (
    AccessReissued,
    CampaignCreated,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
)
from tablelog.rules.cast import Cast
from tablelog.rules.common import (
    Command,
    EndScene,
    EndSession,
    JoinPlayer,
    StartScene,
    StartSession,
)
from tablelog.rules.contract import Demo, Ruleset, commands_of
from tablelog.rules.names import player_name
from tablelog.rules.table import GM, Table, decide_table, evolve_table
from tablelog_duel import events as ev


class DuelOptions(msgspec.Struct, frozen=True, kw_only=True):
    highest: int = 13  # the highest card


class Duel(msgspec.Struct):
    key: str
    first: str
    second: str
    plays: dict[str, int] = msgspec.field(default_factory=dict)
    winner: str | None = None
    status: str = "open"


class DuelState(msgspec.Struct):
    options: DuelOptions
    gm: str
    players: list[str] = msgspec.field(default_factory=list)
    table: Table = msgspec.field(default_factory=Table)
    duels: dict[str, Duel] = msgspec.field(default_factory=dict)


class OpenDuel(Command, frozen=True):
    first: str
    second: str
    conflict: str | None = None


class Play(Command, frozen=True):
    conflict: str | None
    player: str
    card: int


class Reveal(Command, frozen=True):
    conflict: str | None


DuelCommand = (
    JoinPlayer | StartSession | EndSession | StartScene | EndScene | OpenDuel | Play | Reveal
)


def winner_of(cards: dict[str, int]) -> tuple[str | None, str]:
    """The one place that decides a duel: the higher card wins; equal cards, nobody."""
    (a, x), (b, y) = cards.items()
    if x == y:
        return None, f"equal cards ({x}): nobody wins"
    return (a, f"{x} beats {y}") if x > y else (b, f"{y} beats {x}")


def duel(state: DuelState, given: str | None) -> Duel:
    if given is None:
        open_ = [d for d in state.duels.values() if d.status == "open"]
        if len(open_) != 1:
            raise NotFound(f"{len(open_)} duels are open; name one", code="no-conflict")
        return open_[0]
    found = state.duels.get(given.strip().lower())
    if found is None:
        raise NotFound(f"there is no duel {given!r}", code="unknown-conflict")
    return found


def _player(state: DuelState, name: str) -> str:
    key = player_name(name)
    if key not in state.players:
        raise NotFound(f"{name} is not a player of this campaign", code="unknown-player")
    return key


def decide(state: DuelState, command: DuelCommand, shuffle: Any) -> list[Event]:
    match command:
        case JoinPlayer():
            key = player_name(command.player)
            return [] if key in state.players else [ev.PlayerJoined(player=key)]
        case StartSession() | EndSession() | StartScene() | EndScene():
            return decide_table(state.table, command)
        case OpenDuel():
            first, second = _player(state, command.first), _player(state, command.second)
            if first == second:
                raise RuleViolation("a duel takes two players; one given twice", code="one-side")
            key = (command.conflict or f"c{len(state.duels) + 1}").strip().lower()
            if key in state.duels:
                raise RuleViolation(f"duel {key} already exists", code="conflict-exists")
            return [ev.DuelOpened(conflict=key, first=first, second=second)]
        case Play():
            found = duel(state, command.conflict)
            who = _player(state, command.player)
            if who not in (found.first, found.second):
                raise RuleViolation(f"{who} does not fight in duel {found.key}", code="not-in")
            if who in found.plays:
                raise RuleViolation(f"{who} has already played", code="already-played")
            if not 1 <= command.card <= state.options.highest:
                raise RuleViolation(
                    f"a card is 1 to {state.options.highest}; got {command.card}", code="bad-card"
                )
            return [ev.CardPlayed(conflict=found.key, player=who, card=command.card)]
        case Reveal():
            found = duel(state, command.conflict)
            if found.status != "open" or len(found.plays) < 2:
                raise RuleViolation(f"duel {found.key} has no two cards to reveal", code="early")
            cards = {p: found.plays[p] for p in (found.first, found.second)}
            winner, rule = winner_of(cards)
            return [ev.DuelRevealed(conflict=found.key, cards=cards, winner=winner, rule=rule)]
        case _:
            assert_never(command)


def evolve(state: DuelState, event: Event) -> DuelState:
    match event:
        case ev.PlayerJoined():
            state.players.append(event.player)
        case SessionStarted() | SessionEnded() | SceneStarted() | SceneEnded():
            evolve_table(state.table, event)
        case AccessReissued():
            pass  # who holds a token is no part of the table
        case ev.DuelOpened():
            state.duels[event.conflict] = Duel(event.conflict, event.first, event.second)
        case ev.CardPlayed():
            state.duels[event.conflict].plays[event.player] = event.card
        case ev.DuelRevealed():
            found = state.duels[event.conflict]
            found.winner, found.status = event.winner, "closed"
        case _:
            raise TypeError(f"the duel has no {event.type_name()}")
    return state


def _initial(created: CampaignCreated) -> DuelState:
    return DuelState(options=msgspec.convert(created.options, DuelOptions), gm=created.gm)


def _demo() -> Demo:
    return Demo(
        commands=[
            JoinPlayer(player="ann"),
            JoinPlayer(player="bob"),
            StartSession(),
            OpenDuel(first="ann", second="bob", conflict="d1"),
            Play(conflict="d1", player="ann", card=9),
            Play(conflict="d1", player="bob", card=12),
            Reveal(conflict="d1"),
        ],
        conflict="d1",
        name="duel",
        shown=frozenset({"duel.opened", "duel.revealed"}),
    )


RULESET = Ruleset[DuelState](
    name="duel",
    options_type=DuelOptions,
    state_type=DuelState,
    initial=_initial,
    evolve=evolve,
    decide=decide,
    # Who is who: a card is played by the player it names; the GM opens and reveals.
    cast=Cast(
        gm=lambda state: state.gm,
        owner=lambda state, name: name if name in state.players else None,
        players={Play: "player"},
        gm_only=(OpenDuel, Reveal),
        what={Play: "play this card"},
    ),
    table=lambda state: state.table,
    commands=commands_of(DuelCommand),
    demo=_demo,
)

__all__ = ["GM", "RULESET"]
