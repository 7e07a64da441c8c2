"""`tablelog demo`: a ruleset's whole play (its `Ruleset.demo`) written into a new campaign."""

from __future__ import annotations

from tablelog import rulesets
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.errors import InvalidInput
from tablelog.events.envelope import Envelope
from tablelog.rules import registry
from tablelog.rules.contract import Demo, Ruleset
from tablelog.storage import EventStore


def demo_of(ruleset: str | None) -> tuple[Ruleset[object], Demo]:
    """The ruleset (default: the primary one) and its demo; refused if it has none."""
    rules = registry.get(ruleset if ruleset is not None else rulesets.names()[0])
    if rules.demo is None:
        with_demo = [n for n in registry.names() if registry.get(n).demo is not None]
        raise InvalidInput(
            f"{rules.name} has no demo; demos: {', '.join(with_demo)}", code="no-demo"
        )
    return rules, rules.demo()


def write_demo(
    store: EventStore, name: str | None = None, *, ruleset: str | None = None
) -> list[Envelope]:
    """Create a campaign (named `name`, or as the demo names it) and play the ruleset's demo
    into it; returns every event written."""
    rules, play = demo_of(ruleset)
    created = create_campaign(store, name or play.name, ruleset=rules.name, options=play.options)
    written = [created.event]
    for command in play.commands:
        written.extend(execute(store, created.campaign, command, ruleset=rules.name))
    return written
