"""What-if: a campaign's log cut after a seq, copied into a scratch store, played on from there.

The scratch copy is an in-memory database holding the same events byte for byte (so the same
hashes); the commands of a what-if file run against it exactly as against the real log, and
the real log is only ever read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.log import MAX_SEQ
from tablelog.commands.table import execute
from tablelog.commands.transfer import copy_campaign
from tablelog.errors import Forbidden, InvalidInput, TablelogError
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import fold
from tablelog.projections.registry import describe, views_for
from tablelog.projections.views import state_view
from tablelog.rules.common import Command
from tablelog.storage import EventStore
from tablelog.storage.scratch import scratch_store


class Difference(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How one conflict's outcome differs: [winner, loser] pairs, really and in the what-if,
    and the sentences of its `outcome` when its ruleset gives one (amounts, types)."""

    conflict: str
    real: list[list[str]]
    whatif: list[list[str]]
    real_status: str | None
    whatif_status: str | None
    real_outcome: list[str] = []
    whatif_outcome: list[str] = []


def scratch_copy(store: EventStore, campaign: str, at: int) -> EventStore:
    """A scratch store holding `campaign`'s events up to seq `at`, and nothing else."""
    head = store.head(campaign)
    last = head.seq if head is not None else 0
    if not 1 <= at <= min(last, MAX_SEQ):
        raise InvalidInput(
            f"--at must be a seq of campaign {campaign}, from 1 to {last}; got {at}",
            code="bad-seq",
        )
    envelopes = store.read(campaign, upto_seq=at)
    scratch = scratch_store()
    try:
        copy_campaign(scratch, envelopes)
    except BaseException:
        scratch.close()
        raise
    return scratch


def state_of(store: EventStore, campaign: str) -> dict[str, Any]:
    with state.reading(store, campaign) as folded:
        return state_view(folded)


def differences(real: dict[str, Any], whatif: dict[str, Any]) -> list[Difference]:
    """Conflicts whose outcome (or existence) differs between two `state --json` views."""
    real_conflicts: dict[str, Any] = real.get("conflicts", {})
    whatif_conflicts: dict[str, Any] = whatif.get("conflicts", {})
    found: list[Difference] = []
    for key in [*real_conflicts, *(k for k in whatif_conflicts if k not in real_conflicts)]:
        mine, theirs = real_conflicts.get(key, {}), whatif_conflicts.get(key, {})
        compared = ("beats", "status", "outcome")
        if all(mine.get(part) == theirs.get(part) for part in compared):
            continue
        found.append(
            Difference(
                conflict=key,
                real=mine.get("beats", []),
                whatif=theirs.get("beats", []),
                real_status=mine.get("status"),
                whatif_status=theirs.get("status"),
                real_outcome=mine.get("outcome", []),
                whatif_outcome=theirs.get("outcome", []),
            )
        )
    return found


class PlayedEvent(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    text: str


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """One what-if command's events, as words (what the CLI prints after running it)."""

    events: list[PlayedEvent]


class WhatIfResult(msgspec.Struct, frozen=True, kw_only=True):
    state: dict[str, Any]
    differences: list[Difference]
    played: list[Played]


def play_whatif(
    store: EventStore, campaign: str, at: int, commands: list[Command], caller: Caller
) -> WhatIfResult:
    """Typed commands on a scratch copy cut after `at`; the state and outcomes as the caller
    may see them. Nothing is written.

    The cut must hide nothing from the caller (no face-down card but its own, no managed
    deck): from there, no command can show it anything it may not see, so the caller may
    imagine every side's moves (the GM the players', a player the others')."""
    if caller.role == "observer":
        raise Forbidden(f"{caller.player} is an observer and may only read", code="observer")
    with state.reading(store, campaign) as folded:
        real = state_view(folded, caller.viewer)
    scratch = scratch_copy(store, campaign, at)
    cut = fold(scratch.read(campaign))
    hidden = views_for(cut.ruleset.name).hides(cut.state, caller.viewer)
    if hidden is not None:
        scratch.close()
        raise Forbidden(
            f"a what-if through the service starts where nothing is hidden from you; at seq "
            f"{at} {hidden} (choose another --at, or run it on a database of your own)",
            code="whatif-hidden",
        )
    written_by: list[Sequence[Envelope]] = []
    try:
        for number, command in enumerate(commands, start=1):
            try:
                written = execute(scratch, campaign, command)
            except TablelogError as exc:
                raise InvalidInput(
                    f"command {number} ({type(command).__name__}) was refused: {exc}; the real "
                    "log is unchanged",
                    code="whatif-refused",
                ) from None
            written_by.append(written)
        folded = fold(scratch.read(campaign))
        imagined = state_view(folded, caller.viewer)
    finally:
        scratch.close()
    played = [
        Played(
            events=[PlayedEvent(seq=e.seq, text=describe(e.event(), folded.state)) for e in written]
        )
        for written in written_by
    ]
    return WhatIfResult(state=imagined, differences=differences(real, imagined), played=played)
