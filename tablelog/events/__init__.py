"""What happened: event Structs, their canonical codec, upcasters and the stored envelope."""

from tablelog.events import core as core
from tablelog.events.base import Event, event_class, registered
from tablelog.events.codec import UndecodableEvent, decode, encode
from tablelog.events.envelope import Envelope, Pending

__all__ = [
    "Envelope",
    "Event",
    "Pending",
    "UndecodableEvent",
    "decode",
    "encode",
    "event_class",
    "registered",
]
