"""What the reliability tests share: a campaign with a table in play, and the checks that a
log is whole (every command once, seq gapless, the chain intact, the state the replay's)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

from tablelog.commands import database
from tablelog.commands.table import campaign_state
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import fold
from tablelog.projections.views import state_view
from tablelog.rulesets.improv import events as ev
from tablelog.storage import EventStore, open_store
from tablelog.storage.verify import verify_log
from tests.support import tables

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = "heist"


def table_in_play(target: str) -> str:
    """The table of tests/support/tables.py in a migrated `target`; the GM's access token."""
    database.upgrade(target)
    store = open_store(target)
    try:
        return tables.table_in_play(store, CAMPAIGN)
    finally:
        store.close()


def commander(target: str, writer: str, count: int) -> subprocess.Popen[str]:
    """A process narrating `count` times through the command layer (tests/support)."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.commander", target, CAMPAIGN, writer, str(count)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def acknowledged(output: str) -> dict[str, int]:
    """The narrations a commander said were committed, with the seq of each."""
    found = {}
    for line in output.splitlines():
        if line.startswith("acked "):
            _, text, seq = line.split()
            found[text] = int(seq)
    return found


def narrations(envelopes: list[Envelope]) -> dict[str, int]:
    """Each narration's text and seq; every text must appear once."""
    texts = [(e.event(), e.seq) for e in envelopes if e.type == ev.Narrated.type_name()]
    counted = Counter(event.text for event, _ in texts)  # type: ignore[attr-defined]
    repeated = [text for text, n in counted.items() if n > 1]
    assert repeated == [], f"narrations stored more than once: {repeated[:5]}"
    return {event.text: seq for event, seq in texts}  # type: ignore[attr-defined]


def assert_whole(store: EventStore) -> list[Envelope]:
    """Seq gapless from 1, the chain intact, and the state this process builds (from a
    snapshot and the events after it) the same as a fold of the whole log."""
    envelopes = store.read(CAMPAIGN)
    assert [e.seq for e in envelopes] == list(range(1, len(envelopes) + 1))
    report = verify_log(store)
    assert report.ok, report.first_bad
    assert state_view(campaign_state(store, CAMPAIGN)) == state_view(fold(envelopes))
    return envelopes
