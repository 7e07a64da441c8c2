"""The hash chain's definition: every column but position counts, and the order is fixed."""

from __future__ import annotations

from typing import Any

import pytest

from tablelog.storage.chain import GENESIS, event_hash

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


def test_the_hash_is_stable() -> None:
    assert event_hash(**BASE) == event_hash(**dict(BASE))
    assert len(event_hash(**BASE)) == 32


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
