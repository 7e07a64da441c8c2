"""A table for the Beer Run transcripts: a real SQLite log, commands in, events and state out.

A test reads as a transcript: `given` runs commands that must succeed, `when` runs the command
under test and returns the events it appended (decoded, salts cleared), `refuse` runs a command
that must be refused and checks that the log (and its head seq) did not change. Every table has
its own SQLite file.

Dice: with option `dice=recorded` a test gives the faces in `Roll(values=..., difficulty=...)`.
With managed dice a die of size N is `int(shuffle(["1", ..., "N"])[0])`; `Faces` is a shuffle
that puts the next queued face first, so managed rolls are deterministic too.
"""

from __future__ import annotations

import os
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
from tablelog.projections.fold import Folded
from tablelog.rules.common import Command
from tablelog.rulesets.beer_run.rules import BeerRunState
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules.state import Character
from tablelog.storage import EventStore, open_store

E = TypeVar("E", bound=Event)
CAMPAIGN = "t"
# Where tests put their SQLite files: memory-backed when the system has it, else the default.
SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def unsalted(event: Event) -> Event:
    if getattr(event, "salt", ""):
        return msgspec.structs.replace(event, salt="")
    return event


class Faces:
    """A managed-dice shuffle: the n-th die rolled shows faces[n] (it is put first). Once the
    queue is empty every die shows 1, unless `strict`, when an extra roll fails the test."""

    def __init__(self, *faces: int, strict: bool = True) -> None:
        self.queue = list(faces)
        self.strict = strict
        self.rolled: list[tuple[int, int]] = []  # (size, face) in the order rolled

    def push(self, *faces: int) -> Faces:
        self.queue.extend(faces)
        return self

    def __call__(self, cards: list[str]) -> list[str]:
        size = len(cards)
        assert cards == [str(n) for n in range(1, size + 1)], f"not a die's faces: {cards}"
        if not self.queue:
            assert not self.strict, f"a d{size} was rolled but no face is queued"
            face = 1
        else:
            face = self.queue.pop(0)
        assert 1 <= face <= size, f"queued face {face} is impossible on a d{size}"
        self.rolled.append((size, face))
        rest = [card for card in cards if card != str(face)]
        return [str(face), *rest]


def abilities(*specs: str) -> list[c.AbilitySpec]:
    """`"Health:Body:d6"` -> AbilitySpec(name="Health", category="Body", size="d6")."""
    found = []
    for spec in specs:
        name, category, size = spec.split(":")
        found.append(c.AbilitySpec(name=name, category=category, size=size))
    return found


def character(
    name: str, *specs: str, player: str | None = None, intensity: int | None = None
) -> c.CreateCharacter:
    """A character played by `player` (default: its own lower-case name; "gm" for an NPC)."""
    return c.CreateCharacter(
        player=player or name.lower(),
        character=name,
        abilities=abilities(*specs),
        intensity=intensity,
    )


def goal(actor: str, against: str | None = None, **kw: Any) -> c.DeclareGoal:
    """A standard goal of `actor` against `against` in the only open conflict."""
    text = kw.pop("text", f"{actor} beats {against or 'them'}")
    return c.DeclareGoal(conflict=None, actor=actor, text=text, against=against, **kw)


def pool(actor: str, *base: str, extras: Iterable[str] = ()) -> c.AssemblePool:
    return c.AssemblePool(conflict=None, actor=actor, base=list(base), extras=list(extras))


def roll(actor: str, *values: int, difficulty: list[int] | None = None) -> c.Roll:
    """Recorded faces, in the order of the pool's dice."""
    return c.Roll(conflict=None, actor=actor, values=list(values), difficulty=difficulty)


def allocate(by: str, against: str, **pips: int) -> c.Allocate:
    return c.Allocate(conflict=None, by=by, against=against, pips=pips)


class Table:
    """One Beer Run campaign in its own SQLite file."""

    def __init__(self, store: EventStore, campaign: str = CAMPAIGN, shuffle: Any = None) -> None:
        self.store = store
        self.campaign = campaign
        self.shuffle: Any = shuffle if shuffle is not None else Faces()

    # --- commands -------------------------------------------------------------------------

    def execute(self, command: Command) -> list[Envelope]:
        return execute(self.store, self.campaign, command, ruleset="beer-run", shuffle=self.shuffle)

    def given(self, *commands: Command | Iterable[Command]) -> Table:
        """Commands that must all succeed (lists of commands are flattened)."""
        for item in commands:
            for command in [item] if isinstance(item, Command) else item:
                self.execute(command)
        return self

    def when(self, command: Command) -> list[Event]:
        """The command under test: the events it appended, decoded, salts cleared."""
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

    # --- reading --------------------------------------------------------------------------

    def log(self) -> list[Envelope]:
        return self.store.read(self.campaign)

    def head_seq(self) -> int:
        head = self.store.head(self.campaign)
        assert head is not None
        return head.seq

    def events(self, kind: type[E] | None = None) -> list[Any]:
        """Every stored event (of `kind`), decoded, salts cleared."""
        decoded = [unsalted(envelope.event()) for envelope in self.log()]
        return decoded if kind is None else [e for e in decoded if isinstance(e, kind)]

    def folded(self) -> Folded:
        return campaign_state(self.store, self.campaign)

    @property
    def state(self) -> BeerRunState:
        state: BeerRunState = self.folded().state
        return state

    def who(self, name: str) -> Character:
        return self.state.characters[name.lower()]

    def size(self, name: str, ability: str) -> int:
        return self.who(name).abilities[ability.lower()].size

    def intensity(self, name: str) -> int:
        return self.who(name).intensity


class Tables:
    """Opens tables, each in its own SQLite file under `path`, and closes them all at the end.

    Use it from a fixture: `with Tables(tmp_path) as tables: yield tables`.
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._opened: list[Table] = []

    def __call__(self, options: dict[str, str] | None = None, shuffle: Any = None) -> Table:
        """A new campaign `t` with these ruleset options (text values, as on the CLI)."""
        store = open_store(str(self._path / f"t{len(self._opened)}.db"), create=True)
        create_campaign(store, CAMPAIGN, ruleset="beer-run", options=options or {})
        table = Table(store, CAMPAIGN, shuffle)
        self._opened.append(table)
        return table

    def __enter__(self) -> Tables:
        return self

    def __exit__(self, *_exc: object) -> None:
        for table in self._opened:
            table.store.close()


def only(events: Iterable[Event], kind: type[E]) -> E:
    """The one event of `kind` among `events`."""
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def all_of(events: Iterable[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def winners(event: Any) -> list[str]:
    """A RollsCompared's pair winners, position by position."""
    return [pair.winner for pair in event.pairs]
