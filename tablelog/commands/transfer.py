"""Export to JSON Lines and import from it: a campaign moves between databases intact.

The export holds each event's whole envelope with its payload inline, byte for byte as stored,
so the chain can be re-checked from the file alone. An import checks every line (shape,
sequence, chain, hashes, payloads) before it writes anything, and refuses the whole file,
naming the first bad line, when one does not hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from tablelog.commands.access import new_token
from tablelog.errors import AlreadyExists, InvalidInput
from tablelog.events.codec import UndecodableEvent, fast_decoder
from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import Envelope, envelope_from_line
from tablelog.progress import SILENT, Progress
from tablelog.storage import EventStore
from tablelog.storage.chain import GENESIS, envelope_hash

_UNSEEN: Any = object()
_CREATED = CampaignCreated.type_name()
MAX_LINE = 1_048_576  # bytes; an event is far smaller (narration is capped at 4,000 characters)


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    ruleset: str
    events: int
    head_seq: int
    head_hash: str
    token: str


def export_jsonl(
    store: EventStore, campaign: str, *, progress: Progress = SILENT
) -> Iterator[bytes]:
    """The campaign's events as JSON Lines (no trailing newline on each item), streamed."""
    head = store.head(campaign)
    progress.start(head.seq if head is not None else 0, "exporting")
    for envelope in store.stream(campaign):
        yield envelope.to_json_line()
        progress.advance()


def _bad(number: int, reason: str) -> InvalidInput:
    return InvalidInput(f"line {number}: {reason}; nothing was imported", code="bad-import")


def _count_lines(path: Path) -> int:
    try:
        with path.open("rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except OSError:
        return 0  # reading it properly below says why


_PROGRESS_EVERY = 1000  # lines between progress updates: a bar need not move per line


def read_export(path: Path, *, progress: Progress = SILENT) -> dict[str, list[Envelope]]:
    """Every campaign in the file, checked from its first event to its last."""
    progress.start(_count_lines(path), "checking")
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}", code="bad-import") from None
    campaigns: dict[str, list[Envelope]] = {}
    readers: dict[tuple[str, int], Any] = {}
    number = 0
    with handle:
        for number, line in enumerate(handle, start=1):
            if number % _PROGRESS_EVERY == 0:
                progress.advance(_PROGRESS_EVERY)
            if len(line) > MAX_LINE:
                raise _bad(number, f"the line is longer than {MAX_LINE} bytes")
            if len(line) <= 2 and not line.strip():
                continue
            try:
                envelope = envelope_from_line(line.rstrip(b"\r\n"))
            except ValueError as exc:
                raise _bad(number, f"not an exported event ({exc})") from None
            chain = campaigns.setdefault(envelope.campaign, [])
            _check(number, envelope, chain[-1] if chain else None, readers)
            chain.append(envelope)
    progress.advance(number % _PROGRESS_EVERY)
    if not campaigns:
        raise InvalidInput(f"{path} holds no events", code="bad-import")
    return campaigns


def _check(
    number: int,
    envelope: Envelope,
    previous: Envelope | None,
    readers: dict[tuple[str, int], Any],
) -> None:
    expected_seq = 1 if previous is None else previous.seq + 1
    if envelope.seq != expected_seq:
        raise _bad(
            number,
            f"campaign {envelope.campaign} jumps to seq {envelope.seq}, expected {expected_seq}",
        )
    expected_prev = GENESIS if previous is None else previous.hash
    if envelope.prev_hash != expected_prev:
        raise _bad(number, f"seq {envelope.seq}: prev_hash is not the hash of the event before")
    recomputed = envelope_hash(envelope)
    if recomputed != envelope.hash:
        raise _bad(number, f"seq {envelope.seq}: the hash does not match the event's contents")
    # The payload must be readable: one cached decoder per stored type (as a rebuild reads
    # them), the careful way for the first event, an upcast, or anything that fails.
    key = (envelope.type, envelope.schema_version)
    reader = readers.get(key, _UNSEEN)
    if reader is _UNSEEN:
        reader = readers[key] = fast_decoder(*key)
    if reader is not None and envelope.seq != 1 and envelope.type != _CREATED:
        try:
            reader.decode(envelope.payload)
            return
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass  # explained below
    try:
        event = envelope.event()
    except UndecodableEvent as exc:
        raise _bad(number, f"seq {envelope.seq}: the payload cannot be read ({exc})") from None
    if (envelope.seq == 1) != isinstance(event, CampaignCreated):
        raise _bad(number, "a campaign must begin with campaign.created, and only once")
    if isinstance(event, CampaignCreated) and event.campaign != envelope.campaign:
        raise _bad(
            number, f"campaign.created names {event.campaign!r}, the line {envelope.campaign!r}"
        )


def import_jsonl(store: EventStore, path: Path) -> list[Imported]:
    """Check an export, then load it into this database."""
    return write_import(store, read_export(path))


def write_import(
    store: EventStore, campaigns: dict[str, list[Envelope]], *, progress: Progress = SILENT
) -> list[Imported]:
    """Load checked campaigns (from `read_export`); each gets a fresh GM access token."""
    taken = [name for name in campaigns if store.head(name) is not None]
    if taken:
        raise AlreadyExists(
            f"campaign(s) {', '.join(taken)} already exist in {store.label}; nothing was imported"
        )
    imported: list[Imported] = []
    progress.start(sum(len(chain) for chain in campaigns.values()), "importing")
    for name, chain in campaigns.items():
        created = chain[0].event()
        assert isinstance(created, CampaignCreated)
        token, digest = new_token()
        with store.new_campaign(name, created.ruleset) as tx:
            tx.append_checked(chain)  # read_export recomputed every hash of the chain
            tx.add_access_token(token_hash=digest, player=created.gm, role="gm")
        progress.advance(len(chain))
        imported.append(
            Imported(
                campaign=name,
                ruleset=created.ruleset,
                events=len(chain),
                head_seq=chain[-1].seq,
                head_hash=chain[-1].hash.hex(),
                token=token,
            )
        )
    return imported
