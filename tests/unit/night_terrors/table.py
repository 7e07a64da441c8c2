"""A table for the Night Terrors transcripts: a real SQLite log, commands in, events and state
out.

`given` runs commands that must succeed, `when` runs the command under test and returns the
events it appended (decoded, salts cleared), `refuse` runs a command that must be refused and
checks that the log (and its head seq) did not change. Every table has its own SQLite file.

Most tables record the deck (`deck=recorded`), so a test deals exactly the cards its vector
names with `draw`. A managed deck takes its order from `shuffle`; `Stacked` puts the cards a
test names on top.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest

from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.events.envelope import Envelope
from tablelog.rules.common import Command
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules.state import Character, NightTerrorsState
from tablelog.storage import EventStore, open_store

E = TypeVar("E", bound=Event)
CAMPAIGN = "t"
RULESET = "night-terrors"
RECORDED = {"deck": "recorded"}


def unsalted(event: Event) -> Event:
    if getattr(event, "salt", ""):
        return msgspec.structs.replace(event, salt="")
    return event


class Stacked:
    """A managed deck's shuffle: the named cards on top, in order, the rest as they were."""

    def __init__(self, *top: str) -> None:
        self.top = list(top)

    def __call__(self, cards: list[str]) -> list[str]:
        first = [code for code in self.top if code in cards]
        self.top = [code for code in self.top if code not in cards]
        return first + [code for code in cards if code not in first]


def draw(who: str, *cards: str) -> c.Draw:
    return c.Draw(character=who, cards=list(cards))


def raise_(who: str, *cards: str, conflict: str | None = None) -> c.Raise:
    return c.Raise(conflict=conflict, character=who, cards=list(cards))


def see(who: str, *cards: str, conflict: str | None = None) -> c.See:
    return c.See(conflict=conflict, character=who, cards=list(cards))


def push(who: str, *cards: str) -> c.Push:
    return c.Push(conflict=None, character=who, cards=list(cards))


def open_(kind: str, aggressor: str, *others: str, conflict: str = "c1") -> c.OpenConflict:
    return c.OpenConflict(aggressor=aggressor, others=list(others), kind=kind, conflict=conflict)


ALICE = c.CreateCharacter(player="alice", character="Alice", card="KS")
BOB = c.CreateCharacter(player="bob", character="Bob", card="QH")
CAROL = c.CreateCharacter(player="carol", character="Carol", card="JC")


class Table:
    """One Night Terrors campaign in its own SQLite file."""

    def __init__(self, store: EventStore, shuffle: Any = None) -> None:
        self.store = store
        self.shuffle: Any = shuffle if shuffle is not None else Stacked()

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
        seq, before = self.head_seq(), self.store.read(CAMPAIGN)
        with pytest.raises(kind) as caught:
            self.execute(command)
        assert caught.value.code == code, str(caught.value)
        assert self.head_seq() == seq, "a refused command moved the log's head"
        assert self.store.read(CAMPAIGN) == before, "a refused command changed the log"
        return caught.value

    def head_seq(self) -> int:
        head = self.store.head(CAMPAIGN)
        assert head is not None
        return head.seq

    def events(self, kind: type[E] | None = None) -> list[Any]:
        decoded = [unsalted(e.event()) for e in self.store.read(CAMPAIGN)]
        return decoded if kind is None else [e for e in decoded if isinstance(e, kind)]

    @property
    def state(self) -> NightTerrorsState:
        state: NightTerrorsState = campaign_state(self.store, CAMPAIGN).state
        return state

    def who(self, name: str) -> Character:
        return self.state.characters[name.lower()]


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
