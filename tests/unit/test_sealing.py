"""The sealed-play commitment (rules/sealing.py): the README's test vector, and that every
field it binds changes it."""

from __future__ import annotations

import hashlib

import pytest

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.rules import sealing

SALT = bytes(range(32))
VECTOR = "763d87ddb65a517cd39b3c7a3129ed5711609de6580d24bc76f8baff03b3f453"
FIELDS = ("bar-fight", "c1", 1, "kit", "AH", SALT)


def test_the_readme_vector() -> None:
    assert sealing.commitment(*FIELDS).hex() == VECTOR
    # Spelled out: the tag, then each field as a 4-byte big-endian length and its bytes.
    parts = [b"bar-fight", b"c1", b"1", b"kit", b"AH", SALT]
    encoded = b"tablelog-sealed-play-v1\x00" + b"".join(
        len(p).to_bytes(4, "big") + p for p in parts
    )
    assert hashlib.sha256(encoded).hexdigest() == VECTOR


@pytest.mark.parametrize(
    "changed",
    [
        ("bar-fighT", "c1", 1, "kit", "AH", SALT),
        ("bar-fight", "c2", 1, "kit", "AH", SALT),
        ("bar-fight", "c1", 2, "kit", "AH", SALT),
        ("bar-fight", "c1", 1, "riso", "AH", SALT),
        ("bar-fight", "c1", 1, "kit", "AD", SALT),
        ("bar-fight", "c1", 1, "kit", "AH", bytes([1]) + SALT[1:]),
        # Lengths are bound too: moving a byte from one field to the next changes it.
        ("bar-fight", "c", 1, "1kit", "AH", SALT),
    ],
)
def test_every_bound_field_changes_it(changed: tuple[str, str, int, str, str, bytes]) -> None:
    assert sealing.commitment(*changed).hex() != VECTOR
    with pytest.raises(RuleViolation, match="does not match its commitment"):
        sealing.check_opening(VECTOR, *changed[:5], changed[5])


def test_malformed_hex_is_one_sentence() -> None:
    with pytest.raises(InvalidInput, match="64 hex digits"):
        sealing.parse_salt("00" * 31)
    with pytest.raises(InvalidInput, match="64 hex digits"):
        sealing.parse_commitment("xyz")
