"""Random single tamperings of a stored log, on SQLite (240 of them) and PostgreSQL (60):
`verify` finds every one that changes history and names its first bad seq. The one it cannot
see alone, a tail rewritten with every hash recomputed (the head moved to match), is caught
against a head exported before it (`verify --head SEQ:HASH`).

Each tampering is drawn from a seeded generator: the same 300 every run, and a failure names
the one to replay. Kinds: a payload byte changed; a seq changed; a row deleted; two rows'
contents swapped; a row forged with its own hash recomputed but not the chain after it; a
tail rewritten with recomputed hashes.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import Connection, create_engine, select, text, update

from tablelog.commands import database
from tablelog.commands.demo import write_demo
from tablelog.commands.importing import import_jsonl
from tablelog.commands.transfer import export_jsonl
from tablelog.events.chain import chained_hash
from tablelog.storage import open_store
from tablelog.storage.engine import resolve_url
from tablelog.storage.schema import campaigns, events
from tablelog.storage.verify import verify_log

SQLITE_CASES, PG_CASES = 240, 60
CAMPAIGNS = ("bar-fight", "night")  # the demo, and a copy of it under another name
EVENTS = 58
HEADER = ("campaign_id", "seq", "event_id", "type", "schema_version", "actor", "recorded_at")
KINDS = ("byte", "seq", "delete", "swap", "forge", "tail")


@dataclass(frozen=True)
class Tampering:
    kind: str
    campaign: str
    seq: int  # the row changed (the first of two, for a swap)
    other: int = 0  # the second row of a swap
    position: int = 0  # the payload byte changed
    expected: int | None = None  # the first bad seq verify must name; None: it cannot see it

    def __str__(self) -> str:
        return (
            f"{self.kind} at {self.campaign}:{self.seq} (other {self.other}, byte {self.position})"
        )


def drawn(rng: random.Random) -> Tampering:
    kind, campaign = rng.choice(KINDS), rng.choice(CAMPAIGNS)
    seq = rng.randint(1, EVENTS)
    if kind == "swap":
        seq, other = sorted(rng.sample(range(1, EVENTS + 1), 2))
        return Tampering(kind, campaign, seq, other=other, expected=seq)
    if kind == "byte":
        return Tampering(kind, campaign, seq, position=rng.randrange(10_000), expected=seq)
    if kind == "forge":  # its own hash is right; the next row's prev_hash (or the head) is not
        return Tampering(kind, campaign, seq, expected=seq + 1 if seq < EVENTS else seq)
    if kind == "tail":
        return Tampering(kind, campaign, seq, expected=None)
    return Tampering(kind, campaign, seq, expected=seq)


def row(conn: Connection, campaign: str, seq: int) -> dict[str, object]:
    found = conn.execute(
        select(events).where(events.c.campaign_id == campaign, events.c.seq == seq)
    ).one()
    return dict(found._mapping)


def at(campaign: str, seq: int) -> object:
    return (events.c.campaign_id == campaign) & (events.c.seq == seq)


def own_hash(values: dict[str, object], prev: bytes) -> bytes:
    header = tuple(
        values[c]
        for c in (
            "campaign_id",
            "seq",
            "event_id",
            "type",
            "schema_version",
            "actor",
            "recorded_at",
        )
    )
    payload = values["payload"]
    assert isinstance(payload, bytes)
    return chained_hash(prev, header, payload)


def tamper(conn: Connection, t: Tampering) -> None:
    """Apply `t` to the stored log, as someone with the database in hand would."""
    where = at(t.campaign, t.seq)
    if t.kind == "byte":
        payload = row(conn, t.campaign, t.seq)["payload"]
        assert isinstance(payload, bytes)
        i = t.position % len(payload)
        changed = payload[:i] + bytes([payload[i] ^ 0x01]) + payload[i + 1 :]
        conn.execute(update(events).where(where).values(payload=changed))
    elif t.kind == "seq":
        conn.execute(update(events).where(where).values(seq=10_000 + t.seq))
    elif t.kind == "delete":
        conn.execute(events.delete().where(where))
    elif t.kind == "swap":  # each row takes the other's place in the sequence
        conn.execute(update(events).where(where).values(seq=-1))  # out of the unique key's way
        conn.execute(update(events).where(at(t.campaign, t.other)).values(seq=t.seq))
        conn.execute(update(events).where(at(t.campaign, -1)).values(seq=t.other))
    elif t.kind == "forge":
        values = row(conn, t.campaign, t.seq) | {"actor": "mallory"}
        prev = values["prev_hash"]
        assert isinstance(prev, bytes)
        conn.execute(
            update(events).where(where).values(actor="mallory", hash=own_hash(values, prev))
        )
    elif t.kind == "tail":
        values = row(conn, t.campaign, t.seq)
        prev = values["prev_hash"]
        assert isinstance(prev, bytes)
        for seq in range(t.seq, EVENTS + 1):
            values = row(conn, t.campaign, seq)
            if seq == t.seq:
                values["actor"] = "mallory"
            digest = own_hash(values, prev)
            conn.execute(
                update(events)
                .where(at(t.campaign, seq))
                .values(actor=values["actor"], prev_hash=prev, hash=digest)
            )
            prev = digest
        conn.execute(update(campaigns).where(campaigns.c.name == t.campaign).values(head_hash=prev))


def check(target: str, t: Tampering, heads: dict[str, bytes]) -> str | None:
    """What is wrong with verify's verdict on the tampered log at `target`, if anything."""
    store = open_store(target, check_schema=False)
    try:
        report = verify_log(store)
        if t.expected is None:  # invisible to the chain alone; not to an exported head
            if not report.ok:
                return f"{t}: a consistent rewrite was reported as {report.first_bad}"
            against = verify_log(store, head=(EVENTS, heads[t.campaign]), campaign=t.campaign)
            if against.ok:
                return f"{t}: the exported head was not missed"
            return None
        bad = report.first_bad
        if bad is None:
            return f"{t}: not detected"
        if (bad.campaign, bad.seq) != (t.campaign, t.expected):
            return f"{t}: named {bad.campaign}:{bad.seq} ({bad.reason}), not seq {t.expected}"
        return None
    finally:
        store.close()


