"""The canonical encoding, decoding by stored type, and upcasting of old payloads."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablelog.events import Event, UndecodableEvent, decode, encode, registered
from tablelog.events.core import CampaignCreated
from tablelog.events.upcasters import upcaster
from tests.support.events import Tick

option_values = st.one_of(st.booleans(), st.integers(-(2**53), 2**53), st.text(max_size=20))


@given(
    campaign=st.text(min_size=1, max_size=30),
    gm=st.text(min_size=1, max_size=20),
    options=st.dictionaries(st.text(max_size=15), option_values, max_size=8),
)
def test_events_round_trip_through_their_canonical_bytes(
    campaign: str, gm: str, options: dict[str, Any]
) -> None:
    event = CampaignCreated(campaign=campaign, ruleset="improv", gm=gm, options=options)
    payload = encode(event)
    assert decode("campaign.created", 1, payload) == event
    # The same event always encodes to the same bytes, whatever the dict's insertion order.
    reordered = CampaignCreated(
        campaign=campaign, ruleset="improv", gm=gm, options=dict(reversed(options.items()))
    )
    assert encode(reordered) == payload


def test_the_payload_carries_its_type_tag() -> None:
    assert msgspec.json.decode(encode(Tick(writer="w", seen=1)))["type"] == "test.tick"


def test_an_unknown_type_is_undecodable() -> None:
    with pytest.raises(UndecodableEvent, match="unknown event type"):
        decode("nobody.knows", 1, b"{}")


def test_a_payload_of_the_wrong_shape_is_undecodable() -> None:
    with pytest.raises(UndecodableEvent):
        decode("test.tick", 1, b'{"type":"test.tick","writer":3}')
    with pytest.raises(UndecodableEvent):
        decode("test.tick", 1, b"\xff not json")


def test_a_payload_tagged_as_another_type_is_undecodable() -> None:
    with pytest.raises(UndecodableEvent):
        decode(
            "test.tick", 1, encode(CampaignCreated(campaign="c", ruleset="r", gm="g", options={}))
        )


@registered
class Renamed(Event, frozen=True, tag="test.renamed"):
    """Version 2 renamed `who` to `player` and added `count` (old events count 1)."""

    schema_version = 2
    player: str
    count: int


@upcaster("test.renamed", 1)
def _renamed_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    payload["player"] = payload.pop("who")
    payload["count"] = 1
    return payload


def test_a_stored_version_1_payload_reads_as_the_current_version() -> None:
    stored_v1 = b'{"type":"test.renamed","who":"kit"}'
    assert decode("test.renamed", 1, stored_v1) == Renamed(player="kit", count=1)
    assert decode("test.renamed", 2, encode(Renamed(player="kit", count=4))) == Renamed(
        player="kit", count=4
    )


def test_a_payload_newer_than_this_tablelog_is_refused() -> None:
    with pytest.raises(UndecodableEvent, match="newer"):
        decode("test.renamed", 3, b'{"type":"test.renamed","player":"kit","count":1}')


def test_a_tag_cannot_be_registered_twice() -> None:
    with pytest.raises(ValueError, match="already registered"):

        @registered
        class Impostor(Event, frozen=True, tag="test.tick"):
            pass
