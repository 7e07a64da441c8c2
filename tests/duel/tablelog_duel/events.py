"""The duel's events (tags `duel.*`)."""

from __future__ import annotations

from typing import ClassVar

from tablelog.events.base import Event, registered


@registered
class PlayerJoined(Event, frozen=True, tag="duel.player_joined"):
    player: str


@registered
class DuelOpened(Event, frozen=True, tag="duel.opened"):
    conflict: str
    first: str
    second: str


@registered
class CardPlayed(Event, frozen=True, tag="duel.card_played"):
    hidden: ClassVar[tuple[str, ...]] = ("card",)

    conflict: str
    player: str
    card: int
    salt: str = ""


@registered
class DuelRevealed(Event, frozen=True, tag="duel.revealed"):
    conflict: str
    cards: dict[str, int]
    winner: str | None
    rule: str
