"""Free texts of any ruleset (a goal, a reason, a result, a scene's title): what is allowed.

The same limits as everywhere a player writes: valid text, no control characters but newline
and tab, not empty, at most MAX_TEXT characters.
"""

from __future__ import annotations

from tablelog.errors import InvalidInput

MAX_TEXT = 4000


def text_of(value: str, what: str) -> str:
    """`value` stripped, or InvalidInput naming `what` and the rule it breaks."""
    stripped = value.strip()
    try:
        stripped.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(
            f"{what} is not valid text (check the terminal's encoding)", code="bad-text"
        ) from None
    if any((ord(ch) < 32 and ch not in "\n\t") or ord(ch) == 127 for ch in stripped):
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
