"""Run as a separate process: narrate in a campaign through the command layer (`execute`,
which decides inside the write lock), one command at a time, and say on stdout, one line
each, which narrations were acknowledged (returned from `execute`, so committed).

    python -m tests.support.commander TARGET CAMPAIGN WRITER COUNT

Prints `ready` once the store is open, then `acked WRITER.I SEQ` after each command.
"""

from __future__ import annotations

import sys

from tablelog.commands.table import execute
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import open_store

CONFLICT = "c1"
SIDE = "Riso"  # a GM stake: the command layer runs without a caller, as the CLI does


def main(target: str, campaign: str, writer: str, count: int) -> None:
    store = open_store(target)
    try:
        print("ready", flush=True)
        for i in range(count):
            text = f"{writer}.{i}"
            [event] = execute(store, campaign, c.Narrate(conflict=CONFLICT, side=SIDE, text=text))
            print(f"acked {text} {event.seq}", flush=True)
    finally:
        store.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
