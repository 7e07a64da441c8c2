"""The checkpoints this client has seen, kept on the player's own machine.

One JSON Lines file per campaign, `<campaign>.jsonl`, in TABLELOG_CHECKPOINTS when set, else
`tablelog/checkpoints` in the user's data directory (XDG_DATA_HOME, else ~/.local/share).
A checkpoint already in the file is not written again. `tablelog verify --checkpoint FILE`
reads such a file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tablelog.commands.checkpoints import ENCODER, Checkpoint
from tablelog.errors import StorageError

CHECKPOINTS_ENV = "TABLELOG_CHECKPOINTS"


def data_dir() -> Path:
    """tablelog's directory in the user's data directory (XDG_DATA_HOME, else
    ~/.local/share): what a player keeps on its own machine."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablelog"


def checkpoints_dir() -> Path:
    chosen = os.environ.get(CHECKPOINTS_ENV)
    if chosen:
        return Path(chosen).expanduser()
    return data_dir() / "checkpoints"


def kept_file(campaign: str) -> Path:
    return checkpoints_dir() / f"{campaign}.jsonl"


def keep(checkpoints: Sequence[Checkpoint]) -> Path | None:
    """Append the checkpoints not yet kept to their campaigns' files; the last file written."""
    written = None
    for checkpoint in checkpoints:
        path = kept_file(checkpoint.campaign)
        line = ENCODER.encode(checkpoint) + b"\n"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            known = path.read_bytes().splitlines(keepends=True) if path.exists() else []
            if line not in known:
                with path.open("ab") as handle:
                    handle.write(line)
        except OSError as exc:
            raise StorageError(
                f"cannot keep the checkpoint in {path}: {exc.strerror}", code="cannot-keep"
            ) from None
        written = path
    return written
