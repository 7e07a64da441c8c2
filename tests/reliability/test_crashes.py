"""Writers killed with SIGKILL at random moments, on SQLite and PostgreSQL: afterwards the log
verifies, every command the writer was told had committed is there at its seq, and nothing is
half-written. An import killed part way leaves its campaigns whole or absent, never part.

The moments are random but seeded: the same run every time, and a failure can be replayed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec

from tablelog.commands import database
from tablelog.commands.demo import write_demo
from tablelog.commands.transfer import export_jsonl
from tablelog.events.chain import envelope_hash
from tablelog.events.envelope import envelope_from_line
from tablelog.storage import open_store
from tablelog.storage.verify import verify_log
from tests.reliability.conftest import (
    ROOT,
    acknowledged,
    assert_whole,
    commander,
    narrations,
    table_in_play,
)

KILLS = 50
IMPORT_KILLS = 12
COPIES = 600
LONGEST_LIFE_S = 0.15  # after it says ready: dozens of commands at most


def killed(process: subprocess.Popen[str], after: float) -> str:
    """SIGKILL `process` `after` seconds from now; what it had printed by then."""
    time.sleep(after)
    os.kill(process.pid, signal.SIGKILL)
    out, _ = process.communicate(timeout=30)
    return out


def test_a_writer_killed_at_random_moments_loses_nothing_it_acknowledged(target: str) -> None:
    table_in_play(target)
    moments = random.Random(20261123)
    acked: dict[str, int] = {}
    store = open_store(target)
    try:
        for kill in range(KILLS):
            writer = commander(target, f"k{kill}", 100_000)  # it never gets to the end
            assert writer.stdout is not None
            first = writer.stdout.readline()
            assert first == "ready\n", (first, writer.stderr.read() if writer.stderr else "")
            out = killed(writer, moments.uniform(0, LONGEST_LIFE_S))
            assert writer.returncode == -signal.SIGKILL
            acked |= acknowledged(out)
            report = verify_log(store)  # after every kill, not only at the end
            assert report.ok, (kill, report.first_bad)
        assert len(acked) > KILLS  # the writers did get work done between the kills
        stored = narrations(assert_whole(store))
    finally:
        store.close()
    missing = {text: seq for text, seq in acked.items() if stored.get(text) != seq}
    assert missing == {}, f"acknowledged but not stored where acknowledged: {missing}"


def _export_of_many_campaigns(tmp_path: Path, copies: int) -> Path:
    """One JSON Lines file of `copies` campaigns (the demo's bar fight under other names)."""
    source = open_store(str(tmp_path / "source.db"), create=True)
    try:
        write_demo(source)
        lines = [line for line in export_jsonl(source, "bar-fight")]
    finally:
        source.close()
    envelopes = [envelope_from_line(line) for line in lines]
    out = bytearray()
    for n in range(copies):
        name, prev = f"fight-{n}", envelopes[0].prev_hash
        for e in envelopes:
            payload = e.payload
            if e.seq == 1:
                payload = payload.replace(
                    b'"campaign":"bar-fight"', f'"campaign":"{name}"'.encode()
                )
            e = msgspec.structs.replace(
                e, campaign=name, event_id=f"{name}-{e.seq}", payload=payload, prev_hash=prev
            )
            e = msgspec.structs.replace(e, hash=envelope_hash(e))
            prev = e.hash
            out += e.to_json_line() + b"\n"
    path = tmp_path / "many.jsonl"
    path.write_bytes(bytes(out))
    return path


def _emptied(target: str) -> None:
    """Every campaign removed, by hand: the next import starts from an empty database."""
    from sqlalchemy import create_engine, delete

    from tablelog.storage.engine import resolve_url
    from tablelog.storage.schema import access_tokens, campaigns, events, snapshots

    engine = create_engine(resolve_url(target))
    try:
        with engine.begin() as conn:
            for table in (events, snapshots, access_tokens, campaigns):
                conn.execute(delete(table))
    finally:
        engine.dispose()


def test_an_import_killed_part_way_leaves_all_or_nothing(target: str, tmp_path: Path) -> None:
    # 34,800 events, about 18 MB: checked in a worker process beside the importing one.
    file = _export_of_many_campaigns(tmp_path, copies=COPIES)
    database.upgrade(target)  # a server is migrated by hand; a new SQLite file by the import
    moments = random.Random(1123)
    cut_short = 0
    for _ in range(IMPORT_KILLS):
        importer = subprocess.Popen(
            [sys.executable, "-m", "tablelog", "--db", target, "import", str(file)],
            cwd=ROOT,
            env={k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        killed(importer, moments.uniform(0.25, 1.0))
        store = open_store(target)
        try:
            heads = store.campaigns()
            assert len(heads) in (0, COPIES)  # one transaction: every campaign, or none
            assert all(head.seq == 58 for head in heads)
            assert verify_log(store).ok
        finally:
            store.close()
        if heads:  # it finished before the kill
            _emptied(target)
        else:
            cut_short += 1
    assert cut_short > 0  # some kills did land part way
