"""`python tests/toy/launch.py ARGS`: the real `tablelog` command with the duel registered,
for tests that run the CLI or the service in a process of their own."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: `tests.toy`

from tablelog import rulesets
from tablelog.cli.app import main
from tests.toy import PLACE

rulesets.register(PLACE)  # the one line that makes the duel a ruleset of tablelog
main()
