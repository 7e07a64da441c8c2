"""Event types used only by the tests, to exercise the store without a ruleset."""

from __future__ import annotations

import uuid

from tablelog.events import Event, Pending, registered


@registered
class Tick(Event, frozen=True, tag="test.tick"):
    """A counter event: `seen` is the head seq the writer saw when it decided."""

    writer: str
    seen: int
    conflict: str | None = None


def tick(writer: str = "w", seen: int = 0, *, event_id: str | None = None) -> Pending:
    return Pending.of(
        Tick(writer=writer, seen=seen), actor=writer, event_id=event_id or str(uuid.uuid4())
    )
