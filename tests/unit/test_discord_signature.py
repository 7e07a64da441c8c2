"""Only Discord's own requests are taken: Ed25519 over the timestamp and the raw body."""

from __future__ import annotations

import time

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tablelog.discord.signature import BadKey, public_key, refusal

BODY = b'{"type":1}'


def _pair() -> tuple[Ed25519PrivateKey, str]:
    key = Ed25519PrivateKey.generate()
    return key, key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def test_a_good_signature_passes_and_every_change_fails() -> None:
    key, hex_key = _pair()
    checker = public_key(hex_key)
    stamp = str(int(time.time()))
    sig = key.sign(stamp.encode() + BODY).hex()
    assert refusal(checker, sig, stamp, BODY) is None
    assert refusal(checker, sig, stamp, BODY + b" ") is not None
    assert refusal(checker, sig, str(int(stamp) + 1), BODY) is not None
    assert refusal(checker, "zz", stamp, BODY) is not None
    assert refusal(checker, None, stamp, BODY) == "the request carries no Discord signature"
    other, _ = _pair()
    assert refusal(checker, other.sign(stamp.encode() + BODY).hex(), stamp, BODY) is not None


def test_an_old_or_future_timestamp_is_refused_even_when_signed() -> None:
    key, hex_key = _pair()
    checker = public_key(hex_key)
    for offset in (-301, 301):
        stamp = str(int(time.time()) + offset)
        sig = key.sign(stamp.encode() + BODY).hex()
        why = refusal(checker, sig, stamp, BODY)
        assert why is not None
        assert "five minutes" in why


@pytest.mark.parametrize("bad", ["", "00", "zz" * 32, "ab" * 33])
def test_a_malformed_public_key_is_said_once(bad: str) -> None:
    with pytest.raises(BadKey, match="64 hexadecimal characters"):
        public_key(bad)
