"""A Bid & Challenge campaign as the rules see it: each major character's cards and the zone
each card is in, the universe deck, the details defined, and each scene's rounds."""

from __future__ import annotations

from typing import Literal

import msgspec

from tablelog.rules.table import Table
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules.options import BidAndChallengeOptions

Phase = Literal["bid", "challenge", "push", "roll", "done"]


class Holder(msgspec.Struct):
    """A deck of cards and the zone each card is in: a major character's, or the universe's."""

    key: str
    name: str
    cards: dict[str, ev.Card] = msgspec.field(default_factory=dict)
    zones: dict[str, ev.Zone] = msgspec.field(default_factory=dict)

    def in_zone(self, zone: ev.Zone) -> list[str]:
        return [card for card, where in self.zones.items() if where == zone]


class Character(Holder):
    player: str = ""
    flow: int = 0
    dead: bool = False


class Round(msgspec.Struct):
    number: int
    active: str
    offers: list[str] = msgspec.field(default_factory=list)  # who is asked, in order
    phase: Phase = "bid"
    bid: ev.BidMade | None = None
    passed: bool = False
    declined: list[str] = msgspec.field(default_factory=list)
    challenge: ev.ChallengeMade | None = None
    push: ev.Pushed | None = None
    rolls: dict[str, ev.DiceRolled] = msgspec.field(default_factory=dict)  # side -> roll
    resolved: ev.RoundResolved | None = None
    moves: list[ev.CardMoved] = msgspec.field(default_factory=list)  # after the resolution
    details: list[ev.DetailDefined] = msgspec.field(default_factory=list)
    created: list[ev.UniverseCardCreated] = msgspec.field(default_factory=list)
    narration: ev.Narrated | None = None  # the winner's words, once the round is decided

    @property
    def asked(self) -> str | None:
        """Who answers the challenge offer now (None: nobody, the offer is over)."""
        if self.phase != "challenge" or len(self.declined) >= len(self.offers):
            return None
        return self.offers[len(self.declined)]

    @property
    def pushed(self) -> list[str]:
        return list(self.push.cards) if self.push is not None else []


class Scene(msgspec.Struct):
    key: str
    seating: list[str]
    starting: str
    requested_by: str
    premise: str = ""
    status: Literal["open", "ended"] = "open"
    rounds: list[Round] = msgspec.field(default_factory=list)
    passes: int = 0  # passes in a row
    ended_reason: str = ""
    ended_at: int = 0  # the seq of the event that ended it (or of a narration after that)
    # Once another scene starts, an ended scene keeps only this record of its rounds (the
    # state then stays small however long the campaign); `show` rebuilds it as of `ended_at`.
    compacted: bool = False
    last_round: int = 0
    kept_beats: list[list[str]] = msgspec.field(default_factory=list)

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        return self.rounds[-1].number if self.rounds else self.last_round

    def beats(self) -> list[list[str]]:
        """[winner, loser] of every challenged round resolved, in order."""
        if self.compacted:
            return [list(pair) for pair in self.kept_beats]
        return [
            [r.resolved.winner, r.resolved.loser]
            for r in self.rounds
            if r.resolved is not None and r.resolved.loser is not None
        ]

    def compact(self) -> None:
        self.kept_beats, self.last_round = self.beats(), self.round_number
        self.rounds, self.compacted = [], True


class Detail(msgspec.Struct, frozen=True):
    text: str
    by: str
    conflict: str


class BidAndChallengeState(msgspec.Struct):
    campaign: str
    gm: str
    options: BidAndChallengeOptions
    seq: int = 1  # the seq of the last event folded in (the campaign's creation is 1)
    players: dict[str, str] = msgspec.field(default_factory=dict)  # key -> display
    characters: dict[str, Character] = msgspec.field(default_factory=dict)
    universe: Holder = msgspec.field(default_factory=lambda: Holder(ev.UNIVERSE, "universe"))
    details: dict[str, Detail] = msgspec.field(default_factory=dict)
    scenes: dict[str, Scene] = msgspec.field(default_factory=dict)
    table: Table = msgspec.field(default_factory=Table)

    def holder(self, owner: str) -> Holder:
        return self.universe if owner == ev.UNIVERSE else self.characters[owner]

    def open_scenes(self) -> list[Scene]:
        return [s for s in self.scenes.values() if s.status == "open"]


def offers_for(seating: list[str], active: str) -> list[str]:
    """The challenge offer's order: counter-clockwise from the active player, i.e. the seating
    list backwards, starting beside the active player."""
    at = seating.index(active)
    return [seating[(at - k) % len(seating)] for k in range(1, len(seating))]


def next_active(seating: list[str], active: str) -> str:
    """The player on the active player's left: the next in the seating list."""
    return seating[(seating.index(active) + 1) % len(seating)]
