"""`python -m bench.peers JSONL [--scratch DIR]`: run every peer workload and print a table."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from . import format_table, load_rows, run_all


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.peers", description=__doc__)
    parser.add_argument("jsonl", type=Path, help="a `tablelog export --format jsonl` file")
    parser.add_argument("--scratch", type=Path, help="where to write the databases (default: temp)")
    parser.add_argument("--per-event-limit", type=int, default=2000)
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--reconstruct-total", type=int, default=None)
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    rows = load_rows(args.jsonl)
    print(f"loaded {len(rows)} rows in {time.perf_counter() - t0:.2f} s")
    with tempfile.TemporaryDirectory(prefix="peers-") as tmp:
        scratch = args.scratch or Path(tmp)
        results = run_all(
            rows,
            scratch,
            per_event_limit=args.per_event_limit,
            commands=args.commands,
            reconstruct_total=args.reconstruct_total,
        )
    print(format_table(results))


if __name__ == "__main__":
    main()
