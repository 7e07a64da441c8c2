"""Helpers for a ruleset's own tests, wherever the ruleset lives (docs/writing-a-ruleset.md).

A test reads like a transcript: given these commands, when this one, then these events or this
refusal. `Table` plays a campaign of any ruleset found on a real SQLite file, through the same
append as the CLI and the service; `sound()` is what every log must pass, whatever was played
(a property test calls it after each generated play): the hash chain verifies, the audit
recomputes every recorded decision and finds nothing wrong, and two folds of the log agree.
Nothing here needs pytest or hypothesis; a ruleset's tests bring their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tablelog.commands.audit import audit
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.log import verify
from tablelog.commands.table import execute
from tablelog.errors import TablelogError
from tablelog.events.base import Event
from tablelog.projections.fold import fold
from tablelog.storage import EventStore, open_store


class Table:
    """A campaign of `ruleset` on the SQLite file `path`, played a command at a time."""

    def __init__(
        self,
        path: str | Path,
        ruleset: str,
        options: Mapping[str, str] | None = None,
        campaign: str = "t",
    ) -> None:
        self.store: EventStore = open_store(str(path), create=True)
        self.campaign = campaign
        create_campaign(self.store, campaign, ruleset=ruleset, options=dict(options or {}))

    def given(self, *commands: Any) -> Table:
        """Play each command; any refusal fails the test there (it is the test's premise)."""
        for command in commands:
            execute(self.store, self.campaign, command)
        return self

    def when(self, command: Any) -> list[Event]:
        """Play `command`: the events it appended."""
        return [e.event() for e in execute(self.store, self.campaign, command)]

    def refused(self, command: Any) -> TablelogError:
        """`command` must be refused and append nothing: the refusal (its `code`, its
        sentence)."""
        head = self.store.head(self.campaign)
        try:
            execute(self.store, self.campaign, command)
        except TablelogError as exc:
            if self.store.head(self.campaign) != head:
                raise AssertionError(f"{command!r} was refused, yet the log moved") from None
            return exc
        raise AssertionError(f"{command!r} was not refused")

    @property
    def state(self) -> Any:
        """The ruleset's state after every event so far."""
        return fold(self.store.stream(self.campaign)).state

    def sound(self) -> None:
        """The log verifies, audits clean, and folds twice to the same state."""
        report = verify(self.store, campaign=self.campaign, workers=0)
        if report.first_bad is not None:
            raise AssertionError(f"the chain breaks: {report.first_bad}")
        account = audit(self.store, self.campaign)
        if not account.ok:
            raise AssertionError(f"the audit finds {account.discrepancies}")
        once, twice = self.state, self.state
        rules = fold(self.store.stream(self.campaign)).ruleset
        if rules.encode_state(once) != rules.encode_state(twice):
            raise AssertionError("two folds of one log disagree")

    def close(self) -> None:
        self.store.close()
