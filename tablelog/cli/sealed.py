"""The client's half of sealed plays (rules/sealing.py): the salt is chosen here, and the
choice and salt are kept on the player's machine until the opening; only the commitment is
sent. Generic: any ruleset's CLI seals a hidden choice with `seal` and opens it with
`kept_openings`.

The openings are kept in one JSON Lines file per campaign, `<campaign>.jsonl`, created
readable by its owner only (0600), in TABLELOG_SEALED when set, else `tablelog/sealed` in the
user's data directory. An opening is written before its commitment is sent, so a play that
reached the service can always be opened. During a what-if (`tablelog whatif`) openings are
kept in memory only: a what-if never writes the player's files.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import msgspec

from tablelog.cli.kept import data_dir
from tablelog.cli.options import scratch
from tablelog.errors import StorageError
from tablelog.rules import sealing

SEALED_ENV = "TABLELOG_SEALED"
_SCRATCH: list[Opening] = []  # a what-if's openings (see the module's docstring)


class Opening(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    conflict: str
    round: int
    side: str
    choice: str
    salt: str  # hex
    commitment: str  # hex


_DECODER = msgspec.json.Decoder(Opening)


def sealed_file(campaign: str) -> Path:
    chosen = os.environ.get(SEALED_ENV)
    base = Path(chosen).expanduser() if chosen else data_dir() / "sealed"
    return base / f"{campaign}.jsonl"


def seal(campaign: str, conflict: str, round_number: int, side: str, choice: str) -> Opening:
    """A fresh 256-bit salt from `secrets`, the commitment, and the opening kept (0600)."""
    salt = secrets.token_bytes(sealing.SALT_BYTES)
    digest = sealing.commitment(campaign, conflict, round_number, side, choice, salt)
    opening = Opening(
        campaign=campaign,
        conflict=conflict,
        round=round_number,
        side=side,
        choice=choice,
        salt=salt.hex(),
        commitment=digest.hex(),
    )
    if scratch.get() is not None:
        _SCRATCH.append(opening)
        return opening
    path = sealed_file(campaign)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "ab") as handle:
            handle.write(msgspec.json.encode(opening) + b"\n")
    except OSError as exc:
        raise StorageError(
            f"cannot keep the sealed play in {path}: {exc.strerror}; nothing was sent",
            code="cannot-keep",
        ) from None
    return opening


def kept_openings(campaign: str, conflict: str, round_number: int) -> list[Opening]:
    """This client's openings for one round of a conflict, the last kept per side (during a
    what-if, those the what-if sealed, then those kept on file)."""
    found: dict[str, Opening] = {}
    for opening in [*_read(campaign), *(_SCRATCH if scratch.get() is not None else [])]:
        if (opening.campaign, opening.conflict, opening.round) == (
            campaign,
            conflict,
            round_number,
        ):
            found[opening.side] = opening
    return list(found.values())


def _read(campaign: str) -> list[Opening]:
    path = sealed_file(campaign)
    try:
        lines = path.read_bytes().splitlines()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}", code="cannot-keep") from None
    found = []
    for line in lines:
        try:
            found.append(_DECODER.decode(line))
        except msgspec.DecodeError:
            continue  # a line cut short by a crash: the others still open
    return found
