"""The canonical encoding of events (the bytes that are stored and hashed) and their decoding.

Encoding is msgspec JSON with deterministic key order, so the same event always yields the
same bytes. Decoding goes through the registry by the stored `type` and applies upcasters when
the stored `schema_version` is older than the class's. Decoders are built once per type.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.events.base import Event, event_class
from tablelog.events.upcasters import upcast

_ENCODER = msgspec.json.Encoder(order="deterministic")
_RAW_DECODER = msgspec.json.Decoder(dict[str, Any])
_DECODERS: dict[type[Event], msgspec.json.Decoder[Any]] = {}


class UndecodableEvent(ValueError):
    """A stored payload this tablelog cannot read (unknown type, bad bytes, wrong shape)."""


def encode(event: Event) -> bytes:
    """The canonical bytes of an event: what the log stores and the hash covers."""
    return _ENCODER.encode(event)


def _decoder(cls: type[Event]) -> msgspec.json.Decoder[Any]:
    decoder = _DECODERS.get(cls)
    if decoder is None:
        decoder = _DECODERS[cls] = msgspec.json.Decoder(cls)
    return decoder


def fast_decoder(type_name: str, schema_version: int) -> msgspec.json.Decoder[Any] | None:
    """The decoder for payloads stored as (`type_name`, `schema_version`) when they need no
    upcasting, for loops over many events (`fold`); None: use `decode`."""
    cls = event_class(type_name)
    if cls is None or schema_version != cls.schema_version:
        return None
    return _decoder(cls)


def decode(type_name: str, schema_version: int, payload: bytes) -> Event:
    """Rebuild the event stored as (`type`, `schema_version`, `payload`)."""
    cls = event_class(type_name)
    if cls is None:
        raise UndecodableEvent(f"unknown event type {type_name!r}")
    if schema_version > cls.schema_version:
        raise UndecodableEvent(
            f"{type_name} schema version {schema_version} is newer than this tablelog reads "
            f"({cls.schema_version})"
        )
    try:
        if schema_version == cls.schema_version:
            event: Event = _decoder(cls).decode(payload)
            return event
        old = _RAW_DECODER.decode(payload)
        new = upcast(type_name, old, schema_version, cls.schema_version)
        converted: Event = msgspec.convert(new, cls)
        return converted
    except (msgspec.DecodeError, msgspec.ValidationError, LookupError) as exc:
        raise UndecodableEvent(f"{type_name} v{schema_version}: {exc}") from None
