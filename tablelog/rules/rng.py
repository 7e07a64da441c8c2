"""Committed shuffles: an order nobody can steer, recomputable by anyone once the seed is out.

The service picks a 32-byte server seed with `secrets` and logs only its commitment,
SHA-256(COMMIT_TAG || seed). Each awaited player's client then pledges 32 random bytes of
its own (logs only `pledge(...)` of them) and reveals them once every pledge is in. The
shuffle's seed is SHA-256(SEED_TAG || server seed || each contribution, in player order);
the operator cannot try seeds until one deals well (the commitment came first, the
contributions after), no player can either (the server seed is hidden until the reveal), and
an operator holding a seat cannot try values against the others' (theirs are pledged before
any is revealed): it can only reveal its own or withhold it, in the log by name.

From that seed: a counter stream of SHA-256(STREAM_TAG || seed || counter as 8 bytes big
endian) blocks, read as 8-byte big-endian unsigned words; a uniform integer below n by
rejection (words at or above the largest multiple of n under 2**64 are skipped, so no value
is favoured); the shuffle is Fisher-Yates from the last position down (position i swaps with
a uniform j in 0..i). Every shuffle of one command continues the same stream, in the order
the rules ask for them. The README gives a test vector. Pure: hashlib only, no clock, no RNG.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

SEED_BYTES = 32
COMMIT_TAG = b"tablelog/rng/commit/v1\x00"
SEED_TAG = b"tablelog/rng/seed/v1\x00"
PLEDGE_TAG = b"tablelog/rng/pledge/v1\x00"
STREAM_TAG = b"tablelog/rng/stream/v1\x00"
_WORD = 2**64


def from_hex(text: str) -> bytes | None:
    """A seed or contribution given as hex: exactly SEED_BYTES bytes, else None."""
    try:
        value = bytes.fromhex(text)
    except ValueError:
        return None
    return value if len(value) == SEED_BYTES else None


def commitment(server_seed: bytes) -> str:
    """The hex commitment logged before anyone contributes."""
    return hashlib.sha256(COMMIT_TAG + server_seed).hexdigest()


def _framed(text: str) -> bytes:
    data = text.encode()
    return len(data).to_bytes(4, "big") + data


def pledge(campaign: str, request: str, player: str, value: bytes) -> str:
    """The hex commitment a player logs before revealing `value`: bound to the campaign, the
    request and the player (each length-prefixed), so it cannot be replayed for another."""
    if len(value) != SEED_BYTES:
        raise ValueError(f"a contribution is {SEED_BYTES} bytes; got {len(value)}")
    framed = _framed(campaign) + _framed(request) + _framed(player)
    return hashlib.sha256(PLEDGE_TAG + framed + value).hexdigest()


def shuffle_seed(server_seed: bytes, contributions: Sequence[bytes]) -> bytes:
    """The seed of the shuffles: the server's and every contribution given, in player order
    (each exactly SEED_BYTES long, so the concatenation cannot be read two ways)."""
    for value in (server_seed, *contributions):
        if len(value) != SEED_BYTES:
            raise ValueError(f"a seed or contribution is {SEED_BYTES} bytes; got {len(value)}")
    return hashlib.sha256(SEED_TAG + server_seed + b"".join(contributions)).digest()


@dataclass
class Stream:
    """Uniform integers drawn from the SHA-256 counter stream of one seed."""

    seed: bytes
    counter: int = 0
    _buffer: bytes = b""

    def word(self) -> int:
        if len(self._buffer) < 8:
            block = STREAM_TAG + self.seed + self.counter.to_bytes(8, "big")
            self._buffer += hashlib.sha256(block).digest()
            self.counter += 1
        value, self._buffer = int.from_bytes(self._buffer[:8], "big"), self._buffer[8:]
        return value

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (rejection sampling: no modulo bias)."""
        if not 1 <= n < _WORD:
            raise ValueError(f"cannot draw below {n}")
        limit = _WORD - _WORD % n
        while True:
            value = self.word()
            if value < limit:
                return value % n


def fisher_yates(stream: Stream, cards: Sequence[str]) -> list[str]:
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


@dataclass(frozen=True)
class Draw:
    """One shuffle a command asked for: what it gave and the order it got."""

    cards: tuple[str, ...]
    order: tuple[str, ...]


@dataclass
class CommittedShuffle:
    """The `shuffle` a committed command is decided with; it keeps every draw for the log."""

    seed: bytes
    draws: list[Draw] = field(default_factory=list)
    _stream: Stream | None = None

    def __call__(self, cards: list[str]) -> list[str]:
        if self._stream is None:
            self._stream = Stream(self.seed)
        order = fisher_yates(self._stream, cards)
        self.draws.append(Draw(tuple(cards), tuple(order)))
        return order


def recomputed(seed: bytes, cards: Sequence[Sequence[str]]) -> list[list[str]]:
    """The orders the shuffles of `cards` (in turn, one stream) get from `seed`."""
    shuffle = CommittedShuffle(seed)
    return [shuffle(list(deck)) for deck in cards]
