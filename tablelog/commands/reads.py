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
from tablelog.errors import InvalidInput, NotFound, TablelogError
from tablelog.events.base import Event
from tablelog.events.envelope import Envelope
from tablelog.progress import SILENT, Progress
from tablelog.projections.fold import Folded, decoded, fold_steps
from tablelog.projections.registry import describe, redact, views_for
from tablelog.projections.views import conflict_lines, show_view
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


def show(
    store: EventStore,
    campaign: str,
    conflict: str | None,
    viewer: str | None,
    *,
    ruleset: str | None = None,
) -> Shown:
    """A conflict round by round (`conflict` None: the only open one), as `viewer` sees it;
    with `ruleset`, refused unless the campaign plays it (`tablelog improv show`)."""
    with state.reading(store, campaign) as folded:
        _plays(folded, campaign, ruleset)
        at = views_for(folded.ruleset.name).kept_at(folded.state, conflict)
        if at is None:
            view, lines = show_view(folded, conflict, viewer)
            return Shown(view=view, lines=lines)
    # The state keeps only a record of that conflict: rebuilt from the log as it stood then.
    view, lines = show_view(state.state_at(store, campaign, at), conflict, viewer)
    return Shown(view=view, lines=lines)


def ruleset_read(
    store: EventStore, campaign: str, ruleset: str, name: str, value: str, viewer: str | None
) -> dict[str, Any]:
    """One of a ruleset's own reads (`RulesetViews.reads`), as `viewer` may see it."""
    with state.reading(store, campaign) as folded:
        _plays(folded, campaign, ruleset)
        read = views_for(ruleset).read(name)
        if read is None:
            raise NotFound(f"{ruleset} has no read {name!r}", code="no-read")
        return read.run(folded.state, value, viewer)


def _plays(folded: Folded, campaign: str, ruleset: str | None) -> None:
    if ruleset is not None and folded.ruleset.name != ruleset:
        raise InvalidInput(f"campaign {campaign} does not play {ruleset}", code="wrong-ruleset")


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
        # The words name characters as the state spells them; a log the state cannot be
        # read from (a broken chain) is still listed, in the words of its events alone.
        try:
            with state.reading(store, campaign) as folded:
                return [_item(e, decoded(e), None, folded.state) for e in envelopes]
        except TablelogError:
            return [_item(e, decoded(e), None, None) for e in envelopes]
    # What a viewer may see depends on the state now (a card revealed since is public).
    with state.reading(store, campaign) as folded:
        return items_seen(folded, envelopes, viewer)


def items_seen(folded: Folded, envelopes: Sequence[Envelope], viewer: str) -> list[LogItem]:
    """These events as `viewer` may see them, given the campaign's state `folded`."""
    views = views_for(folded.ruleset.name)
    items = []
    for e in envelopes:
        event = decoded(e)
        items.append(_item(e, event, redact(views, event, viewer, folded.state), folded.state))
    return items


def _item(envelope: Envelope, event: Event, shown: dict[str, Any] | None, now: Any) -> LogItem:
    return LogItem(
        seq=envelope.seq,
        recorded_at=envelope.recorded_at,
        actor=envelope.actor,
        hash=envelope.hash.hex(),
        text=describe(event, now),
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
            text=describe(event, folded.state),
            lines=conflict_lines(folded, key, viewer) if key else [],
        )