def pristine_log(target: str, tmp_path: Path) -> dict[str, bytes]:
    """Both campaigns written into `target`; the head hash of each, as exported."""
    database.upgrade(target)
    store = open_store(target)
    try:
        write_demo(store)
        copy = tmp_path / "night.jsonl"
        lines = list(export_jsonl(store, "bar-fight"))
        copy.write_bytes(b"".join(renamed(lines, "night")))
        import_jsonl(store, copy)
        heads = {name: store.head(name).hash for name in CAMPAIGNS}  # type: ignore[union-attr]
    finally:
        store.close()
    return heads


def renamed(lines: list[bytes], name: str) -> Iterator[bytes]:
    import msgspec

    from tablelog.events.chain import envelope_hash
    from tablelog.events.envelope import envelope_from_line

    prev = bytes(32)
    for line in lines:
        e = envelope_from_line(line)
        payload = e.payload.replace(b'"campaign":"bar-fight"', f'"campaign":"{name}"'.encode())
        e = msgspec.structs.replace(
            e, campaign=name, event_id=f"{name}-{e.seq}", payload=payload, prev_hash=prev
        )
        e = msgspec.structs.replace(e, hash=envelope_hash(e))
        prev = e.hash
        yield e.to_json_line() + b"\n"


def run_cases(count: int, seed: int, restore: Callable[[], str], heads: dict[str, bytes]) -> None:
    rng = random.Random(seed)
    problems, kinds = [], set()
    for _ in range(count):
        t = drawn(rng)
        kinds.add(t.kind)
        target = restore()
        engine = create_engine(resolve_url(target))
        try:
            with engine.begin() as conn:
                tamper(conn, t)
        finally:
            engine.dispose()
        problem = check(target, t, heads)
        if problem is not None:
            problems.append(problem)
    assert kinds == set(KINDS)
    assert problems == [], f"{len(problems)} of {count}:\n" + "\n".join(problems[:20])


def test_every_tampering_of_a_sqlite_log_is_found(tmp_path: Path) -> None:
    template = tmp_path / "pristine.db"
    heads = pristine_log(str(template), tmp_path)
    work = tmp_path / "tampered.db"

    def restore() -> str:
        for suffix in ("-wal", "-shm"):
            Path(f"{work}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(template, work)
        return str(work)

    run_cases(SQLITE_CASES, seed=240, restore=restore, heads=heads)


@pytest.mark.postgresql
def test_every_tampering_of_a_postgresql_log_is_found(pg_target: str, tmp_path: Path) -> None:
    heads = pristine_log(pg_target, tmp_path)
    engine = create_engine(resolve_url(pg_target))
    with engine.begin() as conn:  # the pristine rows, kept aside in the same schema
        conn.execute(text("CREATE TABLE pristine_events AS SELECT * FROM events"))
        conn.execute(text("CREATE TABLE pristine_campaigns AS SELECT * FROM campaigns"))

    def restore() -> str:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM events"))
            conn.execute(
                text(
                    "UPDATE campaigns c SET head_hash = p.head_hash "
                    "FROM pristine_campaigns p WHERE p.name = c.name"
                )
            )
            conn.execute(text("INSERT INTO events SELECT * FROM pristine_events"))
        return pg_target

    try:
        run_cases(PG_CASES, seed=60, restore=restore, heads=heads)
    finally:
        engine.dispose()
