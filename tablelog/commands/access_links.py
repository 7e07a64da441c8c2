"""A Discord account linked to a seat: access, said in the log (`access.linked`), kept apart
from the codes and the contacts so both may link without importing each other."""

from __future__ import annotations

import uuid

from tablelog.commands import state
from tablelog.events.core import AccessLinked
from tablelog.events.envelope import Pending
from tablelog.rules.table import GM
from tablelog.storage import EventStore
from tablelog.storage import discord as rows


def gm_name(store: EventStore, campaign: str) -> str:
    with state.reading(store, campaign) as folded:
        return str(folded.ruleset.cast.gm(folded.state))


def link_account(
    store: EventStore, campaign: str, key: str, user: str, *, by: str, actor: str
) -> list[str]:
    """Make `user` the Discord account of seat `key` and append `access.linked` in the same
    transaction: acting for a seat from Discord is access to it, and a new account on a seat
    is said to the whole table as a token's re-issue is. The seats the account leaves."""
    entry = state.entry_for(store, campaign)
    seat = gm_name(store, campaign) if key == GM else key
    with entry.lock:
        with store.transaction(campaign) as tx:
            moved, replaced = rows.move_user_in(tx.connection, campaign, key, user)
            event = AccessLinked(player=seat, by=by, replaced=replaced)
            pending = Pending.of(event, actor=actor, event_id=str(uuid.uuid4()))
            written = tx.append([pending]).events
        state.advance(entry, written, None)  # committed: the cached state moves on
    return moved
