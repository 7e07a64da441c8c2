"""A table for the Improv transcripts: a real SQLite log, commands in, events and state out.

A test reads as a transcript: `given` runs commands that must succeed, `when` runs the command
under test and returns the events it appended (decoded), `refuse` runs a command that must be
refused and checks that the log did not change. Every table has its own SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.events.envelope import Envelope
from tablelog.projections.account import Account
from tablelog.projections.views import state_view
from tablelog.rules.common import Command
from tablelog.rulesets.improv.rules import ImprovState
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.decks import Shuffle
from tablelog.rulesets.improv.views.views import hand_view, show_view
from tablelog.storage import EventStore, open_store

E = TypeVar("E", bound=Event)


def unsalted(event: Event) -> Event:
    if getattr(event, "salt", ""):
        return msgspec.structs.replace(event, salt="")  # type: ignore[type-var]
    return event


# The seed's players and their protagonists (the bar fight's cast): Bob plays Kit and Susan
# plays Diana; Jason's player is not named there, so Richard plays him.
KIT = c.CreateCharacter(player="Bob", character="Kit", talents=["Brawler"])
JASON = c.CreateCharacter(player="Richard", character="Jason", talents=["Protector"])
DIANA = c.CreateCharacter(player="Susan", character="Diana", talents=["Marksman"])
CAST: list[Command] = [KIT, JASON, DIANA]
SESSION: list[Command] = [*CAST, c.StartSession()]


class Stacked:
    """A managed-deck shuffle for tests: the n-th shuffle puts tops[n] on top, in that order,
    and keeps the rest of the cards in the order given (the fixed order of a fresh deck)."""

    def __init__(self, *tops: Sequence[str]) -> None:
        self._tops = [list(t) for t in tops]
        self.calls = 0

    def __call__(self, cards: list[str]) -> list[str]:
        top = self._tops[self.calls] if self.calls < len(self._tops) else []
        self.calls += 1
        rest = list(cards)
        for card in top:
            rest.remove(card)
        return [*top, *rest]


class Table:
    """One campaign in its own SQLite file."""

    def __init__(
        self,
        store: EventStore,
        campaign: str,
        shuffle: Shuffle | None = None,
    ) -> None:
        self.store = store
        self.campaign = campaign
        self.shuffle: Shuffle = shuffle or Stacked()

    # --- commands -------------------------------------------------------------------------

    def execute(self, command: Command) -> list[Envelope]:
        return execute(self.store, self.campaign, command, ruleset="improv", shuffle=self.shuffle)

    def given(self, *commands: Command | Iterable[Command]) -> Table:
        """Commands that must all succeed (lists of commands are flattened)."""
        for item in commands:
            for command in [item] if isinstance(item, Command) else item:
                self.execute(command)
        return self

    def when(self, command: Command) -> list[Event]:
        """The command under test: the events it appended, decoded (random salts cleared, so
        events compare with expected ones; `test_hidden_fields_are_salted` checks them)."""
        return [unsalted(envelope.event()) for envelope in self.execute(command)]

    def refuse(
        self, command: Command, code: str, kind: type[TablelogError] = TablelogError
    ) -> TablelogError:
        """`command` is refused with `code` (an instance of `kind`) and the log is unchanged."""
        before = self.log()
        with pytest.raises(kind) as caught:
            self.execute(command)
        after = self.log()
        assert caught.value.code == code, str(caught.value)
        assert after == before, "a refused command changed the log"
        return caught.value

    # --- reading --------------------------------------------------------------------------

    def log(self) -> list[Envelope]:
        return self.store.read(self.campaign)

    @property
    def state(self) -> ImprovState:
        folded = campaign_state(self.store, self.campaign)
        state: ImprovState = folded.state
        return state

    def view(self) -> dict[str, Any]:
        folded = campaign_state(self.store, self.campaign)
        return state_view(folded)

    def show(self, conflict: str) -> dict[str, Any]:
        state = self.state
        return show_view(state, state.conflicts[conflict])

    def hand(self, owner: str) -> list[str]:
        cards: list[str] = hand_view(self.state, owner)["cards"]
        return cards

    def tokens(self) -> dict[str, Any]:
        tokens: dict[str, Any] = self.view()["tokens"]
        return tokens

    def audit(self) -> Account:
        return account_of(self.log())

    def notes(self, kind: str) -> list[str]:
        """The texts of the audit's notes of `kind`, in order (every conflict)."""
        return [
            note.text
            for conflict in self.audit().conflicts
            for section in conflict.sections
            for note in section.notes
            if note.kind == kind
        ]

    def piles(self, conflict: str) -> dict[str, list[str]]:
        sides = self.state.conflicts[conflict].sides
        return {key: [p.card for p in side.victory] for key, side in sides.items()}


class Tables:
    """Opens tables, each in its own SQLite file under `path`, and closes them all at the end.

    Use it from a fixture: `with Tables(tmp_path) as tables: yield tables`.
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._opened: list[Table] = []

    def __call__(
        self, options: dict[str, str] | None = None, shuffle: Shuffle | None = None
    ) -> Table:
        """A new campaign `t` with these ruleset options (text values, as on the CLI)."""
        store = open_store(str(self._path / f"t{len(self._opened)}.db"), create=True)
        create_campaign(store, "t", ruleset="improv", options=options or {})
        table = Table(store, "t", shuffle)
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


def moves(event: Any) -> list[tuple[str, str, int]]:
    """An event's token moves as (source, to, count)."""
    return [(m.source, m.to, m.count) for m in event.token_moves]
