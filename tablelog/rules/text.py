"""Free texts of any ruleset (a goal, a reason, a result, a scene's title): what is allowed.

The same limits as everywhere a player writes: valid text, no control characters but newline
and tab, not empty, at most MAX_TEXT characters.
"""

from __future__ import annotations

import re

from tablelog.errors import InvalidInput

MAX_TEXT = 4000
# The control characters a text may not hold: below 32 but tab and newline, and DEL. One
# regular expression search rather than a Python test per character (a 54-character
# narration: 0.8 µs rather than 5.5; every command of the service checks its texts).
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def text_of(value: str, what: str) -> str:
    """`value` stripped, or InvalidInput naming `what` and the rule it breaks."""
    stripped = value.strip()
    try:
        stripped.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(
            f"{what} is not valid text (check the terminal's encoding)", code="bad-text"
        ) from None
    if CONTROL.search(stripped):
        raise InvalidInput(f"{what} contains control characters", code="bad-text")
    if not stripped:
        raise InvalidInput(f"{what} must not be empty", code="empty-text")
    if len(stripped) > MAX_TEXT:
        raise InvalidInput(
            f"{what} may be at most {MAX_TEXT} characters; got {len(stripped)}",
            code="text-too-long",
        )
    return stripped


def optional_text(value: str | None, what: str) -> str:
    """An optional text: empty stays empty (""), anything else as `text_of`."""
    return text_of(value, what) if value and value.strip() else ""
