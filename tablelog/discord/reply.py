"""What the service answers Discord: an interaction response and the follow-up messages
sent after it (through the interaction's webhook), built as Discord's JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Interaction response types and message flags (Discord's).
PONG, MESSAGE, DEFERRED, AUTOCOMPLETE, MODAL = 1, 4, 5, 8, 9
EPHEMERAL = 64
CONTENT_LIMIT = 2000
_ROOM = 1900  # a message's share of lines, leaving room for a closing note


@dataclass
class Reply:
    """The response to send now, and the messages to follow it."""

    response: dict[str, Any]
    followups: list[dict[str, Any]] = field(default_factory=list)


def message(
    content: str,
    *,
    ephemeral: bool,
    components: list[dict[str, Any]] | None = None,
    mention: list[str] | None = None,
) -> dict[str, Any]:
    """A message's data: it pings only the users in `mention`, never a role or @everyone a
    player's text might name."""
    data: dict[str, Any] = {
        "content": content[:CONTENT_LIMIT],
        "allowed_mentions": {"parse": [], "users": sorted(set(mention or []))[:100]},
    }
    if ephemeral:
        data["flags"] = EPHEMERAL
    if components:
        data["components"] = components
    return data


def chunks(lines: list[str]) -> list[str]:
    """Lines as messages of at most Discord's 2,000 characters, cut between lines."""
    found: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        line = line if len(line) <= _ROOM else line[: _ROOM - 1] + "\u2026"
        if current and size + len(line) + 1 > _ROOM:
            found.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        found.append("\n".join(current))
    return found or ["(nothing)"]


MESSAGES = 3  # the most one answer sends: a long history belongs on the page or the CLI


def told(lines: list[str], *, ephemeral: bool = True, code: bool = False) -> Reply:
    """Lines as a reply: the first message answers, the rest follow (three at most, then a
    line says how many more the page and the CLI show)."""
    parts = chunks(lines)
    if len(parts) > MESSAGES:
        left = sum(p.count("\n") + 1 for p in parts[MESSAGES:])
        parts = parts[:MESSAGES]
        parts[-1] += f"\n\u2026 and {left} more lines: the page or the CLI shows them all"
    if code:
        fence = "`" * 3
        parts = [f"{fence}\n{p.replace(fence, chr(39) * 3)}\n{fence}" for p in parts]
    first, *rest = parts
    return Reply(
        {"type": MESSAGE, "data": message(first, ephemeral=ephemeral)},
        [message(p, ephemeral=ephemeral) for p in rest],
    )


def refused(sentence: str) -> Reply:
    """A refusal: to the caller alone, and nothing appended; the commands it points to
    named as Discord's where Discord has them."""
    from tablelog.discord.tree import in_discords_words

    return told([in_discords_words(sentence)], ephemeral=True)
