"""Export to JSON Lines, and a campaign's events copied as they are into another store.

The export holds each event's whole envelope with its payload inline, byte for byte as stored,
so the chain can be re-checked from the file alone (`importing.py` loads it back).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import Envelope
from tablelog.progress import SILENT, Progress
from tablelog.storage import EventStore


def export_jsonl(
    store: EventStore, campaign: str, *, progress: Progress = SILENT
) -> Iterator[bytes]:
    """The campaign's events as JSON Lines (no trailing newline on each item), streamed."""
    head = store.head(campaign)
    progress.start(head.seq if head is not None else 0, "exporting")
    for envelope in store.stream(campaign):
        yield envelope.to_json_line()
        progress.advance()


def copy_campaign(store: EventStore, envelopes: Sequence[Envelope]) -> None:
    """Store a campaign's events, read from another log, unchanged (same bytes, same hashes):
    the what-if's scratch copy. They must begin the campaign and follow one another."""
    first = envelopes[0].event()
    assert isinstance(first, CampaignCreated)
    name = envelopes[0].campaign
    with store.bulk_load() as load:
        load.create(name, first.ruleset)
        load.insert([e.row() for e in envelopes])
        load.finish(name, envelopes[-1].seq, envelopes[-1].hash)
