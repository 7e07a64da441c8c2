"""Sealed plays (commit-reveal), offered to every ruleset: a hidden choice stored only as a
commitment, opened later with the choice and the salt, and checked against it.

With a sealed play the service never holds the choice until its owner opens it: the operator
(who can read the database) sees that a card was played, never which. The owner's client
chooses a 256-bit salt with `secrets`, keeps choice and salt in a local file, and sends only

    commitment = SHA-256(TAG || field(campaign) || field(conflict) || field(round)
                         || field(side) || field(choice) || field(salt))

where field(x) is x's length as 4 big-endian bytes followed by x (UTF-8 text; the round as
its decimal digits; the salt as its 32 raw bytes) and TAG is `tablelog-sealed-play-v1` and
a zero byte. Every field is length-prefixed, so no two different plays share an encoding,
and campaign, conflict, round and side are bound in: an opening replayed from another round
or side does not match. Pure (hashlib only): rules call it in `decide`, the audit and the
client call it too.
"""

from __future__ import annotations

import hashlib
import struct

from tablelog.errors import InvalidInput, RuleViolation

TAG = b"tablelog-sealed-play-v1\x00"
SALT_BYTES = 32
COMMITMENT_BYTES = 32


def _field(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def commitment(
    campaign: str, conflict: str, round_number: int, side: str, choice: str, salt: bytes
) -> bytes:
    """The commitment of one sealed play (the module's docstring)."""
    parts = (campaign, conflict, str(round_number), side, choice)
    return hashlib.sha256(TAG + b"".join(_field(p.encode()) for p in parts) + _field(salt)).digest()


def parse_commitment(text: str) -> str:
    """A commitment as sent: 64 hex digits, kept in lower case."""
    return _hex(text, COMMITMENT_BYTES, "a commitment", "bad-commitment").hex()


def parse_salt(text: str) -> bytes:
    return _hex(text, SALT_BYTES, "a salt", "bad-salt")


def _hex(text: str, size: int, what: str, code: str) -> bytes:
    try:
        raw = bytes.fromhex(text.strip())
    except ValueError:
        raw = b""
    if len(raw) != size:
        raise InvalidInput(f"{what} is {2 * size} hex digits; got {text!r}", code=code)
    return raw


def check_opening(
    expected: str,
    campaign: str,
    conflict: str,
    round_number: int,
    side: str,
    choice: str,
    salt: bytes,
    what: str = "card",
) -> None:
    """Refuse an opening whose choice (a `what`) and salt do not give the commitment stored."""
    if commitment(campaign, conflict, round_number, side, choice, salt).hex() != expected:
        raise RuleViolation(
            f"the opening of {side}'s sealed play in round {round_number} of {conflict} does "
            f"not match its commitment {expected[:16]}...: a different {what} or salt than the "
            "ones sealed",
            code="bad-opening",
        )


# --- the stated rule for an opening that never comes (any ruleset's) ---------------------

MAX_DEADLINE_MINUTES = 60 * 24 * 60  # sixty days: a play-by-post round may take weeks


def deadline_after(now: int, minutes: int) -> int:
    """The GM's deadline for a round's openings, `minutes` after `now` (the service's clock,
    microseconds UTC)."""
    if not 0 <= minutes <= MAX_DEADLINE_MINUTES:
        raise InvalidInput(
            f"a deadline is 0 (now) to {MAX_DEADLINE_MINUTES} minutes away; got {minutes}",
            code="bad-deadline",
        )
    return now + minutes * 60_000_000


def check_deadline_passed(deadline: int | None, now: int, round_number: int, set_one: str) -> None:
    """Refuse a forfeit without a deadline (`set_one` says how to set it) or before it."""
    if deadline is None:
        raise RuleViolation(
            f"no deadline is set for the openings of round {round_number}; set one first "
            f"({set_one})",
            code="no-deadline",
        )
    if now < deadline:
        minutes = -(-(deadline - now) // 60_000_000)
        raise RuleViolation(
            f"the deadline for round {round_number}'s openings has not passed: {minutes} "
            "minute(s) to go",
            code="deadline-not-passed",
        )
