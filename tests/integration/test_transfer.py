"""Export to JSON Lines and import elsewhere, on SQLite and PostgreSQL: the campaign arrives
intact (same hashes, same state), and a damaged file is refused with nothing written, whether
the file is checked in the importing process or in a worker process beside it."""

from __future__ import annotations

import gzip
import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest

from tablelog.commands import database
from tablelog.commands.demo import write_demo
from tablelog.commands.import_check import (
    BATCH,
    MAX_LINE,
    Loading,
    checked_batches,
    read_message,
    write_message,
)
from tablelog.commands.importing import import_jsonl
from tablelog.commands.table import campaign_state
from tablelog.commands.transfer import export_jsonl
from tablelog.errors import AlreadyExists, DuplicateEventId, InvalidInput
from tablelog.events.chain import envelope_hash
from tablelog.events.envelope import Envelope, envelope_from_line
from tablelog.projections.views import state_view
from tablelog.storage import EventStore, open_store
from tablelog.storage.verify import verify_log


@pytest.fixture
def source(tmp_path: Path) -> Iterator[EventStore]:
    store = open_store(str(tmp_path / "source.db"), create=True)
    write_demo(store)
    yield store
    store.close()


@pytest.fixture(params=[False, True], ids=["checked-here", "checked-in-worker"])
def worker(request: pytest.FixtureRequest) -> bool:
    value: bool = request.param
    return value


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
    source: EventStore, destination: EventStore, tmp_path: Path, worker: bool
) -> None:
    file = exported(source, tmp_path / "bar-fight.jsonl")
    [imported] = import_jsonl(destination, file, worker=worker)
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
    worker: bool,
) -> None:
    file = exported(source, tmp_path / "x.jsonl")
    _rewrite(file, number, old, new)
    with pytest.raises(InvalidInput) as caught:
        import_jsonl(destination, file, worker=worker)
    assert reason in caught.value.message
    assert destination.campaigns() == []


