"""`tablelog verify --checkpoint FILE`: does the log still extend every checkpoint kept?

A log extends a checkpoint when its chain is intact (what plain `verify` checks) and the
event at the checkpoint's seq has the checkpoint's hash; the checkpoint itself counts only if
its signature holds (for the key given, or else the key it names). The log is the database,
or a JSON Lines export read with the same check an import runs (`checked_batches`).
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from tablelog.commands.checkpoints import Checkpoint
from tablelog.commands.import_check import checked_batches
from tablelog.errors import InvalidInput, NotFound
from tablelog.storage import EventStore
from tablelog.storage.verify import Break, verify_log


class CheckpointReport(msgspec.Struct, frozen=True, kw_only=True):
    ok: bool
    campaigns: int
    events: int
    checkpoints: int
    first_bad: Break | None


class LogView:
    """The chain hashes the checkpoints ask about, and how much of the log was checked."""

    def __init__(self) -> None:
        self.campaigns = 0
        self.events = 0
        self.ends: dict[str, int] = {}  # campaign -> its last seq
        self.hashes: dict[tuple[str, int], bytes] = {}


def verify_checkpoints(
    checkpoints: list[tuple[int, Checkpoint]],
    source: str,
    *,
    store: EventStore | None = None,
    export: Path | None = None,
    key: bytes | None = None,
) -> CheckpointReport:
    """Check `checkpoints` (with their line numbers in `source`) against the log of `store`,
    or of the export file `export`; the first that fails is named."""
    wanted = {(c.campaign, c.seq) for _, c in checkpoints}
    try:
        log = _from_export(export, wanted) if export is not None else _from_store(store, wanted)
    except _Broken as broken:
        return CheckpointReport(
            ok=False, campaigns=0, events=0, checkpoints=0, first_bad=broken.found
        )
    return check_against(checkpoints, source, log, key)


def check_against(
    checkpoints: list[tuple[int, Checkpoint]], source: str, log: LogView, key: bytes | None
) -> CheckpointReport:
    """Check `checkpoints` against what is known of a log (`log`: its hashes at their seqs,
    its ends): the first that fails is named."""
    for index, (number, checkpoint) in enumerate(checkpoints):
        reason = _fails(checkpoint, log, key)
        if reason is not None:
            bad = Break(
                campaign=checkpoint.campaign,
                seq=checkpoint.seq,
                reason=f"the checkpoint on line {number} of {source}: {reason}",
            )
            return CheckpointReport(
                ok=False,
                campaigns=log.campaigns,
                events=log.events,
                checkpoints=index,
                first_bad=bad,
            )
    return CheckpointReport(
        ok=True,
        campaigns=log.campaigns,
        events=log.events,
        checkpoints=len(checkpoints),
        first_bad=None,
    )


def _fails(checkpoint: Checkpoint, log: LogView, key: bytes | None) -> str | None:
    """Why the log does not extend `checkpoint`, or None when it does."""
    if key is not None and checkpoint.key != key.hex():
        return f"it is signed by the key {checkpoint.key}, not by the key given ({key.hex()})"
    if not checkpoint.holds():
        return "its signature does not hold: it is not what the service signed"
    end = log.ends.get(checkpoint.campaign)
    if end is None:
        return f"the log holds no campaign {checkpoint.campaign}"
    found = log.hashes.get((checkpoint.campaign, checkpoint.seq))
    if found is None:
        return f"the log ends at seq {end}, before the checkpoint's seq {checkpoint.seq}"
    if found.hex() != checkpoint.hash:
        return (
            f"the event at seq {checkpoint.seq} has the hash {found.hex()}, the checkpoint "
            f"{checkpoint.hash}: the history up to there was rewritten"
        )
    return None


class _Broken(Exception):
    def __init__(self, found: Break) -> None:
        self.found = found


def _from_store(store: EventStore | None, wanted: set[tuple[str, int]]) -> LogView:
    assert store is not None
    log = LogView()
    for campaign in sorted({name for name, _ in wanted}):
        try:
            report = verify_log(store, campaign=campaign)
        except NotFound:
            continue  # named by the first checkpoint of that campaign
        if report.first_bad is not None:
            raise _Broken(report.first_bad)
        log.campaigns += report.campaigns
        log.events += report.events
        head = store.head(campaign)
        log.ends[campaign] = 0 if head is None else head.seq
    for campaign, seq in wanted:
        if campaign in log.ends and seq <= log.ends[campaign]:
            for envelope in store.read(campaign, after_seq=seq - 1, upto_seq=seq):
                log.hashes[campaign, seq] = envelope.hash
    return log


def _from_export(path: Path, wanted: set[tuple[str, int]]) -> LogView:
    log = LogView()
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}", code="bad-export") from None
    with handle:
        try:
            for batch in checked_batches(handle):
                log.campaigns += len(batch.begun)
                log.events += len(batch.rows)
                for row in batch.rows:
                    if (row[0], row[1]) in wanted:
                        log.hashes[row[0], row[1]] = row[9]
                if batch.ends is not None:
                    log.ends = {name: seq for name, (seq, _) in batch.ends.items()}
        except InvalidInput as exc:
            raise _Broken(Break(campaign=None, seq=None, reason=f"{path}: {exc.message}")) from None
    return log
