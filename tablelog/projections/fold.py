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


@dataclass
class Folded:
    campaign: str
    ruleset: registry.Ruleset
    state: Any
    seq: int


def fold_steps(envelopes: Iterable[Envelope]) -> Iterator[tuple[Envelope, Event, Folded]]:
    """The state after each event in turn (the same Folded, moved on: read it before the next).

    `fold` and replays share this one walk, so both read and check the log the same way.
    """
    folded: Folded | None = None
    for envelope in envelopes:
        try:
            event = envelope.event()
        except UndecodableEvent as exc:
            raise StorageError(
                f"event {envelope.seq} of campaign {envelope.campaign} cannot be read ({exc}); "
                "`tablelog verify` checks the log"
            ) from None
        if folded is None:
            if not isinstance(event, CampaignCreated):
                raise StorageError(
                    f"campaign {envelope.campaign} does not begin with campaign.created; "
                    "`tablelog verify` checks the log"
                )
            rules = registry.get(event.ruleset)
            folded = Folded(envelope.campaign, rules, rules.initial(event), envelope.seq)
        else:
            folded.state = folded.ruleset.evolve(folded.state, event)
            folded.seq = envelope.seq
        yield envelope, event, folded


def fold(envelopes: Iterable[Envelope], *, upto: int | None = None) -> Folded:
    """The state after every event (or those with seq <= `upto`), from the first."""
    kept = takewhile(lambda e: upto is None or e.seq <= upto, envelopes)
    last: Folded | None = None
    for _envelope, _event, last in fold_steps(kept):  # noqa: B007 - the last step is the state
        pass
    if last is None:
        raise StorageError("the campaign has no events; `tablelog verify` checks the log")
    return last
