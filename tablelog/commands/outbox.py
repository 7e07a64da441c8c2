"""Queueing posts in the append's own transaction (group_commit.py calls this).

Which posts a command makes due is read from the ruleset contract, never from a ruleset's
names: `close` when a conflict's status leaves `open` (fewer open conflicts after the
command than before it), `session` when an event ends a session (`Event.ends_session`, the
flag checkpoints use), `reveal` when the ruleset's `RulesetViews.reveals` says an event makes
something hidden public. A command makes at most one post per webhook (the widest of the
three it matches: a post of a session covers its conflicts, a post of a closed conflict its
reveals), recorded with the command's first and last seq; the delivery builds its text.
The turn notices of the steps a command began are queued here too (notices.py).
"""

from __future__ import annotations

from tablelog.commands.awaits import Since
from tablelog.commands.turns import Turns
from tablelog.events.envelope import Envelope
from tablelog.projections.fold import Folded, decoded
from tablelog.projections.registry import views_for
from tablelog.storage import CampaignTransaction
from tablelog.storage.webhooks import enqueue, live_hooks

_WIDEST_FIRST = ("session", "close", "reveal")


class Outbox:
    """The campaign's live webhooks, read once per transaction, and the posts to queue."""

    def __init__(self, tx: CampaignTransaction) -> None:
        self._tx = tx
        hooks = live_hooks(tx.connection, tx.head.name)
        # The hooks that post what the events did (a turn is Turns' business, not theirs).
        self._hooks = [
            (h, triggers) for h, triggers, _ in hooks if set(triggers) & set(_WIDEST_FIRST)
        ]
        # Whether a post waits for a conflict to close: only then is the state's view built
        # twice a command to count the open ones (the dearest of these checks).
        self._closes = any("close" in triggers for _, triggers in self._hooks)
        self.turns = Turns(tx.connection, tx.head.name, hooks)

    def open_conflicts(self, folded: Folded) -> int:
        """How many conflicts are open (only worked out when a webhook may need it)."""
        if not self._closes:
            return 0
        conflicts = views_for(folded.ruleset.name).state_view(folded.state, None)["conflicts"]
        # A ruleset keeps its conflicts as a list or keyed by id: the contract asks `status`.
        each = conflicts.values() if isinstance(conflicts, dict) else conflicts
        return sum(1 for c in each if c["status"] == "open")

    def after(
        self, folded: Folded, open_before: int, written: list[Envelope], begun: list[Since]
    ) -> None:
        """Queue the posts that `written` (on the state `folded` they led to) made due;
        `begun` are the steps they made the table wait on (known while awaits are tracked)."""
        if not written:
            return
        self.turns.queue(folded, written, begun)
        if not self._hooks:
            return
        views = views_for(folded.ruleset.name)
        events = [decoded(e) for e in written]
        matched: set[str] = set()
        if any(type(e).ends_session for e in events):
            matched.add("session")
        if self._closes and self.open_conflicts(folded) < open_before:
            matched.add("close")
        if any(views.reveals(e) for e in events):
            matched.add("reveal")
        posts = []
        for hook, triggers in self._hooks:
            trigger = next((t for t in _WIDEST_FIRST if t in matched and t in triggers), None)
            if trigger is not None:
                posts.append((hook, written[0].seq, written[-1].seq, trigger))
        if posts:
            enqueue(self._tx.connection, self._tx.head.name, posts)
