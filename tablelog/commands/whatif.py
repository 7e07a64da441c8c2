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


class Compared(msgspec.Struct, frozen=True, kw_only=True):
    """Two views' conflicts, compared: `differences`, whose outcomes differ (who beat whom,
    or the `outcome` sentences); `progress`, whose outcomes agree as far as both went but
    one went further (its status differs, or one side has more of the same beats and
    sentences while the other is still open or absent: a what-if that stopped earlier, or
    played on)."""

    differences: list[Difference]
    progress: list[Difference]


def compared(real: dict[str, Any], whatif: dict[str, Any]) -> Compared:
    """Conflicts that differ between two `state --json` views, outcomes and progress apart."""
    real_conflicts: dict[str, Any] = real.get("conflicts", {})
    whatif_conflicts: dict[str, Any] = whatif.get("conflicts", {})
    outcomes: list[Difference] = []
    progress: list[Difference] = []
    for key in [*real_conflicts, *(k for k in whatif_conflicts if k not in real_conflicts)]:
        mine, theirs = real_conflicts.get(key, {}), whatif_conflicts.get(key, {})
        parts = ("beats", "status", "outcome")
        if all(mine.get(part) == theirs.get(part) for part in parts):
            continue
        found = Difference(
            conflict=key,
            real=mine.get("beats", []),
            whatif=theirs.get("beats", []),
            real_status=mine.get("status"),
            whatif_status=theirs.get("status"),
            real_outcome=mine.get("outcome", []),
            whatif_outcome=theirs.get("outcome", []),
        )
        (progress if _goes_further(mine, theirs) else outcomes).append(found)
    return Compared(differences=outcomes, progress=progress)


def differences(real: dict[str, Any], whatif: dict[str, Any]) -> list[Difference]:
    """Conflicts whose outcome differs between two `state --json` views (`compared`)."""
    return compared(real, whatif).differences


def _goes_further(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether the two agree as far as both went: the same beats and sentences, or one side
    unfinished (open, or absent) with a beginning of the other's."""
    if all(one.get(part) == other.get(part) for part in ("beats", "outcome")):
        return True
    return _prefix_of(one, other) or _prefix_of(other, one)


def _prefix_of(short: dict[str, Any], long: dict[str, Any]) -> bool:
    """`short` is unfinished (open or absent) and holds a beginning of `long`'s beats and
    outcome sentences: nothing it decided differs, it decided less."""
    if short.get("status") not in (None, "open"):
        return False
    for part in ("beats", "outcome"):
        mine, theirs = short.get(part) or [], long.get(part) or []
        if mine != theirs[: len(mine)]:
            return False
    return True


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
    progress: list[Difference] = []  # see `Compared`


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
    found = compared(real, imagined)
    return WhatIfResult(
        state=imagined, differences=found.differences, progress=found.progress, played=played
    )
