"""Run as a separate process: append ticks to a campaign, deciding inside the write lock.

Each tick records the head seq its writer saw inside the transaction; if the lock works, every
tick's `seen` is exactly its own seq - 1, whatever the interleaving of the processes.
"""

from __future__ import annotations

import sys

from tablelog.storage import open_store
from tests.support.events import tick


def main(target: str, campaign: str, writer: str, count: int) -> None:
    store = open_store(target)
    try:
        for _ in range(count):
            with store.transaction(campaign) as tx:
                tx.append([tick(writer, tx.head.seq)])
    finally:
        store.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
