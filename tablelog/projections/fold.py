"""Folding a campaign's log into its ruleset's state: the one way any state is built."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import takewhile
from typing import Any

from tablelog.errors import StorageError
from tablelog.events.base import Event
from tablelog.events.codec import UndecodableEvent
from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import Envelope
from tablelog.rules import registry


class InconsistentLog(StorageError):
    """An event the state built so far cannot take: the chain may be intact (an edited log, or
    one written by a buggy tablelog), but the history does not hold together."""

    code = "inconsistent-log"

    def __init__(self, campaign: str, seq: int, event: Event, detail: str) -> None:
        self.campaign, self.seq, self.event = campaign, seq, event
        super().__init__(
            f"event {seq} of campaign {campaign} ({event.type_name()}) does not follow from "
            f"the events before it ({detail}); `tablelog audit` shows the campaign up to there"
        )


@dataclass
class Folded:
    campaign: str
    ruleset: registry.Ruleset
    state: Any
    seq: int


def decoded(envelope: Envelope) -> Event:
    """The envelope's event; an unreadable one is a StorageError naming it."""
    try:
        return envelope.event()
    except UndecodableEvent as exc:
        raise StorageError(
            f"event {envelope.seq} of campaign {envelope.campaign} cannot be read ({exc}); "
            "`tablelog verify` checks the log"
        ) from None


def _started(envelope: Envelope, event: Event) -> Folded:
    if not isinstance(event, CampaignCreated):
        raise StorageError(
            f"campaign {envelope.campaign} does not begin with campaign.created; "
            "`tablelog verify` checks the log"
        )
    rules = registry.get(event.ruleset)
    return Folded(envelope.campaign, rules, rules.initial(event), envelope.seq)


def _evolve(folded: Folded, envelope: Envelope, event: Event) -> None:
    try:
        folded.state = folded.ruleset.evolve(folded.state, event)
    except (LookupError, ValueError, TypeError, AttributeError, AssertionError) as exc:
        # evolve trusts the log (the rules checked every event before it was written), so a
        # failure here means the log was written by something else.
        detail = f"unknown {exc}" if isinstance(exc, LookupError) else str(exc)
        raise InconsistentLog(envelope.campaign, envelope.seq, event, detail) from None
    folded.seq = envelope.seq


def fold_steps(envelopes: Iterable[Envelope]) -> Iterator[tuple[Envelope, Event, Folded]]:
    """The state after each event in turn (the same Folded, moved on: read it before the next).

    `fold` and replays share this one walk, so both read and check the log the same way.
    """
    folded: Folded | None = None
    for envelope in envelopes:
        event = decoded(envelope)
        if folded is None:
            folded = _started(envelope, event)
        else:
            _evolve(folded, envelope, event)
        yield envelope, event, folded


def steps_before(envelopes: Iterable[Envelope]) -> Iterator[tuple[Envelope, Event, Folded]]:
    """Each event after `campaign.created` with the state just before it (the audit's walk:
    a recorded decision is checked against the state it was made in). The Folded moves on
    when the next step is asked for."""
    folded: Folded | None = None
    for envelope in envelopes:
        event = decoded(envelope)
        if folded is None:
            folded = _started(envelope, event)
            continue
        yield envelope, event, folded
        _evolve(folded, envelope, event)


def fold(envelopes: Iterable[Envelope], *, upto: int | None = None) -> Folded:
    """The state after every event (or those with seq <= `upto`), from the first."""
    kept = takewhile(lambda e: upto is None or e.seq <= upto, envelopes)
    last: Folded | None = None
    for _envelope, _event, last in fold_steps(kept):  # noqa: B007 - the last step is the state
        pass
    if last is None:
        raise StorageError("the campaign has no events; `tablelog verify` checks the log")
    return last
