"""A `verify` worker process: `python -m tablelog.storage.verify_worker`, started and fed by
`verify_workers.check_in_workers`. It checks one campaign at a time with `verify_log` and
answers on its stdout."""

from __future__ import annotations

import sys
from typing import IO

import msgspec

from tablelog.errors import TablelogError
from tablelog.storage import open_store
from tablelog.storage.verify import verify_log
from tablelog.storage.verify_workers import Checked
from tablelog.workers import read_frame, write_frame


def main(source: IO[bytes], out: IO[bytes]) -> int:
    """The worker: open the database whose URL comes first on `source`, then check each
    campaign named there, answering on `out`."""
    names = msgspec.msgpack.Decoder(str)
    answers = msgspec.msgpack.Encoder()
    try:
        store = open_store(names.decode(read_frame(source)), check_schema=False)
    except EOFError:
        return 0
    try:
        while True:
            try:
                name = names.decode(read_frame(source))
            except EOFError:
                return 0
            try:
                report = verify_log(store, campaign=name, workers=1)
                bad = report.first_bad
                result = Checked(
                    events=report.events, first_bad=None if bad is None else (bad.seq, bad.reason)
                )
            except TablelogError as exc:
                result = Checked(events=0, failure=exc.message)
            write_frame(out, answers.encode(result))
            out.flush()
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main(sys.stdin.buffer, sys.stdout.buffer))
