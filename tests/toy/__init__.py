"""A toy ruleset built in the test tree: a one-card high-card duel.

It proves the ruleset contract: registered with one line (`rulesets.register(PLACE)`), it gets
the CLI, the service, state, show, log, replay, audit, exports, what-if and redaction with no
other change to tablelog. Two players each play one card (1 to 13) face down; the reveal
gives the duel to the higher card, or to nobody on equal cards.
"""

from __future__ import annotations

from tablelog.rulesets import Place

PLACE = Place(
    "duel",
    events="tests.toy.events",
    rules="tests.toy.rules",
    views="tests.toy.views",
    commands="tests.toy.commands",
    cli="tests.toy.cli",
)
