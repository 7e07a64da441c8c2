"""The envelope: an event as the log keeps it, with its place in the campaign's chain.

`payload` holds the canonical bytes exactly as stored; they are decoded on demand, never
re-encoded, so exports and hashes always see the original bytes.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.events.base import Event
from tablelog.events.codec import decode, encode

EventRow = tuple[str, int, str, str, int, str, int, bytes, bytes, bytes]
"""A stored event's values in column order: campaign, seq, event_id, type, schema_version,
actor, recorded_at, payload, prev_hash, hash."""


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """An event about to be appended: the store adds seq, time and hashes."""

    event_id: str
    type: str
    schema_version: int
    actor: str
    payload: bytes
    # Set only by an import, which keeps the original time; the store stamps it otherwise.
    recorded_at: int | None = None

    @classmethod
    def of(cls, event: Event, *, actor: str, event_id: str) -> Pending:
        return cls(
            event_id=event_id,
            type=event.type_name(),
            schema_version=event.schema_version,
            actor=actor,
            payload=encode(event),
        )


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    """One stored event with its chain fields."""

    campaign: str
    seq: int
    event_id: str
    type: str
    schema_version: int
    actor: str
    recorded_at: int
    payload: bytes
    prev_hash: bytes
    hash: bytes

    def event(self) -> Event:
        return decode(self.type, self.schema_version, self.payload)

    def row(self) -> EventRow:
        """The values as the store inserts them."""
        return (
            self.campaign,
            self.seq,
            self.event_id,
            self.type,
            self.schema_version,
            self.actor,
            self.recorded_at,
            self.payload,
            self.prev_hash,
            self.hash,
        )

    def to_json_line(self, visible_payload: dict[str, Any] | None = None) -> bytes:
        """The JSON Lines form: the whole envelope, the payload inline byte for byte.

        With `visible_payload` (what a caller of the service may see of it), that payload
        stands in place of the stored one and the line says `"redacted": true`: its hash is
        still the stored event's, so such a line cannot be re-checked, only read."""
        if visible_payload is not None:
            return _LINE_ENCODER.encode(
                _Line(
                    campaign=self.campaign,
                    seq=self.seq,
                    event_id=self.event_id,
                    type=self.type,
                    schema_version=self.schema_version,
                    actor=self.actor,
                    recorded_at=self.recorded_at,
                    prev_hash=self.prev_hash.hex(),
                    hash=self.hash.hex(),
                    payload=visible_payload,
                    redacted=True,
                )
            )
        return _LINE_ENCODER.encode(
            _Line(
                campaign=self.campaign,
                seq=self.seq,
                event_id=self.event_id,
                type=self.type,
                schema_version=self.schema_version,
                actor=self.actor,
                recorded_at=self.recorded_at,
                prev_hash=self.prev_hash.hex(),
                hash=self.hash.hex(),
                payload=msgspec.Raw(self.payload),
            )
        )


class _Line(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    campaign: str
    seq: int
    event_id: str
    type: str
    schema_version: int
    actor: str
    recorded_at: int
    prev_hash: str
    hash: str
    payload: Any
    redacted: bool = False


_LINE_ENCODER = msgspec.json.Encoder()


class RawLine(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    campaign: str
    seq: int
    event_id: str
    type: str
    schema_version: int
    actor: str
    recorded_at: int
    prev_hash: str
    hash: str
    payload: msgspec.Raw  # the payload's bytes exactly as they stand in the line


# A whole export line at once; the payload stays the bytes it was (see `RawLine.payload`).
LINE_DECODER = msgspec.json.Decoder(RawLine)


def envelope_from_line(line: bytes) -> Envelope:
    """Parse one JSON Lines export line; ValueError with a readable reason otherwise."""
    try:
        raw = LINE_DECODER.decode(line)
        prev_hash, digest = bytes.fromhex(raw.prev_hash), bytes.fromhex(raw.hash)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ValueError(str(exc).replace("`", "")) from None
    except ValueError:
        raise ValueError("prev_hash and hash must be hexadecimal") from None
    if len(prev_hash) != 32 or len(digest) != 32:
        raise ValueError("prev_hash and hash must be 64 hexadecimal digits")
    return Envelope(
        campaign=raw.campaign,
        seq=raw.seq,
        event_id=raw.event_id,
        type=raw.type,
        schema_version=raw.schema_version,
        actor=raw.actor,
        recorded_at=raw.recorded_at,
        payload=bytes(raw.payload),
        prev_hash=prev_hash,
        hash=digest,
    )
