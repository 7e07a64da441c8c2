"""The audit's shared builder: the account of a campaign, written as the log is walked.

Core code owns what every ruleset's audit has: the conflicts' chapters with their sections and
notes, the session spans (read from the table's clock, `Ruleset.table`), the discrepancies and
the conflict scope. A ruleset's `Auditor` writes only what its events mean.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from tablelog.events.base import Event
from tablelog.projections.account import (
    Account,
    AuditSteps,
    ConflictAccount,
    Discrepancy,
    Note,
    Section,
    SessionSpan,
)
from tablelog.projections.fairness import Fairness
from tablelog.rules.table import Table


@dataclass
class Chapter:
    """One conflict's account while the walk is inside it. A ruleset keeps what else it needs
    per conflict in a subclass (`Book.begin(..., chapter=...)`)."""

    account: ConflictAccount
    closed: bool = False  # the conflict is over: nothing more is explained in it

    def section(self, title: str) -> Section:
        """The section called `title`: the last one if it has that title, else a new one."""
        sections = self.account.sections
        if not sections or sections[-1].title != title:
            sections.append(Section(title=title))
        return sections[-1]

    def note(self, title: str, seq: int, kind: str, text: str, /, **data: object) -> None:
        self.section(title).notes.append(Note(seq=seq, kind=kind, text=text, data=dict(data)))
        self.account.last_seq = seq

    def touch(self, seq: int) -> None:
        """The conflict's account reaches `seq` (an event with nothing to say yet)."""
        self.account.last_seq = seq

    @property
    def latest(self) -> str | None:
        """The title of the newest section, if any."""
        sections = self.account.sections
        return sections[-1].title if sections else None


C = TypeVar("C", bound=Chapter)
S_contra = TypeVar("S_contra", contravariant=True)


@dataclass
class Book:
    campaign: str
    ruleset: str
    scope: str | None = None  # one conflict's key: only it (and campaign-wide events) explained
    account: Account = field(init=False)
    chapters: dict[str, Chapter] = field(default_factory=dict)
    _first: dict[int, int] = field(default_factory=dict)  # session -> its first seq
    _last: dict[int, int] = field(default_factory=dict)
    _clock: tuple[int, int] | None = None  # the previous event's seq, and the session before it
    fairness: Fairness = field(default_factory=Fairness)

    def __post_init__(self) -> None:
        self.account = Account(
            campaign=self.campaign, ruleset=self.ruleset, seq=0, conflicts=[], discrepancies=[]
        )

    def in_scope(self, event: Event) -> bool:
        key = event.conflict_id()
        return self.scope is None or key is None or key == self.scope

    def advance(self, seq: int, table: Table) -> None:
        """The walk is at `seq`, with the table's clock as it stood just before that event."""
        self.account.seq = seq
        self._clocked(table)
        if table.session and table.session_open:  # the event happens inside that session
            self._last[table.session] = seq
        self._clock = (seq, table.session)

    def _clocked(self, table: Table) -> None:
        # The previous event moved the clock to a new session: that event began it.
        if self._clock is None:
            return
        seq, session = self._clock
        if table.session and table.session != session:
            self._first[table.session] = self._last[table.session] = seq

    def found(self, discrepancies: Iterable[Discrepancy]) -> None:
        self.account.discrepancies.extend(discrepancies)

    def begin(
        self,
        conflict: str,
        title: str,
        seq: int,
        session: int | None,
        chapter: type[C] = Chapter,  # type: ignore[assignment]
    ) -> C:
        """A new conflict's chapter, added to the account."""
        account = ConflictAccount(
            conflict=conflict, title=title, session=session, first_seq=seq, last_seq=seq
        )
        self.account.conflicts.append(account)
        opened = chapter(account)
        self.chapters[conflict] = opened
        return opened

    def chapter(self, conflict: str | None) -> Chapter | None:
        """The chapter of a conflict still open, if any."""
        found = self.chapters.get(conflict) if conflict is not None else None
        return found if found is not None and not found.closed else None

    def open_chapters(self) -> list[Chapter]:
        return [c for c in self.chapters.values() if not c.closed]

    def finish(self, table: Table) -> Account:
        """The account, once the walk is over (`table`: the clock after the last event)."""
        self._clocked(table)
        self.account.sessions = [
            SessionSpan(session=n, first_seq=first, last_seq=self._last.get(n, first))
            for n, first in sorted(self._first.items())
        ]
        for conflict in self.account.conflicts:
            conflict.guarantees = self.fairness.verdicts(conflict.conflict, self.account)
        if self.scope is not None:
            self.account.conflicts = [c for c in self.account.conflicts if c.conflict == self.scope]
        return self.account


class Auditor(Protocol[S_contra]):
    """One audit's walk over a campaign's log, each event seen with the state just before it.

    `check` recomputes what the event records (a decision, a limit) from that state and says
    where the record differs; `explain` writes the event into the `Book` (the conflict's
    chapter, its sections and notes); `finish` gets the state after the last event. Core code
    owns the walk, the session spans and the conflict scope (see `Book`)."""

    # True when `check` must see every event, not only those of the audited conflict (a check
    # that remembers something from one event for a later one).
    checks_every_event: bool

    def check(self, state: S_contra, seq: int, event: Event) -> Sequence[Discrepancy]: ...

    def explain(self, book: Book, state: S_contra, seq: int, event: Event) -> None: ...

    def finish(self, book: Book, state: S_contra) -> None: ...


def write(
    book: Book,
    auditor: Auditor[Any],
    steps: AuditSteps,
    table: Callable[[Any], Table],
    after: Callable[[], Any],
) -> Account:
    """Walk the log into `book` with a ruleset's `auditor`; `after()` is the state once the
    last step is folded in, `table(state)` the ruleset's clock."""
    for step in steps:
        seq, event, before = step.envelope.seq, step.event, step.before
        book.advance(seq, table(before))
        book.fairness.saw(seq, event)
        if event.beside_table:
            continue  # core bookkeeping (a committed shuffle's): no ruleset's to check
        inside = book.in_scope(event)
        if inside or auditor.checks_every_event:
            book.found(auditor.check(before, seq, event))
        if inside:
            auditor.explain(book, before, seq, event)
    final = after()
    auditor.finish(book, final)
    return book.finish(table(final))
