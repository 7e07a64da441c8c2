"""The values this client pledged to committed shuffles, kept on the player's machine from
the pledge to the reveal (commands/rng_answer.py says why the two steps).

One JSON Lines file per campaign, `<campaign>.jsonl`, created readable by its owner only
(0600), in TABLELOG_PLEDGES when set, else `tablelog/pledges` in the user's data directory.
A value is written before its pledge is sent, so a pledge that reached the service can
always be revealed from this machine; lose the file and the pledge ends withheld, by name.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from tablelog.cli.kept import data_dir
from tablelog.errors import StorageError

PLEDGES_ENV = "TABLELOG_PLEDGES"


class Kept(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    request: str
    player: str
    value: str  # hex


_DECODER = msgspec.json.Decoder(Kept)


def pledges_file(campaign: str) -> Path:
    chosen = os.environ.get(PLEDGES_ENV)
    base = Path(chosen).expanduser() if chosen else data_dir() / "pledges"
    return base / f"{campaign}.jsonl"


def keep(campaign: str, request: str, player: str, value: str) -> None:
    path = pledges_file(campaign)
    kept = Kept(campaign=campaign, request=request, player=player, value=value)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "ab") as handle:
            handle.write(msgspec.json.encode(kept) + b"\n")
    except OSError as exc:
        raise StorageError(
            f"cannot keep the pledged value in {path}: {exc.strerror}; nothing was sent",
            code="cannot-keep",
        ) from None


def kept_value(campaign: str, request: str, player: str) -> str | None:
    """The value this machine pledged for `player` to `request`, if it kept one."""
    path = pledges_file(campaign)
    try:
        lines = path.read_bytes().splitlines()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}", code="cannot-keep") from None
    found = None
    for line in lines:
        try:
            kept = _DECODER.decode(line)
        except msgspec.DecodeError:
            continue  # a line cut short by a crash: the others still count
        if (kept.campaign, kept.request, kept.player) == (campaign, request, player):
            found = kept.value
    return found