def test_a_missing_line_is_a_gap_in_the_sequence(
    source: EventStore, destination: EventStore, tmp_path: Path, worker: bool
) -> None:
    file = exported(source, tmp_path / "x.jsonl")
    lines = file.read_bytes().splitlines()
    file.write_bytes(b"\n".join(lines[:10] + lines[11:]) + b"\n")
    with pytest.raises(InvalidInput, match="line 11: campaign bar-fight jumps to seq 12"):
        import_jsonl(destination, file, worker=worker)
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
                e, payload=e.payload.replace(b'"display":"Richard"', b'"display":7')
            ),
            "line 4: seq 4: the payload cannot be read",
        ),
        (
            lambda e: msgspec.structs.replace(
                e, payload=e.payload.replace(b'"player":"richard"', b'"player":"richard","x":1')
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
    worker: bool,
) -> None:
    file = exported(source, tmp_path / "x.jsonl")
    _forged(file, 4, change)
    if reason is None:
        import_jsonl(destination, file, worker=worker)
        assert verify_log(destination).ok
        return
    with pytest.raises(InvalidInput) as caught:
        import_jsonl(destination, file, worker=worker)
    assert reason in caught.value.message
    assert destination.campaigns() == []


def _renamed(source: EventStore, name: str, ids: dict[int, str] | None = None) -> list[bytes]:
    """The demo campaign's lines as a campaign called `name` (its chain recomputed), its
    event ids `name-SEQ` unless `ids` gives one."""
    envelopes = source.read("bar-fight")
    prev = envelopes[0].prev_hash
    lines = []
    for e in envelopes:
        payload = e.payload
        if e.seq == 1:
            payload = payload.replace(b'"campaign":"bar-fight"', f'"campaign":"{name}"'.encode())
        event_id = (ids or {}).get(e.seq, f"{name}-{e.seq}")
        e = msgspec.structs.replace(
            e, campaign=name, event_id=event_id, payload=payload, prev_hash=prev
        )
        e = msgspec.structs.replace(e, hash=envelope_hash(e))
        prev = e.hash
        lines.append(e.to_json_line())
    return lines


def test_a_file_of_two_campaigns_interleaved_loads_both(
    source: EventStore, destination: EventStore, tmp_path: Path, worker: bool
) -> None:
    first, second = _renamed(source, "north"), _renamed(source, "south")
    mixed = [line for pair in zip(first, second, strict=True) for line in pair]
    file = tmp_path / "two.jsonl"
    file.write_bytes(b"\r\n".join(mixed) + b"\r\n\n")  # CRLF and a blank line are fine
    imported = import_jsonl(destination, file, worker=worker)
    assert sorted((i.campaign, i.events) for i in imported) == [("north", 58), ("south", 58)]
    assert [e.payload for e in destination.read("north")][1:] == [
        e.payload for e in destination.read("south")
    ][1:]
    assert verify_log(destination).ok


def test_a_bad_line_in_the_second_campaign_leaves_the_first_unwritten(
    source: EventStore, destination: EventStore, tmp_path: Path, worker: bool
) -> None:
    second = _renamed(source, "south")
    second[30] = second[30].replace(b'"actor":"', b'"actor":"x', 1)
    file = tmp_path / "two.jsonl"
    file.write_bytes(b"\n".join(_renamed(source, "north") + second) + b"\n")
    with pytest.raises(InvalidInput, match="line 89: seq 31: the hash does not match"):
        import_jsonl(destination, file, worker=worker)
    assert destination.campaigns() == []


def test_an_event_id_already_stored_refuses_the_file(
    source: EventStore, destination: EventStore, tmp_path: Path, worker: bool
) -> None:
    import_jsonl(destination, exported(source, tmp_path / "x.jsonl"))
    clash = destination.read("bar-fight")[6].event_id
    file = tmp_path / "same-id.jsonl"
    file.write_bytes(b"\n".join(_renamed(source, "south", ids={7: clash})) + b"\n")
    with pytest.raises(DuplicateEventId, match="nothing was imported"):
        import_jsonl(destination, file, worker=worker)
    assert [c.name for c in destination.campaigns()] == ["bar-fight"]


def test_a_line_longer_than_the_limit_is_refused_without_reading_it_all(
    destination: EventStore, tmp_path: Path, worker: bool
) -> None:
    file = tmp_path / "endless.jsonl"
    file.write_bytes(b'{"campaign":"' + b"x" * (3 * MAX_LINE))  # and no newline, ever
    with pytest.raises(InvalidInput, match=f"line 1: the line is longer than {MAX_LINE} bytes"):
        import_jsonl(destination, file, worker=worker)
    assert destination.campaigns() == []


@pytest.mark.parametrize(
    "script",
    [
        "exit 3",  # starts, and dies before a word
        # Sends part of its answer, then stops in the middle of a message.
        'exec "$REAL_PYTHON" "$@" | head -c 3000',
        "exec /no/such/python",  # cannot run at all
    ],
    ids=["dies-at-once", "dies-midway", "cannot-run"],
)
def test_a_worker_that_fails_leaves_the_check_to_the_importer(
    source: EventStore,
    destination: EventStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    script: str,
) -> None:
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\n{script}\n")
    fake.chmod(0o755)
    monkeypatch.setenv("REAL_PYTHON", sys.executable)
    monkeypatch.setattr(sys, "executable", str(fake))
    [imported] = import_jsonl(destination, exported(source, tmp_path / "x.jsonl"), worker=True)
    assert imported.events == 58
    assert destination.read("bar-fight") == source.read("bar-fight")  # each event once
    assert verify_log(destination).ok


def test_a_worker_that_cannot_start_leaves_the_check_to_the_importer(
    source: EventStore, destination: EventStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    [imported] = import_jsonl(destination, exported(source, tmp_path / "x.jsonl"), worker=True)
    assert imported.events == 58


def test_a_worker_lost_after_a_batch_was_written_leaves_each_event_once(
    source: EventStore, destination: EventStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"c{i}" for i in range(BATCH // 58 + 2)]  # more than one batch of rows
    file = tmp_path / "many.jsonl"
    file.write_bytes(b"".join(line + b"\n" for n in names for line in _renamed(source, n)))
    with file.open("rb") as handle:
        first = next(checked_batches(handle))
    assert len(first.rows) == BATCH
    cut = 4 + len(msgspec.msgpack.encode(first)) + 100  # in the middle of the second batch
    fake = tmp_path / "python"
    fake.write_text(f'#!/bin/sh\nexec "$REAL_PYTHON" "$@" | head -c {cut}\n')
    fake.chmod(0o755)
    monkeypatch.setenv("REAL_PYTHON", sys.executable)
    monkeypatch.setattr(sys, "executable", str(fake))
    imported = import_jsonl(destination, file, worker=True)
    assert sorted(i.campaign for i in imported) == sorted(names)
    assert {head.name: head.seq for head in destination.campaigns()} == dict.fromkeys(names, 58)
    assert verify_log(destination).ok


def _unsalted(e: Envelope) -> Envelope:
    return msgspec.structs.replace(
        e, payload=re.sub(rb'"salt":"[0-9a-f]*"', b'"salt":""', e.payload)
    )


def test_a_hidden_event_without_salt_is_refused(
    source: EventStore, destination: EventStore, tmp_path: Path, worker: bool
) -> None:
    """A face-down card without salt falls to 54 tries against its hash: whatever its chain
    (here recomputed), an import refuses it, naming the line, and writes nothing."""
    file = exported(source, tmp_path / "x.jsonl")
    lines = file.read_bytes().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if b'"improv.card_played"' in line)
    _forged(file, number, _unsalted)
    with pytest.raises(InvalidInput) as caught:
        import_jsonl(destination, file, worker=worker)
    assert f"line {number}: seq {number}: improv.card_played hides card" in caught.value.message
    assert "no salt" in caught.value.message
    assert destination.campaigns() == []


def test_a_log_written_before_salts_is_refused(tmp_path: Path) -> None:
    """The bar fight as the tablelog of revision 0001 wrote it (before salts) still reads and
    verifies where it is, but its export is not imported."""
    old = tmp_path / "old.db"
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "revision-0001.db.gz"
    old.write_bytes(gzip.decompress(fixture.read_bytes()))
    store = open_store(str(old))
    try:
        assert verify_log(store).ok
        file = exported(store, tmp_path / "old.jsonl")
    finally:
        store.close()
    fresh = open_store(str(tmp_path / "new.db"), create=True)
    try:
        with pytest.raises(InvalidInput, match=r"improv\.card_played hides card .* no salt"):
            import_jsonl(fresh, file, worker=False)
        assert fresh.campaigns() == []
    finally:
        fresh.close()


def test_the_rows_written_carry_their_bytes_as_bytearrays(
    source: EventStore, tmp_path: Path
) -> None:
    # sqlite3 binds a bytearray at once and first offers bytes to its adapters (a quarter of
    # an import's insert): rows reach the load so, from a worker's message or checked here.
    file = exported(source, tmp_path / "x.jsonl")
    with file.open("rb") as handle:
        [batch] = list(checked_batches(handle))
    buffer = io.BytesIO()
    write_message(buffer, batch)
    buffer.seek(0)
    for loading in (read_message(buffer), Loading.of(batch)):
        assert isinstance(loading, Loading)
        assert [row[:7] for row in loading.rows] == [row[:7] for row in batch.rows]
        for row, stored in zip(loading.rows, batch.rows, strict=True):
            assert all(type(value) is bytearray for value in row[7:])
            assert [bytes(value) for value in row[7:]] == list(stored[7:])
        assert loading.ends == batch.ends
