"""Names of campaigns and players: what is allowed and how they are compared.

Names are matched case-insensitively and kept in lower case as keys (`Mara` -> `mara`).
"""

from __future__ import annotations

import re
import unicodedata

from tablelog.errors import InvalidInput

_CAMPAIGN = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
_PLAYER = re.compile(r"[^\W_][\w.'-]{0,39}")


def campaign_name(text: str) -> str:
    name = text.strip().lower()
    if not _CAMPAIGN.fullmatch(name):
        raise InvalidInput(
            f"campaign name {text!r} is not allowed; use 1 to 64 letters a-z, digits, '.', '_' "
            "or '-', starting with a letter or digit",
            code="bad-name",
        )
    return name


def campaign_key(name: str) -> str:
    """What no two campaigns may share: a name's letters and digits after Unicode
    compatibility normalization (NFKC) and case folding, its punctuation dropped. `rec`,
    `rec.`, `r-e-c` and `REC_` are one name to a reader, so only the first is created."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def player_name(text: str, what: str = "player name") -> str:
    # NFC so a decomposed "René" (as some keyboards type it) is the same player as a composed
    # one; casefold so "STRASSE" and "straße" are one name.
    name = unicodedata.normalize("NFC", text.strip()).casefold()
    if not _PLAYER.fullmatch(name):
        raise InvalidInput(
            f"{what} {text!r} is not allowed; use 1 to 40 letters, digits, '.', '_', "
            "\"'\" or '-', starting with a letter or digit",
            code="bad-name",
        )
    return name
