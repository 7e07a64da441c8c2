"""The hash chain's definition: every column but position counts, and the order is fixed."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from tablelog.events.chain import GENESIS, event_hash

BASE: dict[str, Any] = {
    "prev_hash": GENESIS,
    "campaign": "probe",
    "seq": 1,
    "event_id": "00000000-0000-0000-0000-000000000001",
    "type": "campaign.created",
    "schema_version": 1,
    "actor": "gm",
    "recorded_at": 1_700_000_000_000_000,
    "payload": b'{"type":"campaign.created"}',
}


def test_the_hash_is_the_documented_formula() -> None:
    # Recomputed here from the README's definition with hashlib and json alone, so a change
    # to the chain's definition (which would orphan every stored log) cannot pass unnoticed.
    header = json.dumps(
        [
            BASE["campaign"],
            BASE["seq"],
            BASE["event_id"],
            BASE["type"],
            BASE["schema_version"],
            BASE["actor"],
            BASE["recorded_at"],
        ],
        separators=(",", ":"),
    ).encode()
    expected = hashlib.sha256(
        BASE["prev_hash"] + len(header).to_bytes(4, "big") + header + BASE["payload"]
    ).digest()
    assert event_hash(**BASE) == expected
    assert expected.hex() == KNOWN_ANSWER


KNOWN_ANSWER = "91a25554e8f9f473171bcf274b7ea75468879ba272f8fc52b03cf6032da2b275"


@pytest.mark.parametrize(
    ("column", "other"),
    [
        ("prev_hash", bytes([1]) * 32),
        ("campaign", "probe2"),
        ("seq", 2),
        ("event_id", "00000000-0000-0000-0000-000000000002"),
        ("type", "campaign.createe"),
        ("schema_version", 2),
        ("actor", "mara"),
        ("recorded_at", 1_700_000_000_000_001),
        ("payload", b'{"type":"campaign.createe"}'),
    ],
)
def test_every_column_changes_the_hash(column: str, other: Any) -> None:
    assert event_hash(**{**BASE, column: other}) != event_hash(**BASE)


def test_the_header_and_payload_boundary_is_unambiguous() -> None:
    # Moving characters between the actor and the payload must not collide.
    a = event_hash(**{**BASE, "actor": "gm", "payload": b"x"})
    b = event_hash(**{**BASE, "actor": "gmx", "payload": b""})
    assert a != b
