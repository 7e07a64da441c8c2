"""What the audit says per conflict about the fairness guarantees (README, "What stays
trusted"): were its hidden choices sealed, its shuffles committed, its events covered by a
checkpoint the service signs? Read from the events alone, for every ruleset: a sealing event
sets `Event.sealing`, a hidden choice `Event.hidden`, a session's end `Event.ends_session`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablelog.events.base import Event, event_class
from tablelog.events.rng import RngCommitted, RngDrawn, RngRevealed
from tablelog.projections.account import Account


@dataclass
class _Conflict:
    hidden: int = 0  # events hiding a choice in plain form (salted, not sealed)
    sealed: int = 0  # events of sealed choices
    last: int = 0  # the conflict's last event
    committed: set[str] = field(default_factory=set)  # requests committed (events/rng.py)
    drawn: set[str] = field(default_factory=set)  # ... and drawn
    alone: set[str] = field(default_factory=set)  # ... from the server seed alone
    # ... with a contribution missing: request -> "absent: ann; withheld: cat"
    missing: dict[str, str] = field(default_factory=dict)
    revealed: set[str] = field(default_factory=set)


@dataclass
class Fairness:
    conflicts: dict[str, _Conflict] = field(default_factory=dict)
    session_ends: list[int] = field(default_factory=list)

    def saw(self, seq: int, event: Event) -> None:
        if event.ends_session:
            self.session_ends.append(seq)
        key = event.conflict_id()
        if key is None:
            return
        found = self.conflicts.setdefault(key, _Conflict())
        found.last = seq
        if isinstance(event, RngCommitted):
            found.committed.add(event.request)
        elif isinstance(event, RngDrawn):
            found.drawn.add(event.request)
            gaps = missing_of(event)
            if gaps:
                found.missing[event.request] = gaps
            elif not event.players:
                found.alone.add(event.request)
        elif isinstance(event, RngRevealed):
            found.revealed.add(event.request)
        if event.sealing:
            found.sealed += 1
        elif event.hidden:
            found.hidden += 1

    def verdicts(self, conflict: str, account: Account) -> dict[str, str]:
        found = self.conflicts.get(conflict, _Conflict())
        return {
            "sealed": _sealed(found, conflict, account),
            "committed": _committed(found),
            "checkpointed": self._checkpointed(found),
        }

    def _checkpointed(self, found: _Conflict) -> str:
        signed = next((s for s in self.session_ends if s >= found.last), None)
        if signed is None:
            return f"not yet: no session has ended since seq {found.last}"
        return f"held: a checkpoint of the session's end at seq {signed} covers it"


def _sealed(found: _Conflict, conflict: str, account: Account) -> str:
    if not found.sealed:
        return "not used" if found.hidden else "nothing hidden"
    bad = [
        d.seq
        for d in account.discrepancies
        if d.conflict == conflict and getattr(event_class(d.type), "sealing", False)
    ]
    if bad:
        return f"broken: the seal at seq {bad[0]} does not hold"
    if found.hidden:
        return "partly: some hidden choices were not sealed"
    return "held: every hidden choice was sealed and opened against its commitment"


def missing_of(event: RngDrawn) -> str:
    """`absent: ann; withheld: cat`: whose contribution a draw went without, and why (a
    withheld reveal is the one choice left to a seat: README, "What stays trusted"); and
    whether the draw lapsed, dealing nothing."""
    parts = []
    if event.absent:
        parts.append(f"absent (never pledged or contributed): {', '.join(event.absent)}")
    if event.withheld:
        parts.append(f"withheld (pledged, never revealed): {', '.join(event.withheld)}")
    if event.lapsed:
        # Nothing was dealt; whoever saw the reveals could have wanted a new deal instead.
        parts.append(f"lapsed (the command was refused when drawn: {event.lapsed})")
    return "; ".join(parts)


def _committed(found: _Conflict) -> str:
    awaiting = sorted(found.committed - found.drawn)
    if awaiting:
        return f"pending: request {awaiting[0]} awaits the players' contributions"
    if not found.drawn:
        return "not used: no committed shuffle (the campaign option committed_rng)"
    waiting = sorted(found.drawn - found.revealed)
    if waiting:
        return (
            f"pending: the seed of request {waiting[0]} is not revealed yet; `tablelog verify "
            "--rng` recomputes its shuffles once it is"
        )
    if found.alone:
        return (
            f"partly: request {sorted(found.alone)[0]} was drawn from the server seed alone "
            "(no player held a token to contribute)"
        )
    if found.missing:
        named = "; ".join(f"request {r}: {gaps}" for r, gaps in sorted(found.missing.items()))
        return f"partly: drawn with contributions missing, or lapsed ({named})"
    return (
        "held: every shuffle was committed before the players contributed, and its seed "
        "revealed; `tablelog verify --rng` recomputes each"
    )
