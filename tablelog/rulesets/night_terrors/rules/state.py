"""A Night Terrors campaign as the rules see it: the deck and the set-aside pile, characters
with their pools and hidden hands, what each still owes (cards to draw or discard, costs to
pay), and each conflict's exchanges."""

from __future__ import annotations

from typing import Literal

import msgspec

from tablelog.rules.table import Table
from tablelog.rulesets.night_terrors import events as ev
from tablelog.rulesets.night_terrors.rules.options import NightTerrorsOptions


class Character(msgspec.Struct, kw_only=True):
    key: str
    display: str
    player: str
    rank: str
    suit: str
    blood: int
    sweat: int
    tears: int
    hand: list[str] = []
    held: str | None = None  # a reversal card kept, playable as a 3rd card in the next raise
    emptied: list[str] = []  # consequences met: shock, crash, snap

    def pool(self, name: str) -> int:
        amount: int = getattr(self, name)
        return amount

    def pools(self) -> dict[str, int]:
        return {"blood": self.blood, "sweat": self.sweat, "tears": self.tears}


class Owed(msgspec.Struct, kw_only=True):
    """Cards a character still draws (recorded deck: until the table records them)."""

    count: int
    reason: ev.DrawReason
    conflict: str | None = None


class Cost(msgspec.Struct, kw_only=True):
    """A fallout or a price not paid yet (a payment with a choice waits for `pay`)."""

    conflict: str
    cause: ev.Cause
    amount: int


Step = ev.RaiseAnswered | ev.ConflictEscalated | ev.CostPaid | ev.PoolEmptied | ev.ParticipantLeft


class Exchange(msgspec.Struct, kw_only=True):
    """One raise and its answers."""

    raised: ev.RaiseMade
    owing: list[str]  # who still answers, in seat order
    answers: list[ev.RaiseAnswered] = []
    # What happened after the raise, in order: answers, escalations, payments, characters out.
    steps: list[Step] = []


class Conflict(msgspec.Struct, kw_only=True):
    key: str
    opened: ev.ConflictOpened
    trump: str
    conflict_type: str
    still_in: list[str]  # in seat order
    left: dict[str, str] = {}  # character -> reason
    exchanges: list[Exchange] = []
    status: Literal["open", "ended"] = "open"
    winners: list[str] = []
    rule: str = ""
    narrations: list[tuple[str, str]] = []
    # Once another conflict ends, an ended one keeps no exchanges (the state stays small):
    # `show` rebuilds them from the state as of `kept_at`, when it was still whole.
    kept_at: int | None = None
    exchange_count: int = 0

    @property
    def current(self) -> Exchange | None:
        return self.exchanges[-1] if self.exchanges else None


class NightTerrorsState(msgspec.Struct, kw_only=True):
    campaign: str
    gm: str
    options: NightTerrorsOptions
    table: Table = msgspec.field(default_factory=Table)
    seq: int = 1  # the seq of the last event folded in (1: the campaign's creation)
    players: dict[str, str] = {}  # key -> display
    characters: dict[str, Character] = {}  # in seat order (clockwise from the GM's left)
    deck: list[str] = []  # top first; recorded deck: the cards left, in no known order
    shuffled: bool = False  # managed deck: shuffled at least once
    set_aside: list[str] = []  # spent and discarded cards, back into the deck after a conflict
    draws: dict[str, Owed] = {}
    discards: dict[str, int] = {}  # character -> cards to discard at a hand reset
    refresh_open: bool = False  # after a reset, until a conflict opens
    refreshed: list[str] = []
    costs: dict[str, list[Cost]] = {}
    conflicts: dict[str, Conflict] = {}

    def open_conflicts(self) -> list[Conflict]:
        return [c for c in self.conflicts.values() if c.status == "open"]
