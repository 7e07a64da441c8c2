"""The account of a campaign: what the audit explains and what forum posts show.

A ruleset's projections turn its log into `ConflictAccount`s (the table round by round, every
comparison and the rule behind it, where tokens went) and check each recorded decision against
the rules, reporting `Discrepancy`s. Everything here is public: a card still face down or a
hand never enters an account, so no rendering of one can leak it. Texts are plain; renderers
escape them for their format.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from tablelog.events.base import Event
from tablelog.events.envelope import Envelope


class Note(msgspec.Struct, frozen=True, kw_only=True):
    """One explained fact: a sentence and the numbers behind it."""

    seq: int
    kind: str
    text: str
    data: dict[str, Any] = {}


class Table(msgspec.Struct, frozen=True, kw_only=True):
    columns: list[str]
    rows: list[list[str]]


class Section(msgspec.Struct, kw_only=True):
    title: str
    table: Table | None = None
    notes: list[Note] = []


class ConflictAccount(msgspec.Struct, kw_only=True):
    conflict: str
    title: str
    session: int | None
    first_seq: int
    last_seq: int
    sections: list[Section] = []
    # Which of the fairness guarantees held for this conflict (README, "What stays
    # trusted"): "sealed", "committed", "checkpointed", each a short verdict.
    guarantees: dict[str, str] = {}


class Discrepancy(msgspec.Struct, frozen=True, kw_only=True):
    """A recorded decision the rules, recomputed from the earlier events, do not reach."""

    seq: int
    conflict: str | None
    type: str
    field: str
    recorded: Any
    expected: Any


class SessionSpan(msgspec.Struct, frozen=True, kw_only=True):
    session: int
    first_seq: int
    last_seq: int


class Account(msgspec.Struct, kw_only=True):
    campaign: str
    ruleset: str
    seq: int
    conflicts: list[ConflictAccount]
    discrepancies: list[Discrepancy]
    sessions: list[SessionSpan] = []
    # Campaign-wide facts outside the game: each access token re-issued, and by whom.
    access: list[Note] = []
    # Each committed shuffle drawn without a contribution: who was absent, who withheld.
    shuffles: list[Note] = []

    @property
    def ok(self) -> bool:
        return not self.discrepancies


class AuditStep(msgspec.Struct, frozen=True):
    """One event with the ruleset state just before it (valid only until the next step)."""

    envelope: Envelope
    event: Event
    before: Any


AuditSteps = Iterator[AuditStep]
