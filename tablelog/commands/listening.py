"""How a service hears of appends and revocations made elsewhere (storage/listen.py)."""

from __future__ import annotations

from collections.abc import Callable

from tablelog.commands.database import EventStore
from tablelog.storage.listen import Change, Listener

__all__ = ["Change", "Listener", "listener_for"]


def listener_for(
    store: EventStore,
    on_change: Callable[[Change], None],
    on_listening: Callable[[], None],
    on_lost: Callable[[], None],
) -> Listener | None:
    """A listener on the store's PostgreSQL database (not yet started), or None on SQLite,
    which has no notifications: its feeds poll."""
    if store.is_sqlite:
        return None
    return Listener(store.engine.url, on_change, on_listening, on_lost)
