"""What tablelog's own worker processes share (a large import's check, `verify`'s walks).

Messages go over the worker's stdin and stdout: each a 4-byte length, then the message's
bytes (MessagePack, an order of magnitude quicker than pickle for rows of events, and never
code).
"""

from __future__ import annotations

import os
from typing import IO


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the platform says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def write_frame(out: IO[bytes], data: bytes) -> None:
    out.write(len(data).to_bytes(4, "big"))
    out.write(data)


def read_frame(source: IO[bytes]) -> bytes:
    """The next message's bytes; EOFError when the stream ends before a whole one."""
    size = source.read(4)
    if len(size) < 4:
        raise EOFError
    wanted = int.from_bytes(size, "big")
    data = source.read(wanted)
    if len(data) < wanted:
        raise EOFError
    return data
