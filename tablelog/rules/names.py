"""Names of campaigns and players: what is allowed and how they are compared.

Names are matched case-insensitively and kept in lower case as keys (`Mara` -> `mara`).
A new player's name is also compared after NFKC and case folding (`folded`): it may not be a
name the rules give a meaning of their own (`RESERVED`), the GM's, or another spelling of a
player's name (a long s, or full-width letters, beside `sam`), and it is written in its plain
(NFKC) form. Names already in a log are never checked again.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation

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


# Names with a meaning of their own to the rules of some ruleset: the GM's seat and the places
# of a token ledger. None of them is ever a player's.
RESERVED = ("gm", "pool", "table", "bank", "out_of_play")
_RESERVED = frozenset(RESERVED)


def folded(text: str) -> str:
    """How two names compare when one is new: NFKC and case folding, so that no two players
    (or a player and a name of the rules) look alike."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text.strip()).casefold())


def _spelling(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip()).lower()


def new_player_name(text: str, *, gm: str, players: Mapping[str, str]) -> str:
    """The key of a player about to join a campaign (`players`: key -> name as given, the
    GM's seat among them or not). A name the rules reserve, the GM's, or another spelling of
    a player's name is refused; a player's own name (in any letter case) is that player's key.
    """
    key = player_name(text)
    fold = folded(text)
    if fold in _RESERVED:
        raise InvalidInput(
            f"player name {text.strip()!r} means something to the rules; "
            f"{', '.join(RESERVED)} are never players' names",
            code="reserved-name",
        )
    if fold == folded(gm):
        raise RuleViolation(
            f"player name {text.strip()!r} is the GM's ({gm}); the GM is already part of the "
            "campaign",
            code="gm-player",
        )
    for known, shown in players.items():
        if known == gm or fold not in (folded(known), folded(shown)):
            continue
        if known == key and _spelling(text) == _spelling(shown):
            return key
        raise AlreadyExists(
            f"player name {text.strip()!r} is another spelling of player {shown}'s name; "
            f"write {shown} for that player, or choose another name",
            code="player-exists",
        )
    _plain(text, "player name")
    return key


def _plain(text: str, what: str) -> None:
    """A new name is written in its plain form: no long s, full-width or ligature letters
    (which NFKC would replace), so that no name looks like another."""
    given = unicodedata.normalize("NFC", text.strip())
    plain = unicodedata.normalize("NFKC", given)
    if plain != given:
        raise InvalidInput(
            f"{what} {text.strip()!r} has letters with a plainer form; write it {plain!r}",
            code="bad-name",
        )


def gm_name(text: str) -> str:
    """The key of a new campaign's GM: any player name but the places of the rules (the GM
    may be called gm, as it is by default)."""
    key = player_name(text, "GM name")
    if folded(text) in _RESERVED and key != "gm":
        raise InvalidInput(
            f"GM name {text.strip()!r} means something to the rules; "
            f"{', '.join(r for r in RESERVED if r != 'gm')} are never a GM's name",
            code="reserved-name",
        )
    _plain(text, "GM name")
    return key
