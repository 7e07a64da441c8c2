"""Export to JSON Lines and import elsewhere, on SQLite and PostgreSQL: the campaign arrives
intact (same hashes, same state), and a damaged file is refused before anything is written."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest

from tablelog.commands import database
from tablelog.commands.demo import write_demo
from tablelog.commands.table import campaign_state
from tablelog.commands.transfer import export_jsonl, import_jsonl
from tablelog.errors import AlreadyExists, InvalidInput
from tablelog.events.envelope import Envelope, envelope_from_line
from tablelog.projections.views import state_view
from tablelog.storage import EventStore, open_store
from tablelog.storage.chain import envelope_hash
from tablelog.storage.verify import verify_log


@pytest.fixture
def source(tmp_path: Path) -> Iterator[EventStore]:
    store = open_store(str(tmp_path / "source.db"), create=True)
    write_demo(store)
    yield store
    store.close()


@pytest.fixture
def destination(target: str) -> Iterator[EventStore]:
    database.upgrade(target)
    store = open_store(target)
    yield store
    store.close()


def exported(store: EventStore, path: Path) -> Path:
    path.write_bytes(b"".join(line + b"\n" for line in export_jsonl(store, "bar-fight")))
    return path


def test_export_then_import_gives_the_same_log_and_state(
    source: EventStore, destination: EventStore, tmp_path: Path
) -> None:
    file = exported(source, tmp_path / "bar-fight.jsonl")
    [imported] = import_jsonl(destination, file)
    assert (imported.campaign, imported.events) == ("bar-fight", 58)
    assert destination.read("bar-fight") == source.read("bar-fight")
    assert verify_log(destination).ok
    assert state_view(campaign_state(destination, "bar-fight")) == state_view(
        campaign_state(source, "bar-fight")
    )


def test_each_line_holds_the_envelope_and_the_payload_as_stored(
    source: EventStore, tmp_path: Path
) -> None:
    lines = exported(source, tmp_path / "x.jsonl").read_bytes().splitlines()
    first = json.loads(lines[0])
    assert set(first) == {
        "campaign",
        "seq",
        "event_id",
        "type",
        "schema_version",
        "actor",
        "recorded_at",
        "prev_hash",
        "hash",
        "payload",
    }
    stored = source.read("bar-fight")[0].payload
    assert lines[0].endswith(b'"payload":' + stored + b"}")


def _rewrite(path: Path, number: int, old: bytes, new: bytes) -> None:
    lines = path.read_bytes().splitlines()
    assert old in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    path.write_bytes(b"\n".join(lines) + b"\n")


@pytest.mark.parametrize(
    ("number", "old", "new", "reason"),
    [
        (3, b'"display":"Kit"', b'"display":"Kat"', "line 3: seq 3: the hash does not match"),
        (5, b'"seq":5', b'"seq":6', "line 5: campaign bar-fight jumps to seq 6, expected 5"),
        (7, b'"prev_hash":"', b'"prev_hash":"00', "line 7: not an exported event"),
        (9, b'"payload":{"type"', b'"payload":{ "type"', "line 9: seq 9: the hash does not match"),
    ],
)
def test_a_damaged_export_is_refused_naming_the_line(
    source: EventStore,
    destination: EventStore,
    tmp_path: Path,
    number: int,
    old: bytes,
    new: bytes,
    reason: str,
) -> None:
    file = exported(source, tmp_path / "x.jsonl")
    _rewrite(file, number, old, new)
    with pytest.raises(InvalidInput) as caught:
        import_jsonl(destination, file)
    assert reason in caught.value.message
    assert destination.campaigns() == []


def test_a_missing_line_is_a_gap_in_the_sequence(
    source: EventStore, destination: EventStore, tmp_path: Path
) -> None:
    file = exported(source, tmp_path / "x.jsonl")
    lines = file.read_bytes().splitlines()
    file.write_bytes(b"\n".join(lines[:10] + lines[11:]) + b"\n")
    with pytest.raises(InvalidInput, match="line 11: campaign bar-fight jumps to seq 12"):
        import_jsonl(destination, file)
    assert destination.campaigns() == []


def test_an_existing_campaign_is_not_overwritten(source: EventStore, tmp_path: Path) -> None:
    file = exported(source, tmp_path / "x.jsonl")
    with pytest.raises(AlreadyExists, match="bar-fight already exist"):
        import_jsonl(source, file)
    assert len(source.read("bar-fight")) == 58


def _forged(path: Path, number: int, change: Callable[[Envelope], Envelope]) -> None:
    """Line `number` changed, and every hash from it on recomputed: a chain that checks out,
    holding an event the rules never wrote."""
    envelopes = [envelope_from_line(line) for line in path.read_bytes().splitlines()]
    prev = envelopes[number - 2].hash
    for i in range(number - 1, len(envelopes)):
        e = change(envelopes[i]) if i == number - 1 else envelopes[i]
        e = msgspec.structs.replace(e, prev_hash=prev)
        envelopes[i] = msgspec.structs.replace(e, hash=envelope_hash(e))
        prev = envelopes[i].hash
    path.write_bytes(b"".join(e.to_json_line() + b"\n" for e in envelopes))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda e: msgspec.structs.replace(
                e, payload=e.payload.replace(b'"display":"Susan"', b'"display":7')
            ),
            "line 4: seq 4: the payload cannot be read",
        ),
        (
            lambda e: msgspec.structs.replace(
                e, payload=e.payload.replace(b'"player":"susan"', b'"player":"susan","x":1')
            ),
            None,  # an unknown field is ignored, as a newer tablelog's additions would be
        ),
        (
            lambda e: msgspec.structs.replace(
                e,
                type="campaign.created",
                payload=b'{"type":"campaign.created","campaign":"bar-fight","ruleset":"improv",'
                b'"gm":"gm","options":{}}',
            ),
            "line 4: a campaign must begin with campaign.created, and only once",
        ),
    ],
)
def test_a_rehashed_export_is_still_checked_event_by_event(
    source: EventStore,
    destination: EventStore,
    tmp_path: Path,
    change: Callable[[Envelope], Envelope],
    reason: str | None,
) -> None:
    file = exported(source, tmp_path / "x.jsonl")
    _forged(file, 4, change)
    if reason is None:
        import_jsonl(destination, file)
        assert verify_log(destination).ok
        return
    with pytest.raises(InvalidInput) as caught:
        import_jsonl(destination, file)
    assert reason in caught.value.message
    assert destination.campaigns() == []
