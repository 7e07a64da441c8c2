"""The Improv table as the log has built it: people, tokens, talents, decks and conflicts.

`evolve` (evolve.py) is the only code that changes these objects; `decide` reads them. They are
plain mutable Structs because a fold owns its state: nothing else holds a reference (Structs
rather than dataclasses: every CLI command defines these classes, and a Struct class costs a
tenth of a slotted dataclass to create).
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

import msgspec

from tablelog.packing import pack, unpack
from tablelog.rulesets.improv.rules import opposition
from tablelog.rulesets.improv.rules.options import ImprovOptions

GM = "gm"
HOLDERS = ("gm", "pool", "bank", "out_of_play", "table")


class Ledger(msgspec.Struct):
    """Every story-token is in exactly one place; moves keep the sum (session resets aside)."""

    gm: int = 0
    pool: int = 0
    bank: int = 0
    out_of_play: int = 0
    table: int = 0  # tokens sitting on cards, until the round's clean-up
    players: dict[str, int] = msgspec.field(default_factory=dict)

    def held(self, holder: str) -> int:
        if holder in HOLDERS:
            value: int = getattr(self, holder)
            return value
        return self.players.get(holder, 0)

    def add(self, holder: str, count: int) -> None:
        if holder in HOLDERS:
            setattr(self, holder, getattr(self, holder) + count)
        else:
            self.players[holder] = self.players.get(holder, 0) + count

    def move(self, source: str, to: str, count: int) -> None:
        self.add(source, -count)
        self.add(to, count)

    def total(self) -> int:
        return (
            self.gm
            + self.pool
            + self.bank
            + self.out_of_play
            + self.table
            + sum(self.players.values())
        )


class Player(msgspec.Struct):
    key: str
    display: str


class Character(msgspec.Struct):
    key: str
    display: str
    player: str
    talents: dict[str, str]  # key -> display
    uses: Counter[str] = msgspec.field(default_factory=Counter)  # talent uses this session

    @property
    def used(self) -> int:
        return sum(self.uses.values())


class PileCard(msgspec.Struct):
    card: str
    own: bool  # won by this side itself (only those may be given, one of them)
    deck: str | None = None


class Side(msgspec.Struct):
    key: str
    display: str
    gm: bool
    text: str
    opposes: str | None
    player: str | None  # the protagonist's player; None for a GM stake
    status: Literal["in", "eliminated", "destroyed"] = "in"
    victory: list[PileCard] = msgspec.field(default_factory=list)
    gifts_given: int = 0
    final_narration: bool = False
    fate_losses: int = 0


class Play(msgspec.Struct):
    card: str
    from_deck: bool = False
    deck: str | None = None
    unseen: bool = False  # blind from an empty hand: not even its owner sees it
    # Sealed plays (rules/improv/sealed.py): `card` is "" until the card is opened (or
    # forfeit: then the lowest card there is).
    sealed: bool = False
    commitment: str = ""
    forfeited: bool = False


class Bonus(msgspec.Struct):
    on: str
    by: str
    player: str
    kind: Literal["token", "talent"]
    count: int
    talent: str | None = None
    assist: str | None = None


class Fate(msgspec.Struct):
    """Exact ties of one round, waiting for tie-breakers, and their results."""

    pending: list[tuple[str, str]] = msgspec.field(default_factory=list)
    draws: dict[str, list[str]] = msgspec.field(default_factory=dict)
    results: list[tuple[str, str]] = msgspec.field(default_factory=list)  # (winner, loser)
    choices_due: list[str] = msgspec.field(default_factory=list)  # extended: losers who must choose


class Moved(msgspec.Struct, frozen=True, array_like=True):
    """Tokens a reveal or a close moved, and why (kept for the page's story of a conflict)."""

    count: int
    to: str
    reason: str


class Narration(msgspec.Struct, frozen=True, array_like=True):
    """A side's narration (`improv.narrated`), after the round it follows (0: before any)."""

    round: int
    side: str
    text: str
    final: bool = False


class Round(msgspec.Struct):
    number: int
    plays: dict[str, Play] = msgspec.field(default_factory=dict)
    bonuses: list[Bonus] = msgspec.field(default_factory=list)
    revealed: bool = False
    totals: dict[str, int] = msgspec.field(default_factory=dict)
    ranking: list[str] = msgspec.field(default_factory=list)  # the reveal's, highest first
    beats: list[tuple[str, str]] = msgspec.field(default_factory=list)
    winners: list[str] = msgspec.field(default_factory=list)
    fate: Fate = msgspec.field(default_factory=Fate)
    deadline: int | None = None  # sealed plays: the GM's deadline for the openings (µs UTC)
    settled: set[str] = msgspec.field(
        default_factory=set
    )  # sides whose card went to a pile or discard
    moves: list[Moved] = msgspec.field(default_factory=list)  # the reveal's token moves

    def tokens_on(self, side: str) -> int:
        return sum(b.count for b in self.bonuses if b.on == side and b.kind == "token")

    def talent_on(self, side: str) -> str | None:
        for b in self.bonuses:
            if b.on == side and b.kind == "talent":
                return b.talent
        return None

    def markers_on(self, side: str) -> int:
        return sum(b.count for b in self.bonuses if b.on == side)


class Conflict(msgspec.Struct):
    key: str
    kind: Literal["simple", "extended"]
    planned_rounds: int
    gm_tokens_at_open: int
    status: Literal["open", "closed"] = "open"
    sides: dict[str, Side] = msgspec.field(default_factory=dict)
    rounds: list[Round] = msgspec.field(default_factory=list)
    gm_spent: int = 0
    banked: int = 0  # tokens this conflict sent to the bank: the GM gets them at its close
    awarders: set[tuple[int, str]] = msgspec.field(default_factory=set)  # (round, giver)
    beats: list[tuple[str, str]] = msgspec.field(default_factory=list)  # final (extended) or reveal
    opened_at: int = 0  # the seq of the event that opened it
    closed_at: int = 0  # the seq of the event that closed it
    abandoned: str | None = None  # the GM's reason, when it abandoned the conflict
    # What the page tells of it while it is whole (never kept in its record): the
    # narrations, and the tokens its close moved.
    narrations: list[Narration] = msgspec.field(default_factory=list)
    closing_moves: list[Moved] = msgspec.field(default_factory=list)

    @property
    def stakes_closed(self) -> bool:
        """The first card closes the stake phase."""
        return bool(self.rounds and self.rounds[0].plays)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def record(self) -> ClosedConflict:
        """What the state keeps of this conflict once it has closed and another closed after
        it; also what `state` lists of any conflict (see projections/improv/views.py)."""
        return ClosedConflict(
            key=self.key,
            kind=self.kind,
            planned_rounds=self.planned_rounds,
            played=len(self.rounds),
            opened_at=self.opened_at,
            closed_at=self.closed_at,
            sides=tuple(
                ClosedSide(
                    key=side.key,
                    gm=side.gm,
                    text=side.text,
                    opposes=side.opposes,
                    player=side.player,
                    status=side.status,
                    victory=tuple(p.card for p in side.victory),
                )
                for side in self.sides.values()
            ),
            beats=tuple(self.beats),
            abandoned=self.abandoned,
        )

    def protagonists(self) -> list[Side]:
        return [s for s in self.sides.values() if not s.gm]

    def gm_stakes(self) -> list[Side]:
        return [s for s in self.sides.values() if s.gm]

    def participating_players(self) -> set[str]:
        return {s.player for s in self.sides.values() if s.player is not None}

    def still_to_play(self, rnd: Round) -> list[Side]:
        """Sides that must play in `rnd` before the reveal (unopposed ones need not)."""
        return [
            s
            for s in self.sides.values()
            if s.status == "in" and s.key not in rnd.plays and not opposition.unopposed(self, s.key)
        ]


class ClosedSide(msgspec.Struct, frozen=True, array_like=True, gc=False):
    key: str
    gm: bool
    text: str
    opposes: str | None
    player: str | None
    status: str
    victory: tuple[str, ...]  # the cards of its pile, in the order they joined it


class ClosedConflict(msgspec.Struct, frozen=True, array_like=True):
    """A closed conflict as the state keeps it once another has closed after it: what `state`
    shows of it (sides, piles, beats, rounds played) and the seqs that opened and closed it.

    A campaign of years holds thousands of closed conflicts, and every command starts from a
    snapshot of the state: whole, with their rounds, they made that snapshot several MB to
    read and decode in each process. The log keeps the rest; `show` rebuilds a closed
    conflict from the state as of `closed_at`. Stored as arrays, not maps: no field names
    repeated thousands of times."""

    key: str
    kind: str
    planned_rounds: int
    played: int  # rounds begun (each revealed, or turned up when the conflict was abandoned)
    opened_at: int
    closed_at: int
    sides: tuple[ClosedSide, ...]
    beats: tuple[tuple[str, str], ...]
    abandoned: str | None = None  # the GM's reason, when it abandoned the conflict


class Deck(msgspec.Struct):
    draw: list[str] = msgspec.field(default_factory=list)  # top card first
    discard: list[str] = msgspec.field(default_factory=list)


class ImprovState(msgspec.Struct):
    campaign: str
    gm: str
    options: ImprovOptions
    players: dict[str, Player] = msgspec.field(default_factory=dict)
    characters: dict[str, Character] = msgspec.field(default_factory=dict)
    session: int = 0
    session_open: bool = False
    session_players: list[str] = msgspec.field(default_factory=list)
    scene: int = 0
    scene_open: bool = False
    # Awards outside conflicts: one per giver per (session, scene, in a scene or between).
    scene_awarders: set[tuple[int, int, bool, str]] = msgspec.field(default_factory=set)
    ledger: Ledger = msgspec.field(default_factory=Ledger)
    conflicts: dict[str, Conflict] = msgspec.field(default_factory=dict)
    decks: dict[str, Deck] = msgspec.field(default_factory=dict)
    hands: dict[str, list[str]] = msgspec.field(default_factory=dict)
    # The seq of the last event folded: seqs run 1, 2, ... without gaps (the store and
    # `verify` see to it), so evolve counts them.
    seq: int = 0
    # Closed conflicts, but for the one closed last, as their records (see ClosedConflict),
    # each kept packed until something asks for it: most commands never do (packing.py).
    archive: dict[str, msgspec.Raw] = msgspec.field(default_factory=dict)
    last_closed: str | None = None  # the conflict closed last, still whole in `conflicts`

    @property
    def managed(self) -> bool:
        return self.options.deck_mode == "managed"

    def character_of(self, player: str) -> Character | None:
        for character in self.characters.values():
            if character.player == player:
                return character
        return None

    def archived(self, key: str) -> ClosedConflict | None:
        """The record of an archived conflict, decoded."""
        raw = self.archive.get(key)
        return None if raw is None else unpack(raw, ClosedConflict)

    def keep_record(self, conflict: Conflict) -> None:
        self.archive[conflict.key] = pack(conflict.record())

    def every_conflict(self) -> list[Conflict | ClosedConflict]:
        """Every conflict the campaign has opened, in the order they were opened: the whole
        ones and the records of the archived ones."""
        found: list[Conflict | ClosedConflict] = list(self.conflicts.values())
        found.extend(unpack(raw, ClosedConflict) for raw in self.archive.values())
        return sorted(found, key=lambda c: c.opened_at)

    def open_conflicts(self) -> list[Conflict]:
        return [c for c in self.conflicts.values() if c.status == "open"]

    def deck_of(self, owner: str) -> str:
        """The deck an owner draws from: the GM's, the shared players' deck, or its own."""
        if owner == GM:
            return GM
        return "players" if self.options.player_decks == "shared" else f"player:{owner}"

    def hand_size(self, owner: str) -> int:
        if owner == GM:
            return self.options.gm_hand_base + len(self.session_players)
        return self.options.player_hand
