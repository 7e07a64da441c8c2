"""A table for the Bid & Challenge transcripts: a real SQLite log, commands in, events and
state out (the shape of Beer Run's, whose managed-dice shuffle `Faces` it shares).

`given` runs commands that must succeed, `when` runs the command under test and returns the
events it appended (decoded), `refuse` runs a command that must be refused and checks that the
log (and its head seq) did not change. Every table has its own SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.events.envelope import Envelope
from tablelog.rules.common import Command, StartSession
from tablelog.rulesets.bid_and_challenge.rules import BidAndChallengeState
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules.demo import DECKS, cards
from tablelog.storage import EventStore, open_store
from tests.unit.beer_run.table import SCRATCH, Faces, unsalted

E = TypeVar("E", bound=Event)
CAMPAIGN = "t"
RULESET = "bid-and-challenge"
RECORDED = {"dice": "recorded"}
SCENE = "s1"

__all__ = ["DECKS", "SCRATCH", "Faces", "cards"]


def power(kind: str, **fields: Any) -> c.PowerSpec:
    return c.PowerSpec(type=kind, **fields)  # type: ignore[arg-type]


DETAIL = power("detail", detail="gate-open", text="The gate stands open")


def bid(active: str, *names: str, spec: c.PowerSpec = DETAIL, text: str = "I act") -> c.Bid:
    return c.Bid(conflict=None, active=active, description=text, cards=list(names), power=spec)


def challenge(who: str, *names: str, universe: Iterable[str] = (), **kw: Any) -> c.Challenge:
    return c.Challenge(
        conflict=None,
        challenger=who,
        description=kw.pop("text", "It goes wrong"),
        cards=list(names),
        universe=list(universe),
        **kw,
    )


def push(active: str, *names: str) -> c.Push:
    return c.Push(conflict=None, active=active, description="I push on", cards=list(names))


def pass_(who: str) -> c.Pass:
    return c.Pass(conflict=None, player=who)


def narrate(who: str, text: str = "It goes as I say", scene: str | None = None) -> c.Narrate:
    return c.Narrate(conflict=scene, player=who, text=text)


def roll(active: Iterable[int] = (), challenger: Iterable[int] = ()) -> c.Roll:
    return c.Roll(
        conflict=None, active_faces=list(active) or None, challenger_faces=list(challenger) or None
    )


def seated(start: str = "Anna") -> list[Command]:
    """The vectors' decks, a session and scene s1 seating Anna, Ben, Cara (clockwise)."""
    return [
        *DECKS,
        StartSession(),
        c.OpenScene(seating=["Anna", "Ben", "Cara"], requested_by=start, conflict=SCENE),
    ]


class Table:
    """One Bid & Challenge campaign in its own SQLite file."""

    def __init__(self, store: EventStore, shuffle: Any = None) -> None:
        self.store = store
        self.shuffle: Any = shuffle if shuffle is not None else Faces()

    def execute(self, command: Command) -> list[Envelope]:
        return execute(self.store, CAMPAIGN, command, ruleset=RULESET, shuffle=self.shuffle)

    def given(self, *commands: Command | Iterable[Command]) -> Table:
        for item in commands:
            for command in [item] if isinstance(item, Command) else item:
                self.execute(command)
        return self

    def when(self, command: Command) -> list[Event]:
        return [unsalted(envelope.event()) for envelope in self.execute(command)]

    def refuse(
        self, command: Command, code: str, kind: type[TablelogError] = TablelogError
    ) -> TablelogError:
        """`command` is refused with `code` (an instance of `kind`); the log is unchanged."""
        seq, before = self.head_seq(), self.log()
        with pytest.raises(kind) as caught:
            self.execute(command)
        assert caught.value.code == code, str(caught.value)
        assert self.head_seq() == seq, "a refused command moved the log's head"
        assert self.log() == before, "a refused command changed the log"
        return caught.value

    def log(self) -> list[Envelope]:
        return self.store.read(CAMPAIGN)

    def head_seq(self) -> int:
        head = self.store.head(CAMPAIGN)
        assert head is not None
        return head.seq

    @property
    def state(self) -> BidAndChallengeState:
        state: BidAndChallengeState = campaign_state(self.store, CAMPAIGN).state
        return state

    def zone(self, owner: str, zone: str) -> list[str]:
        holder = self.state.holder(owner.lower())
        return sorted(holder.in_zone(zone))  # type: ignore[arg-type]


class Tables:
    """Opens tables, each in its own SQLite file under `path`, and closes them all at the end."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._opened: list[Table] = []

    def __call__(self, options: dict[str, str] | None = None, shuffle: Any = None) -> Table:
        store = open_store(str(self._path / f"t{len(self._opened)}.db"), create=True)
        create_campaign(store, CAMPAIGN, ruleset=RULESET, options=options or {})
        table = Table(store, shuffle)
        self._opened.append(table)
        return table

    def __enter__(self) -> Tables:
        return self

    def __exit__(self, *_exc: object) -> None:
        for table in self._opened:
            table.store.close()


def only(events: Iterable[Event], kind: type[E]) -> E:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def all_of(events: Iterable[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]
