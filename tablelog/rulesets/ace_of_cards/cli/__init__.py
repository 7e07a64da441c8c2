"""`tablelog ace-of-cards ...`: the Ace of Cards table, one command per action
(rules/ace-of-cards.md). Cards are codes: a value 1-7 and a suit letter (3C, 5H), or a joker
(JK1, JK2; JK for the only joker in hand).

The commands live in three modules by what they do; importing them registers them on `app`.
"""

from __future__ import annotations

from tablelog.rulesets.ace_of_cards.cli.common import app

# Imported in the order `--help` lists them: the people, the play, the Checks.
# isort: off
from tablelog.rulesets.ace_of_cards.cli import people, play, checks
# isort: on

__all__ = ["app", "checks", "people", "play"]
