#!/usr/bin/env bash
# Whole CLI processes on a campaign of 100,000 events, against the stack's import floor.
#
#   bash bench/cli.sh [EVENTS]        # default 100000; the campaign is written once, then kept
#
# Each command runs once to warm the file cache, then 10 times, each run followed by one of
# `python -c "import sqlalchemy, typer, msgspec"` (the floor: any command must open the
# database with SQLAlchemy and parse its arguments with Typer); the medians of both and their
# ratio are printed. Set PYTHON to the interpreter of the environment tablelog is installed in.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
EVENTS=${1:-100000}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/tablelog-cli-bench}
DB="$DIR/cli-$EVENTS.db"
mkdir -p "$DIR"

if [ ! -f "$DB" ]; then
  echo "writing a campaign of $EVENTS events through the command layer (once)..." >&2
  "$PYTHON" bench/generate.py --db "$DB" --events "$EVENTS" --campaign bench
  # An open conflict to show and to narrate in, as a table in play would have.
  "$PYTHON" -m tablelog --db "$DB" session start >/dev/null
  "$PYTHON" -m tablelog --db "$DB" improv open --id live >/dev/null
  "$PYTHON" -m tablelog --db "$DB" improv stake live riso "Riso gets away" --gm >/dev/null
  "$PYTHON" -m tablelog --db "$DB" improv stake live kit "Kit stops him" --opposes riso >/dev/null
fi

# Bytecode as an installed package has it (pip compiles at install): an editable checkout run
# with PYTHONDONTWRITEBYTECODE=1 would otherwise compile tablelog's modules on every process.
"$PYTHON" -m compileall -q tablelog

SEQ=$("$PYTHON" -m tablelog --db "$DB" campaign list --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)[0]["seq"])')

"$PYTHON" - "$DB" "$SEQ" <<'PY'
import shlex, statistics, subprocess, sys, time

db, seq = sys.argv[1], int(sys.argv[2])
py = sys.executable


def paired(argv: list[str], runs: int = 10) -> tuple[float, float]:
    """Medians of `argv` and of the floor, their runs alternated: on a shared machine the
    load drifts within seconds, and a ratio of two medians taken minutes apart says more
    about that drift than about the command."""
    floor_argv = [py, "-c", "import sqlalchemy, typer, msgspec"]
    for warm in (argv, floor_argv):
        subprocess.run(warm, check=True, capture_output=True)
    took: dict[int, list[float]] = {0: [], 1: []}
    for _ in range(runs):
        for which, run in enumerate((argv, floor_argv)):
            start = time.perf_counter()
            subprocess.run(run, check=True, capture_output=True)
            took[which].append(time.perf_counter() - start)
    return statistics.median(took[0]), statistics.median(took[1])


tl = [py, "-m", "tablelog", "--db", db]
rows = [
    ("python -c pass", [py, "-c", "pass"]),
    ("tablelog --version", [py, "-m", "tablelog", "--version"]),
    ("tablelog campaign list", tl + ["campaign", "list"]),
    ("tablelog state --json", tl + ["state", "--json"]),
    ("tablelog improv show live", tl + ["improv", "show", "live"]),
    ("tablelog log --since SEQ-20", tl + ["log", "--since", str(seq - 20)]),
    ("tablelog improv narrate live kit TEXT (a write)", tl + ["improv", "narrate", "live", "kit", "Kit runs."]),
    ("tablelog audit --conflict live", tl + ["audit", "--conflict", "live"]),
]
print(f"campaign of {seq} events in {db.rsplit('/', 1)[-1]}")
print("floor: python -c 'import sqlalchemy, typer, msgspec', its runs alternated with each command's")
print(f"{'command':<52} {'median s':>9} {'floor s':>8} {'x floor':>8}")
for name, argv in rows:
    took, floor = paired(argv)
    print(f"{name:<52} {took:>9.3f} {floor:>8.3f} {took / floor:>8.2f}")
PY
