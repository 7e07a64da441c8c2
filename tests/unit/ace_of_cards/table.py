"""A table for the Ace of Cards transcripts: a real SQLite log, commands in, events and state
out (the shape of tests/unit/beer_run/table.py).

`given` runs commands that must succeed, `when` runs the command under test and returns the
events it appended (decoded, salts cleared), `refuse` runs a command that must be refused and
checks that the log (and its head seq) did not change.

Managed decks and dice are made deterministic by `Stacked`, the shuffle every command gets: a
deck shuffle puts the next queued cards on top (the rest after, in the standard order), and a
die shows the next queued face.
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
from tablelog.rules.common import Command, JoinPlayer, StartSession
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Character, Pile
from tablelog.storage import EventStore, open_store

E = TypeVar("E", bound=Event)
CAMPAIGN = "t"
RULESET = "ace-of-cards"
CLASS_SKILLS_TAKEN = {"double_or_nothing": 1, "high_or_low": 1}
VECTOR_TYPES = {"clubs": "fire", "diamonds": "earth", "hearts": "ice", "spades": "air"}


def unsalted(event: Event) -> Event:
    if getattr(event, "salt", ""):
        return msgspec.structs.replace(event, salt="")
    return event


class Stacked:
    """A shuffle for tests: decks get the queued cards on top, dice the queued faces."""

    def __init__(self) -> None:
        self.decks: list[tuple[list[str], list[str]]] = []
        self.faces: list[int] = []

    def deck(self, *top: str, bottom: Iterable[str] = ()) -> Stacked:
        """The next deck shuffled: `top` first, `bottom` last, the rest in between."""
        self.decks.append((list(top), list(bottom)))
        return self

    def dice(self, *faces: int) -> Stacked:
        self.faces.extend(faces)
        return self

    def __call__(self, cards: list[str]) -> list[str]:
        if cards and cards == [str(n) for n in range(1, len(cards) + 1)]:
            assert self.faces, f"a d{len(cards)} was rolled but no face is queued"
            face = self.faces.pop(0)
            assert 1 <= face <= len(cards)
            return [str(face)] + [c for c in cards if c != str(face)]
        top, bottom = self.decks.pop(0) if self.decks else ([], [])
        assert all(card in cards for card in top + bottom), f"{top} {bottom} not all in {cards}"
        middle = [card for card in cards if card not in top and card not in bottom]
        return top + middle + bottom


def ace(name: str, *, hp: int = 40, mp: int = 35, benefit: str = "mp", **sl: int) -> list[Command]:
    """A character of player `name` with the class, its deck typed as the vectors type it,
    and skill levels (magic_cards=2, ...). Double or Nothing and High or Low are taken (SL 1)
    unless given as 0: most transcripts play them, and a new campaign needs them taken."""
    commands: list[Command] = [
        c.CreateCharacter(player=name, character=name, hp=hp, mp=mp),
        c.BuildDeck(character=name, suit_types=VECTOR_TYPES, benefit=benefit),  # type: ignore[arg-type]
    ]
    levels = {**CLASS_SKILLS_TAKEN, **sl}
    commands += [c.SetSkillLevel(character=name, skill=k, sl=v) for k, v in levels.items() if v]
    return commands


def open_(party: list[str], enemies: list[str], conflict: str = "c1", **kw: Any) -> c.OpenConflict:
    return c.OpenConflict(party=party, enemies=enemies, conflict=conflict, **kw)


def magic(who: str, mp: int, *cards: str, **kw: Any) -> c.UseMagicCards:
    return c.UseMagicCards(conflict=None, character=who, mp=mp, cards=list(cards), **kw)


class Table:
    """One Ace of Cards campaign in its own SQLite file."""

    def __init__(self, store: EventStore, shuffle: Stacked) -> None:
        self.store = store
        self.shuffle = shuffle

    def execute(self, command: Command) -> list[Envelope]:
        return execute(self.store, CAMPAIGN, command, ruleset=RULESET, shuffle=self.shuffle)

    def given(self, *commands: Command | Iterable[Command]) -> Table:
        for item in commands:
            for command in [item] if isinstance(item, Command) else item:
                self.execute(command)
        return self

    def when(self, command: Command) -> list[Any]:
        return [unsalted(envelope.event()) for envelope in self.execute(command)]

    def refuse(
        self, command: Command, code: str, kind: type[TablelogError] = TablelogError
    ) -> TablelogError:
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

    def events(self, kind: type[E] | None = None) -> list[Any]:
        decoded = [unsalted(envelope.event()) for envelope in self.log()]
        return decoded if kind is None else [e for e in decoded if isinstance(e, kind)]

    @property
    def state(self) -> AceState:
        state: AceState = campaign_state(self.store, CAMPAIGN).state
        return state

    def who(self, name: str) -> Character:
        return self.state.characters[name.lower()]

    def pile(self, name: str) -> Pile:
        pile = self.who(name).pile
        assert pile is not None
        return pile


class Tables:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._opened: list[Table] = []

    def __call__(self, options: dict[str, str] | None = None) -> Table:
        store = open_store(str(self._path / f"t{len(self._opened)}.db"), create=True)
        create_campaign(store, CAMPAIGN, ruleset=RULESET, options=options or {})
        table = Table(store, Stacked())
        table.given(JoinPlayer(player="bob"), StartSession())
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
