"""Why a token stopped working, kept beside it, and the sentence its refusal says.

A browser signed out by a re-issue of its seat used to be told only that its session had
ended. Each revocation now stores a short reason (and the seq of the event that logs it, if
one does), so the page signed out says why on that very device: "the GM re-issued bob's
access at seq 41 ...", "signed out from another of your devices". A token revoked before
revision 0010 has no reason and keeps the general sentence.
"""

from __future__ import annotations

from typing import Literal

# Who ended it, and how. `self` is the seat itself, from another of its browsers.
Why = Literal[
    "reissued-gm",
    "reissued-operator",
    "revoked-gm",
    "revoked-operator",
    "ended-self",
    "ended-gm",
    "ended-operator",
    "signed-out",
    "switched",
    "used",
]


def reissued(by: str) -> Why:
    return "reissued-gm" if by == "gm" else "reissued-operator"


def revoked(by: str) -> Why:
    return "revoked-gm" if by == "gm" else "revoked-operator"


def ended_by(caller_role: str | None, caller_player: str | None, player: str) -> Why:
    """Why a session ended from a sessions list: by its own seat, the GM or the operator."""
    if caller_role is None:
        return "ended-operator"
    if caller_player == player:
        return "ended-self"
    return "ended-gm"


def _who(by: str) -> str:
    return "the GM" if by == "gm" else "the operator (on the database)"


def reason(why: str | None, player: str, seq: int | None) -> str | None:
    """What ended a token, as a clause ("the GM re-issued bob's access at seq 41"), or None
    when the reason is unknown (revoked before revision 0010)."""
    at = f" at seq {seq}" if seq is not None else ""
    match (why or "").split("-", 1):
        case ["reissued", by]:
            return f"{_who(by)} gave {player}'s seat a new sign-in link or token{at}"
        case ["revoked", by]:
            return f"{_who(by)} revoked {player}'s access{at}"
        case ["ended", "self"]:
            return f"this browser was signed out from another of {player}'s devices"
        case ["ended", by]:
            return f"{_who(by)} ended this session"
        case ["signed", "out"]:
            return "this browser signed out"
        case ["switched"]:
            return "this browser signed in as another seat with a link"
        case ["used"]:
            return "this sign-in link was used already"
    return None


def session_refusal(why: str | None, player: str, seq: int | None) -> str:
    """The sentence a page signed out hears, in place of its table."""
    said = reason(why, player, seq)
    if said is None:
        return "this web session was signed out, ended or replaced; open a sign-in link again"
    if why is not None and why.startswith(("reissued", "revoked", "ended-gm", "ended-op")):
        return f"{said}, which signed this browser out; ask the GM for a new sign-in link"
    return f"{said}, which ended this browser's session; open a sign-in link to come back"


def token_refusal(why: str | None, player: str, seq: int | None) -> str:
    """The sentence a revoked bearer token (the CLI, a script) hears."""
    said = reason(why, player, seq)
    return "the access token was revoked" + ("" if said is None else f": {said}")
