"""`tablelog`, with Improv's `awaiting` fixed by the page tests' stand-in (awaiting.py): run
as a script by `running_service(..., program=...)`, for the page's browser test."""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: `tests`
    from tablelog.cli.app import main
    from tests.support.awaiting import stand_in

    stand_in()
    main()
