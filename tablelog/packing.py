"""Values kept encoded until something asks for them.

A state that carries much history most commands never read (Improv's closed conflicts) keeps
it as `msgspec.Raw` bytes: a snapshot then decodes in a millisecond, not in tens, and only a
command that needs a record pays for decoding it. Rulesets keep the bytes; this module owns
the encoding.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

_ENCODER = msgspec.msgpack.Encoder()


def pack(value: Any) -> msgspec.Raw:
    return msgspec.Raw(_ENCODER.encode(value))


_DECODERS: dict[type, Any] = {}


def unpack(raw: msgspec.Raw, kind: type[T]) -> T:
    decoder = _DECODERS.get(kind)
    if decoder is None:
        # Built on first use: building one resolves the type's annotations, a cost a command
        # that never unpacks such a value should not pay at import.
        decoder = _DECODERS[kind] = msgspec.msgpack.Decoder(kind)
    found: T = decoder.decode(raw)
    return found
