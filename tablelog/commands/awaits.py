"""Since when the table waits on each step: `awaiting` with its `since`, kept per campaign.

An `Await` is a function of the state; since when it has lasted is a function of the history.
Each process keeps it beside the campaign's cached state (`state.Entry.awaits`): once someone
asks, the whole log is folded once with the steps worked out after every event, and from then
on every event the cache folds in (a command's own, or another writer's) moves it on, so a
step keeps the seq of the event after which it first appeared, for as long as it lasts.

Only the cache pays for it, and only once asked: rebuilds, audits and replays do not.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tablelog.commands import rng_awaits
from tablelog.commands.rng_awaits import Request
from tablelog.events.envelope import Envelope
from tablelog.projections.await_step import Await
from tablelog.projections.awaiting import awaiting
from tablelog.projections.fold import Folded, fold_onto
from tablelog.rules.table import GM

Key = tuple[str, str | None, str, str | None]


@dataclass(frozen=True)
class Since:
    """A step and the event after which the table began to wait on it."""

    step: Await
    seq: int
    at: int  # that event's recorded_at (microseconds since the epoch)


@dataclass(frozen=True)
class _Kept:
    seq: int
    steps: list[Since]
    requests: dict[str, Request] = field(default_factory=dict)


@dataclass
class Tracked:
    """The steps awaited at `seq`, in the ruleset's order, each with its beginning."""

    seq: int
    steps: dict[Key, Since] = field(default_factory=dict)
    # The committed shuffles still open (rng_awaits.py): beside the table, so kept here.
    requests: dict[str, Request] = field(default_factory=dict)

    def encode(self) -> bytes:
        """As a snapshot keeps it (state.py writes it beside the state's)."""
        kept = _Kept(self.seq, list(self.steps.values()), self.requests)
        return msgspec.msgpack.encode(kept)

    @classmethod
    def decode(cls, data: bytes) -> Tracked:
        """A kept one; ValueError when it cannot be read (then the log is folded afresh)."""
        try:
            kept = msgspec.msgpack.decode(data, type=_Kept)
        except msgspec.DecodeError as exc:
            raise ValueError(str(exc)) from None
        return cls(kept.seq, {s.step.key(): s for s in kept.steps}, kept.requests)

    def observe(
        self, folded: Folded, envelope: Envelope, among: Sequence[Envelope] = ()
    ) -> list[Since]:
        """The steps after `envelope` (and `among`, the events of its command before it),
        folded in already; those they began are returned."""
        for each in (*among, envelope):
            rng_awaits.follow(self.requests, each)
        begun: list[Since] = []
        steps: dict[Key, Since] = {}
        for step in [*awaiting(folded), *rng_awaits.steps(self.requests)]:
            key = step.key()
            known = self.steps.get(key)
            if known is None:
                known = Since(step, envelope.seq, envelope.recorded_at)
                begun.append(known)
            steps[key] = known
        self.steps, self.seq = steps, envelope.seq
        return begun


def moved_on(
    holder: Any, folded: Folded, envelopes: Sequence[Envelope], *, one_command: bool = False
) -> list[Since]:
    """Fold `envelopes` into `folded` (the state `holder.awaits` was tracking, if live) and move
    its awaits on; the steps these events began. Not live: a plain fold.

    `one_command`: the events are one command's, which the table only ever sees whole, so the
    steps are worked out once, after the last (an append's hot path); otherwise (events of
    other writers, maybe many commands) after each event."""
    tracked: Tracked | None = holder.awaits
    if tracked is None or tracked.seq != folded.seq:
        holder.awaits = None
        fold_onto(folded, envelopes)
        return []
    if one_command and envelopes:
        fold_onto(folded, envelopes)
        return tracked.observe(folded, envelopes[-1], envelopes[:-1])
    begun: list[Since] = []
    for envelope in envelopes:
        fold_onto(folded, (envelope,))
        begun += tracked.observe(folded, envelope)
    # A step begun and ended inside these events was never waited on for long: not news.
    return [s for s in begun if s.step.key() in tracked.steps]


def track_from_start(folded: Folded, envelopes: Sequence[Envelope]) -> Tracked:
    """The awaits of a campaign folded afresh from its first event (`envelopes[0]`), which
    `folded` holds already; every later event moves both on."""
    tracked = Tracked(seq=folded.seq)
    for envelope in envelopes[1:]:
        fold_onto(folded, (envelope,))
        tracked.observe(folded, envelope)
    if len(envelopes) == 1:
        tracked.observe(folded, envelopes[0])
    return tracked


def iso(micros: int) -> str:
    """Microseconds since the epoch as an ISO 8601 time in UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(micros / 1_000_000))


def awaiting_json(folded: Folded, steps: Iterable[Since]) -> list[dict[str, Any]]:
    """`state --json`'s `awaiting`: each step with the seat's name (the GM's name for the
    GM's steps, flagged `gm`) and since when, in the ruleset's order."""
    gm = folded.ruleset.cast.gm(folded.state)
    return [
        {
            "player": gm if s.step.player == GM else s.step.player,
            "gm": s.step.player == GM,
            "character": s.step.character,
            "what": s.step.what,
            "conflict": s.step.conflict,
            "optional": s.step.optional,
            "since_seq": s.seq,
            "since": iso(s.at),
        }
        for s in steps
    ]
