"""`audit --conflict`: one conflict checked and explained with the campaign-wide decisions,
every other event only folded; what it finds in that conflict is what the whole audit finds
there (on SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from tablelog.commands import database
from tablelog.commands.audit import audit
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.importing import import_jsonl
from tablelog.commands.table import execute
from tablelog.events.chain import GENESIS, envelope_hash
from tablelog.events.codec import encode
from tablelog.events.envelope import Envelope
from tablelog.rulesets.improv import events as ev
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore, open_store


def fight(store: EventStore, key: str, gm_card: str, kit_card: str) -> None:
    for command in (
        c.OpenConflict(conflict=key),
        c.SetStake(conflict=key, side="Riso", gm=True, text="Riso gets away"),
        c.SetStake(conflict=key, side="Kit", opposes="Riso", text="Kit stops him"),
        c.PlayCard(conflict=key, side="Riso", card=gm_card),
        c.PlayCard(conflict=key, side="Kit", card=kit_card),
        c.Reveal(conflict=key),
        c.Close(conflict=key),
    ):
        execute(store, "heist", command)


@pytest.fixture
def edited(target: str, tmp_path: Path) -> Iterator[EventStore]:
    """Two fights, the first one's reveal edited (Kit's total) and the chain recomputed."""
    source = open_store(str(tmp_path / "source.db"), create=True)
    create_campaign(source, "heist", ruleset="improv")
    execute(source, "heist", c.CreateCharacter(player="Bob", character="Kit", talents=[]))
    execute(source, "heist", c.StartSession())
    fight(source, "c1", "5C", "9H")
    fight(source, "c2", "QC", "3D")
    chain: list[Envelope] = []
    for e in source.read("heist"):
        event = e.event()
        if isinstance(event, ev.RoundRevealed) and event.conflict == "c1":
            wrong = msgspec.structs.replace(event, totals=dict(event.totals, kit=10))
            e = msgspec.structs.replace(e, payload=encode(wrong))
        e = msgspec.structs.replace(e, prev_hash=chain[-1].hash if chain else GENESIS)
        chain.append(msgspec.structs.replace(e, hash=envelope_hash(e)))
    source.close()
    file = tmp_path / "edited.jsonl"
    file.write_bytes(b"".join(e.to_json_line() + b"\n" for e in chain))
    database.upgrade(target)
    store = open_store(target)
    import_jsonl(store, file)
    yield store
    store.close()


def found(store: EventStore, conflict: str | None) -> list[tuple[str | None, str, str]]:
    report = audit(store, "heist", conflict=conflict)
    return [(d.conflict, d.type, d.field) for d in report.discrepancies]


def test_the_edited_conflict_is_flagged_alone_and_in_the_whole_audit(edited: EventStore) -> None:
    edit = ("c1", "improv.round_revealed", "totals")
    assert found(edited, None) == [edit]
    assert found(edited, "c1") == [edit]


def test_another_conflict_audits_clean_and_explains_only_itself(edited: EventStore) -> None:
    assert found(edited, "c2") == []
    report = audit(edited, "heist", conflict="c2")
    assert [account.conflict for account in report.conflicts] == ["c2"]
    head = edited.head("heist")
    assert head is not None
    assert report.seq == head.seq  # folded to the end
