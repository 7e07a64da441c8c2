"""Reads of a campaign as one viewer may see them: the log, a replay, a hand's owner only.

`viewer` None is the local operator (everything); a player key, `gm` or an observer sees what
the ruleset's `redact` and views leave: no face-down card but its own, no other hand, no deck
order. The local CLI and the service render the same items.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from tablelog.commands import state
from tablelog.commands.log import MAX_SEQ, read_log
from tablelog.errors import InvalidInput
from tablelog.events.base import Event
from tablelog.events.envelope import Envelope
from tablelog.progress import SILENT, Progress
from tablelog.projections.fold import Folded, decoded, fold_steps
from tablelog.projections.registry import describe, views_for
from tablelog.projections.views import conflict_lines
from tablelog.storage import EventStore


class LogItem(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    recorded_at: int
    actor: str
    hash: str
    text: str
    line: str  # the JSON line (`log --json`), redacted for the viewer where it must be


class ReplayItem(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    text: str
    lines: list[str]  # the conflict's table after this event, as the viewer sees it


class Shown(msgspec.Struct, frozen=True, kw_only=True):
    """A conflict as a ruleset's `show` gives it: its JSON view and its lines of text."""

    view: dict[str, Any]
    lines: list[str]


def log_items(
    store: EventStore,
    campaign: str,
    *,
    since: int = 0,
    conflict: str | None = None,
    viewer: str | None = None,
) -> list[LogItem]:
    envelopes = read_log(store, campaign, since=since, conflict=conflict)
    return items_of(store, campaign, envelopes, viewer)


def items_of(
    store: EventStore, campaign: str, envelopes: Sequence[Envelope], viewer: str | None
) -> list[LogItem]:
    """These events of the campaign as `viewer` may see them now (a command's response is
    built from the events it just wrote, without reading them back)."""
    if viewer is None:
        return [_item(e, decoded(e), None) for e in envelopes]
    # What a viewer may see depends on the state now (a card revealed since is public).
    with state.reading(store, campaign) as folded:
        return items_seen(folded, envelopes, viewer)


def items_seen(folded: Folded, envelopes: Sequence[Envelope], viewer: str) -> list[LogItem]:
    """These events as `viewer` may see them, given the campaign's state `folded`."""
    redact = views_for(folded.ruleset.name).redact
    items = []
    for e in envelopes:
        event = decoded(e)
        items.append(_item(e, event, redact(event, viewer, folded.state)))
    return items


def _item(envelope: Envelope, event: Event, shown: dict[str, Any] | None) -> LogItem:
    return LogItem(
        seq=envelope.seq,
        recorded_at=envelope.recorded_at,
        actor=envelope.actor,
        hash=envelope.hash.hex(),
        text=describe(event),
        line=envelope.to_json_line(shown).decode(),
    )


def replay_items(
    store: EventStore,
    campaign: str,
    *,
    conflict: str | None = None,
    upto: int | None = None,
    viewer: str | None = None,
    progress: Progress = SILENT,
) -> Iterator[ReplayItem]:
    """The table after each event (only `conflict`'s events, when given)."""
    if upto is not None and not 1 <= upto <= MAX_SEQ:
        raise InvalidInput(f"--at must be a seq from 1 to {MAX_SEQ}; got {upto}", code="bad-seq")
    wanted = conflict.strip().lower() if conflict else None
    envelopes = store.read(campaign, upto_seq=upto)
    progress.start(len(envelopes), "replaying")
    for envelope, event, folded in fold_steps(envelopes):
        progress.advance()
        key = event.conflict_id()
        if wanted is not None and key != wanted:
            continue
        yield ReplayItem(
            seq=envelope.seq,
            text=describe(event),
            lines=conflict_lines(folded, key, viewer) if key else [],
        )
