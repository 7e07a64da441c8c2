"""Running a ruleset command against a campaign, and reading its state.

`execute` is the append algorithm of the design: inside one write transaction (the campaign's
lock held) it folds the log, lets the ruleset decide, and appends what it decided. A refusal
raises before anything is written. Managed decks shuffle with `secrets`; the order is stored.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from tablelog.commands.log import MAX_SEQ
from tablelog.errors import RuleViolation
from tablelog.events.envelope import Envelope, Pending
from tablelog.projections.fold import Folded, fold
from tablelog.rules.common import Command
from tablelog.storage import EventStore

_RANDOM = secrets.SystemRandom()


def secure_shuffle(cards: list[str]) -> list[str]:
    shuffled = list(cards)
    _RANDOM.shuffle(shuffled)
    return shuffled


def execute(
    store: EventStore,
    campaign: str,
    command: Command,
    *,
    ruleset: str | None = None,
    actor: str | None = None,
    expected_seq: int | None = None,
    shuffle: Any = secure_shuffle,
) -> list[Envelope]:
    """Decide `command` on the campaign's current state and append the events it causes."""
    with store.transaction(campaign) as tx:
        folded = fold(tx.events())
        if ruleset is not None and folded.ruleset.name != ruleset:
            raise RuleViolation(
                f"campaign {campaign} plays {folded.ruleset.name}; {ruleset} commands do not "
                "apply to it",
                code="wrong-ruleset",
            )
        events = folded.ruleset.decide(folded.state, command, shuffle)
        pending = [
            Pending.of(
                event,
                actor=actor or folded.ruleset.actor(folded.state, event),
                event_id=str(uuid.uuid4()),
            )
            for event in events
        ]
        return tx.append(pending, expected_seq=expected_seq).events


def campaign_state(store: EventStore, campaign: str, *, at: int | None = None) -> Folded:
    """The campaign's state now, or as of seq `at`."""
    if at is not None and not 1 <= at <= MAX_SEQ:
        raise RuleViolation(f"--at must be a seq from 1 to {MAX_SEQ}; got {at}", code="bad-seq")
    return fold(store.read(campaign, upto_seq=at))
