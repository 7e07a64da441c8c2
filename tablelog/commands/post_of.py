"""The text a webhook posts for one queued post: the export's own Discord messages of the
conflict or session concerned, as of the event that made the post due, or the events of
the command as an observer sees them (`json`). Built from the log alone, so a post is what
every observer may see: an account never holds a face-down card or a hand, and `json`
events go through the one `redact` for an observer."""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.commands import state
from tablelog.commands.audit import account_of
from tablelog.commands.post import hash_at
from tablelog.commands.reads import items_seen
from tablelog.events.envelope import Envelope
from tablelog.projections.post import Post, conflict_post, session_post
from tablelog.projections.post_formats import discord_lines, split_messages
from tablelog.storage import EventStore
from tablelog.storage.webhooks import Due

OBSERVER = "observer:webhook"  # no player's key: sees what every observer sees


def _post(envelopes: list[Envelope], trigger: str, seq: int) -> Post | None:
    """As `export --format discord --conflict|--session` would post it had the log ended
    at `seq`: the conflict (or session) that event belongs to."""
    account = account_of(envelopes)
    if trigger == "session":
        spans = [s for s in account.sessions if s.first_seq <= seq]
        if not spans:
            return None
        return session_post(account, spans[-1], hash_at(envelopes, spans[-1].last_seq))
    conflicts = [c for c in account.conflicts if c.first_seq <= seq]
    if not conflicts:
        return None
    return conflict_post(account, conflicts[-1], hash_at(envelopes, conflicts[-1].last_seq))


def discord_messages(store: EventStore, due: Due) -> list[bytes]:
    """The JSON bodies of the Discord messages of the post, in order (each ≤ 2,000)."""
    post = _post(store.read(due.hook.campaign, upto_seq=due.seq), due.trigger, due.seq)
    if post is None:
        return []
    return [
        msgspec.json.encode({"content": text, "allowed_mentions": {"parse": []}})
        for text in split_messages(discord_lines(post))
    ]


def json_body(store: EventStore, due: Due) -> bytes:
    """The command's events as an observer sees them, given the state they left."""
    folded = state.state_at(store, due.hook.campaign, due.seq)
    written = store.read(due.hook.campaign, after_seq=due.first_seq - 1, upto_seq=due.seq)
    events: list[Any] = [
        msgspec.json.decode(item.line) for item in items_seen(folded, written, OBSERVER)
    ]
    return msgspec.json.encode(
        {
            "campaign": due.hook.campaign,
            "webhook": due.hook.id,
            "trigger": due.trigger,
            "seq": due.seq,
            "events": events,
        }
    )


def bodies(store: EventStore, due: Due) -> list[bytes]:
    if due.hook.format == "discord":
        return discord_messages(store, due)
    return [json_body(store, due)]
