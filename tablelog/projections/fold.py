"""Folding a campaign's log into its ruleset's state: the one way any state is built."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import takewhile
from typing import Any

import msgspec

from tablelog.errors import StorageError
from tablelog.events.base import Event, event_class
from tablelog.events.codec import UndecodableEvent, fast_decoder
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
    ruleset: registry.Ruleset[Any]
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
    if event.beside_table:
        folded.seq = envelope.seq
        return
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


_UNSEEN: Any = object()
_BESIDE: Any = object()  # a core event no ruleset folds (Event.beside_table)


def fold_onto(folded: Folded, envelopes: Iterable[Envelope]) -> None:
    """Move `folded` on by these events (the ones right after its seq, in order).

    The hot loop of every rebuild: one decoder per stored type, looked up once, and the
    ruleset's evolve called directly; anything unusual (an upcast, an unreadable payload, an
    event the state cannot take) goes the careful way."""
    evolve = folded.ruleset.evolve
    decoders: dict[tuple[str, int], Any] = {}
    state = folded.state
    envelope: Envelope | None = None
    try:
        for envelope in envelopes:
            key = (envelope.type, envelope.schema_version)
            decoder = decoders.get(key, _UNSEEN)
            if decoder is _UNSEEN:
                beside = getattr(event_class(envelope.type), "beside_table", False)
                decoder = decoders[key] = _BESIDE if beside else fast_decoder(*key)
            if decoder is _BESIDE:
                continue
            event = decoded(envelope) if decoder is None else decoder.decode(envelope.payload)
            state = evolve(state, event)
    except (msgspec.DecodeError, msgspec.ValidationError):
        assert envelope is not None
        decoded(envelope)  # raises the StorageError that names it
        raise
    except (LookupError, ValueError, TypeError, AttributeError, AssertionError) as exc:
        assert envelope is not None
        folded.state = state
        detail = f"unknown {exc}" if isinstance(exc, LookupError) else str(exc)
        raise InconsistentLog(envelope.campaign, envelope.seq, decoded(envelope), detail) from None
    folded.state = state
    if envelope is not None:
        folded.seq = envelope.seq


def fold(envelopes: Iterable[Envelope], *, upto: int | None = None) -> Folded:
    """The state after every event (or those with seq <= `upto`), from the first."""
    kept = iter(takewhile(lambda e: upto is None or e.seq <= upto, envelopes))
    first = next(kept, None)
    if first is None:
        raise StorageError("the campaign has no events; `tablelog verify` checks the log")
    folded = _started(first, decoded(first))
    fold_onto(folded, kept)
    return folded
