"""Checkpoints players keep: the service's signature over (campaign, seq, head hash, time).

The hash chain proves a log was not edited only to someone who holds an earlier hash: the
operator can rewrite history and recompute every hash after it, and plain `verify` passes. A
checkpoint is that earlier hash, signed by the service (signing.py), in a small JSON object a
player keeps. `tablelog verify --checkpoint FILE` then proves that the log still extends it.

The service signs one at the end of each session (for every event that ends one, whose class
sets `Event.ends_session`: its seq, its hash and its recorded time, so that the same
checkpoint can be handed out again at any time, byte for byte: Ed25519 signatures are
deterministic) and one on demand, over the head as it stands, at the time of asking.

The signed bytes (`signed_bytes`), all integers big-endian:

    b"tablelog-checkpoint-v1\\x00"
    u32 length of the campaign's name in UTF-8, then the name
    u64 seq
    32 bytes: the chain hash of the event at seq
    i64 time, microseconds since 1970-01-01 UTC
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator

import msgspec

from tablelog.commands.signing import (
    PUBLIC_KEY_BYTES,
    SIGNATURE_BYTES,
    ServiceKey,
    signature_holds,
)
from tablelog.errors import InvalidInput, NotFound
from tablelog.events.base import event_class
from tablelog.storage import EventStore

DOMAIN = b"tablelog-checkpoint-v1\x00"
HASH_BYTES = 32


class Checkpoint(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a player keeps: hex for the bytes, so it reads in any text file."""

    campaign: str
    seq: int
    hash: str
    time: int
    key: str
    signature: str

    def signed(self) -> bytes:
        return signed_bytes(self.campaign, self.seq, bytes.fromhex(self.hash), self.time)

    def holds(self) -> bool:
        """The signature is the named key's over this checkpoint's fields."""
        return signature_holds(
            bytes.fromhex(self.key), bytes.fromhex(self.signature), self.signed()
        )


def signed_bytes(campaign: str, seq: int, head_hash: bytes, at: int) -> bytes:
    """The canonical encoding a checkpoint's signature covers (the module's docstring)."""
    name = campaign.encode()
    if len(head_hash) != HASH_BYTES:
        raise ValueError(f"a chain hash is {HASH_BYTES} bytes; got {len(head_hash)}")
    return b"".join(
        (DOMAIN, struct.pack(">I", len(name)), name, struct.pack(">Q", seq), head_hash)
    ) + struct.pack(">q", at)


def sign(key: ServiceKey, campaign: str, seq: int, head_hash: bytes, at: int) -> Checkpoint:
    signature = key.sign(signed_bytes(campaign, seq, head_hash, at))
    return Checkpoint(
        campaign=campaign,
        seq=seq,
        hash=head_hash.hex(),
        time=at,
        key=key.public_hex,
        signature=signature.hex(),
    )


def checkpoint_now(store: EventStore, campaign: str, key: ServiceKey) -> Checkpoint:
    """A checkpoint of the campaign's head as it stands, signed now."""
    head = store.head(campaign)
    if head is None:
        raise NotFound(f"there is no campaign {campaign!r} in {store.label}")
    return sign(key, campaign, head.seq, head.hash, time.time_ns() // 1000)


def checkpoint_at(store: EventStore, campaign: str, key: ServiceKey, seq: int) -> Checkpoint:
    """A checkpoint of the campaign's event at `seq` (an earlier head), signed now: a player
    about to reveal a committed shuffle's value keeps one over the close of its pledges."""
    found = hash_at(store, campaign, seq) if seq >= 1 else None
    if found is None:
        head = store.head(campaign)
        if head is None:
            raise NotFound(f"there is no campaign {campaign!r} in {store.label}")
        raise NotFound(
            f"campaign {campaign} has events 1 to {head.seq}; there is no seq {seq}",
            code="no-seq",
        )
    return sign(key, campaign, seq, bytes.fromhex(found), time.time_ns() // 1000)


def session_checkpoints(
    store: EventStore, campaign: str, key: ServiceKey, *, since: int = 0
) -> list[Checkpoint]:
    """The checkpoint of every session's end at or after seq `since`, oldest first."""
    ends: dict[str, bool] = {}  # type -> whether it ends a session (Event.ends_session)
    found = []
    for e in store.stream(campaign, after_seq=max(since - 1, 0)):
        ending = ends.get(e.type)
        if ending is None:
            cls = event_class(e.type)
            ending = ends[e.type] = cls is not None and cls.ends_session
        if ending:
            found.append(sign(key, campaign, e.seq, e.hash, e.recorded_at))
    return found


def hash_at(store: EventStore, campaign: str, seq: int) -> str | None:
    """The chain hash of the campaign's event at `seq` (hex), None when the log ends before."""
    found = store.read(campaign, after_seq=seq - 1, upto_seq=seq)
    return found[0].hash.hex() if found else None


_DECODER = msgspec.json.Decoder(Checkpoint)
ENCODER = msgspec.json.Encoder()


def read_checkpoints(data: bytes, source: str) -> list[tuple[int, Checkpoint]]:
    """The checkpoints of a JSON Lines file, with their line numbers; InvalidInput naming the
    first line that is not one."""
    found = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            checkpoint = _DECODER.decode(line)
            _check_shape(checkpoint)
        except (msgspec.DecodeError, ValueError) as exc:
            raise InvalidInput(
                f"line {number} of {source} is not a checkpoint ({exc})", code="bad-checkpoint"
            ) from None
        found.append((number, checkpoint))
    if not found:
        raise InvalidInput(f"{source} holds no checkpoint", code="bad-checkpoint")
    return found


def _check_shape(c: Checkpoint) -> None:
    sizes = ((c.hash, HASH_BYTES), (c.key, PUBLIC_KEY_BYTES), (c.signature, SIGNATURE_BYTES))
    for text, size in sizes:
        if len(bytes.fromhex(text)) != size:
            raise ValueError(f"expected {size} bytes of hex, got {text!r}")
    if c.seq < 1:
        raise ValueError(f"seq must be 1 or more, got {c.seq}")


def unique(checkpoints: Iterator[Checkpoint] | list[Checkpoint]) -> list[Checkpoint]:
    """`checkpoints` without repeats, in their order (a client sees some more than once)."""
    seen: set[bytes] = set()
    kept = []
    for c in checkpoints:
        line = ENCODER.encode(c)
        if line not in seen:
            seen.add(line)
            kept.append(c)
    return kept
